import { Effect, Option } from "effect"
import { SqlClient } from "effect/sql"
import type { Ledger } from "@ledger/api"
import * as Row from "../../kernel/Row.ts"
import { Registry } from "../../kernel/Registry.ts"
import type { AccountRef, ClassRef } from "./AccountRules.ts"

/**
 * Reads of the chart of accounts and the classes, shared by every ledger module and by other
 * areas (sales and banking look accounts up by code through `accountsByCode`).
 */

export const accountRef = (row: Record<string, unknown>): AccountRef => ({
  id: Row.int(row.id),
  code: String(row.code),
  name: String(row.name),
  type: row.type as AccountRef["type"],
  active: Boolean(row.active),
  control: row.control === "ar" || row.control === "ap" ? row.control : null,
  // Only the posting path's reads bring the turnover (`turnoverColumns`); sums are numeric, so text.
  ...(row.turnover_debit === undefined || row.turnover_debit === null
    ? {}
    : { turnover: { debitCents: BigInt(String(row.turnover_debit)), creditCents: BigInt(String(row.turnover_credit)) } })
})

/**
 * The all-time debit and credit turnover of the account row aliased `a`, as `turnover_debit` and
 * `turnover_credit` (text: PostgreSQL sums bigint as numeric): one primary-key range of its
 * monthly totals, joined into the posting path's account read so the bound costs no round trip
 * (ADR 0717). `accountRef` carries them as `turnover`.
 */
export const turnoverJoin = (sql: SqlClient.SqlClient) =>
  sql`CROSS JOIN LATERAL (SELECT coalesce(sum(t.debit_cents), 0)::text AS turnover_debit,
      coalesce(sum(t.credit_cents), 0)::text AS turnover_credit
    FROM account_monthly_totals t WHERE t.company_id = a.company_id AND t.account_id = a.id) AS turnover`

export interface Defaults {
  readonly income: string | null
  readonly expense: string | null
}

/** An account row as the API shows it. */
export const account = (
  row: Record<string, unknown>,
  defaults: Defaults,
  balanceCents?: number
): Ledger.Records.Account => {
  const code = String(row.code)
  return {
    id: Row.int(row.id),
    code,
    name: String(row.name),
    type: row.type as Ledger.Records.AccountType,
    subtype: row.subtype === null ? null : String(row.subtype),
    parent_code: row.parent_code === null ? null : String(row.parent_code),
    control: row.control === null ? null : row.control as "ar" | "ap",
    active: Boolean(row.active),
    default_for: defaults.income === code ? "income" : defaults.expense === code ? "expense" : null,
    ...(balanceCents === undefined ? {} : { balance_cents: balanceCents }),
    created_at: Row.iso(row.created_at)
  }
}

/** The accounts of a company with these codes, by code (missing codes are simply absent). */
export const accountsByCode = Effect.fn("AccountStore.accountsByCode")(function*(companyId: string, codes: ReadonlyArray<string>) {
  const sql = yield* SqlClient.SqlClient
  const unique = Array.from(new Set(codes))
  if (unique.length === 0) return new Map<string, AccountRef>()
  const rows = yield* sql<Record<string, unknown>>`SELECT id, code, name, type, active, control FROM accounts
    WHERE company_id = ${companyId} AND code IN ${sql.in(unique)}`.pipe(Effect.orDie)
  return new Map(rows.map((row) => [String(row.code), accountRef(row)]))
})

/** One account row by code, optionally locked for update. */
export const accountRow = Effect.fn("AccountStore.accountRow")(function*(companyId: string, code: string, lock = false) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM accounts WHERE company_id = ${companyId} AND code = ${code}
    ${lock ? sql`FOR UPDATE` : sql``}`.pipe(Effect.orDie)
  return rows[0]
})

export const classesByName = Effect.fn("AccountStore.classesByName")(function*(companyId: string, names: ReadonlyArray<string>) {
  const sql = yield* SqlClient.SqlClient
  const unique = Array.from(new Set(names))
  if (unique.length === 0) return new Map<string, ClassRef>()
  const rows = yield* sql<Record<string, unknown>>`SELECT id, name FROM classes
    WHERE company_id = ${companyId} AND name IN ${sql.in(unique)}`.pipe(Effect.orDie)
  return new Map(rows.map((row) => [String(row.name), { id: Row.int(row.id), name: String(row.name) }]))
})

/** The defaults from a row that carries `income_code` and `expense_code` (absent or null: none). */
export const defaultsOf = (row: Record<string, unknown> | undefined): Defaults => ({
  income: row?.income_code === null || row?.income_code === undefined ? null : String(row.income_code),
  expense: row?.expense_code === null || row?.expense_code === undefined ? null : String(row.expense_code)
})

export const defaults = Effect.fn("AccountStore.defaults")(function*(companyId: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT income_code, expense_code FROM account_defaults
    WHERE company_id = ${companyId}`.pipe(Effect.orDie)
  return defaultsOf(rows[0])
})

/**
 * The ids that are not contacts of the company. Contacts belong to the sales area, which answers
 * through the registry (`contactLookups`, kernel/Registry.ts): the ledger never reads its table.
 * Without the registry (a group-commit writer, which takes no line naming a contact) or without a
 * lookup, no contact is known.
 */
export const unknownContacts = Effect.fn("AccountStore.unknownContacts")(function*(companyId: string, ids: ReadonlyArray<number>) {
  const unique = Array.from(new Set(ids))
  if (unique.length === 0) return []
  const registry = yield* Effect.serviceOption(Registry)
  const lookups = Option.isSome(registry) ? registry.value.contactLookups ?? [] : []
  const known = new Set<number>()
  for (const lookup of lookups) for (const id of yield* lookup(companyId, unique)) known.add(id)
  return unique.filter((id) => !known.has(id))
})

/** `sql.insert` of several rows wants a non-empty array; callers check emptiness first. */
export const rows = <A extends Record<string, unknown>>(values: ReadonlyArray<A>) =>
  values as unknown as readonly [Record<string, unknown>, ...Array<Record<string, unknown>>]

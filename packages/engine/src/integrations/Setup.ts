import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import * as Row from "../kernel/Row.ts"
import * as Administration from "../administration/index.ts"
import * as Ledger from "../ledger/index.ts"

/**
 * What completing a connection makes (spec 4.2): the connection's own agent (read and propose;
 * its posting threshold is the connection's), its clearing account, and the default mapping. A
 * reconnection of the same provider account takes over the clearing account and mappings of the
 * account's last connection, so balances carry on and nothing is mapped twice (ADR 1602).
 */

const previousOf = Effect.fn("Setup.previousOf")(function*(company: string, id: number, provider: string, accountId: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT id, clearing_account FROM integration_connections
    WHERE company_id = ${company} AND provider = ${provider} AND external_account_id = ${accountId} AND id <> ${id}
    AND clearing_account IS NOT NULL ORDER BY id DESC LIMIT 1`.pipe(Effect.orDie)
  return rows[0] === undefined ? null : { id: Row.int(rows[0].id), clearingAccount: String(rows[0].clearing_account) }
})

export const connectionPieces = Effect.fn("Setup.connectionPieces")(function*(
  company: string,
  id: number,
  provider: string,
  accountId: string,
  accountName: string,
  thresholdCents: number,
  now: string
) {
  const sql = yield* SqlClient.SqlClient
  const agentId = yield* Administration.createAgent(company, {
    name: `${accountName} (${provider} sync)`,
    scopes: ["read", "propose"],
    postingThresholdCents: thresholdCents
  }, now)
  const previous = yield* previousOf(company, id, provider, accountId)
  let clearingAccount = previous?.clearingAccount ?? `CLR-${id}`
  if (previous === null) {
    yield* Ledger.addAccounts(company, [{ code: clearingAccount, name: `${accountName} clearing`, type: "asset", subtype: "clearing" }], now)
  } else {
    yield* sql`INSERT INTO integration_mappings (company_id, connection_id, kind, source_key, account_code, class_name, project_name, updated_at)
      SELECT company_id, ${id}, kind, source_key, account_code, class_name, project_name, ${now} FROM integration_mappings
      WHERE company_id = ${company} AND connection_id = ${previous.id}`.pipe(Effect.orDie)
    clearingAccount = previous.clearingAccount
  }
  return { agentId, clearingAccount, reconnected: previous !== null }
})

const firstOf = Effect.fn("Setup.firstOf")(function*(company: string, type: string, subtypeLike: string | null) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ code: string }>`SELECT code FROM accounts WHERE company_id = ${company} AND type = ${type} AND active
    ${subtypeLike === null ? sql`` : sql`AND (subtype LIKE ${subtypeLike} OR lower(name) LIKE ${subtypeLike})`}
    ORDER BY code LIMIT 1`.pipe(Effect.orDie)
  return rows[0]?.code ?? null
})

/** The `*` default of each kind, from the chart: income, the default expense, a sales-tax liability. */
export const defaultMappings = Effect.fn("Setup.defaultMappings")(function*(company: string, id: number, now: string) {
  const sql = yield* SqlClient.SqlClient
  const defaults = yield* sql<{ income_code: string | null; expense_code: string | null }>`SELECT income_code, expense_code
    FROM account_defaults WHERE company_id = ${company}`.pipe(Effect.orDie)
  const income = defaults[0]?.income_code ?? (yield* firstOf(company, "income", null))
  const expense = defaults[0]?.expense_code ?? (yield* firstOf(company, "expense", null))
  const tax = yield* firstOf(company, "liability", "%tax%")
  const byKind: Record<string, string | null> = {
    category: income,
    product: income,
    shipping: income,
    discount: income,
    refund: income,
    fee: expense,
    tax,
    tip: null,
    payout: null
  }
  const values = Object.entries(byKind).map(([kind, account]) => ({
    company_id: company,
    connection_id: id,
    kind,
    source_key: "*",
    account_code: account,
    class_name: null,
    project_name: null,
    updated_at: now
  }))
  yield* sql`INSERT INTO integration_mappings ${sql.insert(values as unknown as readonly [Record<string, unknown>, ...Array<Record<string, unknown>>])} ON CONFLICT DO NOTHING`.pipe(Effect.orDie)
})

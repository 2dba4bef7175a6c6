import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError } from "@ledger/api"

/**
 * What sales needs to know about the ledger's accounts: that a code exists and is active, which
 * accounts are AR and AP controls, and the company's default income and expense accounts.
 */
export interface AccountFacts {
  readonly code: string
  readonly type: string
  readonly control: "ar" | "ap" | null
  readonly active: boolean
}

export const load = Effect.fn("AccountStore.load")(function*(companyId: string, codes: ReadonlyArray<string>) {
  const sql = yield* SqlClient.SqlClient
  const unique = Array.from(new Set(codes))
  if (unique.length === 0) return new Map<string, AccountFacts>()
  const rows = yield* sql<{ code: string; type: string; control: string | null; active: boolean }>`
    SELECT code, type, control, active FROM accounts WHERE company_id = ${companyId} AND code IN ${sql.in(unique)}`
    .pipe(Effect.orDie)
  return new Map(rows.map((row) => [row.code, {
    code: row.code,
    type: row.type,
    control: row.control as "ar" | "ap" | null,
    active: row.active === true
  }]))
})

/** Refuses codes that are unknown or inactive, naming where each was given. */
export const requireUsable = Effect.fn("AccountStore.requireUsable")(function*(
  companyId: string,
  uses: ReadonlyArray<{ readonly code: string; readonly path: ReadonlyArray<string | number> }>
) {
  const facts = yield* load(companyId, uses.map((use) => use.code))
  const unknown = uses.filter((use) => !facts.has(use.code))
  if (unknown.length > 0) {
    return yield* Effect.fail(ApiError.fail("unknown_account", `No such account: ${Array.from(new Set(unknown.map((use) => use.code))).join(", ")}.`, {
      issues: unknown.map((use) => ({ path: use.path, message: `Unknown account ${use.code}` }))
    }))
  }
  const inactive = uses.filter((use) => facts.get(use.code)?.active !== true)
  if (inactive.length > 0) {
    return yield* Effect.fail(ApiError.fail("inactive_account", `Inactive account: ${Array.from(new Set(inactive.map((use) => use.code))).join(", ")}.`, {
      issues: inactive.map((use) => ({ path: use.path, message: `Account ${use.code} is inactive` }))
    }))
  }
  return facts
})

/** The first active AR (sales) or AP (purchases) control account, by code. */
export const defaultControl = Effect.fn("AccountStore.defaultControl")(function*(companyId: string, control: "ar" | "ap") {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ code: string }>`SELECT code FROM accounts
    WHERE company_id = ${companyId} AND control = ${control} AND active ORDER BY code LIMIT 1`.pipe(Effect.orDie)
  const row = rows[0]
  if (row === undefined) {
    return yield* Effect.fail(ApiError.validationFailed(
      `The company has no active ${control.toUpperCase()} control account: create one or name control_account.`,
      [{ path: ["body", "control_account"], message: "Required: no default exists" }]
    ))
  }
  return row.code
})

/**
 * Where a payment with no `account` and no bank line goes (ADR 0307): money received into the
 * first active undeposited-funds account, money paid out of the first active bank account, by code.
 */
export const defaultPaymentAccount = Effect.fn("AccountStore.defaultPaymentAccount")(function*(
  companyId: string,
  direction: "received" | "made"
) {
  const sql = yield* SqlClient.SqlClient
  const subtype = direction === "received" ? "undeposited_funds" : "bank"
  const rows = yield* sql<{ code: string }>`SELECT code FROM accounts
    WHERE company_id = ${companyId} AND subtype = ${subtype} AND control IS NULL AND active ORDER BY code LIMIT 1`.pipe(Effect.orDie)
  const row = rows[0]
  if (row === undefined) {
    return yield* Effect.fail(ApiError.validationFailed(
      direction === "received"
        ? "Name the account the money went into (or a bank line): the company has no active undeposited funds account."
        : "Name the account the money left (or a bank line): the company has no active bank account.",
      [{ path: ["body", "account"], message: `Required: no active ${subtype} account to default to` }]
    ))
  }
  return row.code
})

/** The company's default income and expense accounts (POST /v1/accounts/defaults). */
export const defaults = Effect.fn("AccountStore.defaults")(function*(companyId: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ income_code: string | null; expense_code: string | null }>`
    SELECT income_code, expense_code FROM account_defaults WHERE company_id = ${companyId}`.pipe(Effect.orDie)
  return { income: rows[0]?.income_code ?? null, expense: rows[0]?.expense_code ?? null }
})

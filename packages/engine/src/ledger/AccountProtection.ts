import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { Statement } from "effect/sql"
import * as Row from "../kernel/Row.ts"
import * as SalesProtections from "../sales/AccountProtections.ts"

/**
 * Why an account may not be deactivated (spec 7, `account_protected`). Each check is a small SQL
 * question asked inside the deactivation's transaction. The ledger's own checks are here; other
 * areas add ONE line each for theirs, e.g.
 *
 *   exists("bank_account", "It is a bank account's ledger account.", (sql, account) =>
 *     sql`SELECT 1 FROM bank_accounts WHERE company_id = ${account.companyId} AND ledger_account_id = ${account.id}`),
 *
 * The table a check reads must exist once its area's migration has run; checks run in list order
 * and every failing one is reported in `details.protections`.
 */

export interface ProtectedAccount {
  readonly companyId: string
  readonly id: number
  readonly code: string
  readonly type: string
  readonly control: "ar" | "ap" | null
}

export interface ProtectionCheck {
  /** A stable name shown in `details.protections[].check`. */
  readonly name: string
  /** A message when the account is protected by this rule, else null. */
  readonly check: (account: ProtectedAccount) => Effect.Effect<string | null, never, SqlClient.SqlClient>
}

/** Protected whenever `query` returns a row. */
export const exists = (
  name: string,
  message: string,
  query: (sql: SqlClient.SqlClient, account: ProtectedAccount) => Statement.Statement<Record<string, unknown>>
): ProtectionCheck => ({
  name,
  check: (account) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const rows = yield* query(sql, account).pipe(Effect.orDie)
      return rows.length > 0 ? message : null
    })
})

const controlAccount: ProtectionCheck = {
  name: "control_account",
  check: (account) =>
    Effect.succeed(account.control === null ? null : `It is the ${account.control === "ar" ? "receivables" : "payables"} control account.`)
}

const defaultAccount = exists(
  "default_account",
  "It is a default income or expense account: choose another default first.",
  (sql, account) =>
    sql`SELECT 1 FROM account_defaults WHERE company_id = ${account.companyId}
      AND (income_code = ${account.code} OR expense_code = ${account.code})`
)

const parentWithActiveChildren: ProtectionCheck = {
  name: "active_sub_accounts",
  check: (account) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{ code: unknown }>`SELECT code FROM accounts WHERE company_id = ${account.companyId}
        AND parent_code = ${account.code} AND active ORDER BY code LIMIT 10`.pipe(Effect.orDie)
      return rows.length === 0 ? null : `It has active sub-accounts (${rows.map((row) => String(row.code)).join(", ")}).`
    })
}

export const checks: ReadonlyArray<ProtectionCheck> = [
  SalesProtections.activeTaxRatePayable,
  SalesProtections.activeItemAccount,
  controlAccount,
  defaultAccount,
  parentWithActiveChildren,
  // sales: the payable account of an active tax rate, an active item's accounts (one line each)
  // banking: a bank account's ledger account (one line)
  exists("bank_account", "It is a bank account's ledger account.", (sql, account) =>
    sql`SELECT 1 FROM bank_accounts WHERE company_id = ${account.companyId} AND account_id = ${account.id}`),
]

/** Every rule that protects the account, empty when it may be deactivated. */
export const protections = Effect.fn("AccountProtection.protections")(function*(account: ProtectedAccount) {
  const found: Array<{ readonly check: string; readonly message: string }> = []
  for (const rule of checks) {
    const message = yield* rule.check(account)
    if (message !== null) found.push({ check: rule.name, message })
  }
  return found
})

export const fromRow = (companyId: string, row: Record<string, unknown>): ProtectedAccount => ({
  companyId,
  id: Row.int(row.id),
  code: String(row.code),
  type: String(row.type),
  control: row.control === null ? null : row.control as "ar" | "ap"
})

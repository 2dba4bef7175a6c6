import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import * as Row from "../../kernel/Row.ts"
import { exists, type ProtectedAccount, type ProtectionCheck, Registry } from "../../kernel/Registry.ts"

/**
 * Why an account may not be deactivated (spec 7, `account_protected`). Each check is a small SQL
 * question asked inside the deactivation's transaction. The ledger's own checks are here; other
 * areas declare theirs in their `Area` (`protections`), e.g. banking's
 *
 *   exists("bank_account", "It is a bank account's ledger account.", (sql, account) =>
 *     sql`SELECT 1 FROM bank_accounts WHERE company_id = ${account.companyId} AND account_id = ${account.id}`)
 *
 * Checks run in the order of the areas (the ledger's first) and every failing one is reported in
 * `details.protections`.
 */

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

/** The ledger's own checks, registered in its `Area`. */
export const checks: ReadonlyArray<ProtectionCheck> = [controlAccount, defaultAccount, parentWithActiveChildren]

/** Every registered rule that protects the account, empty when it may be deactivated. */
export const protections = Effect.fn("AccountProtections.protections")(function*(account: ProtectedAccount) {
  const registry = yield* Registry
  const found: Array<{ readonly check: string; readonly message: string }> = []
  for (const rule of registry.protections) {
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

import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { ProtectionCheck } from "../ledger/AccountProtection.ts"

/**
 * Accounts sales relies on may not be deactivated (spec 7, `account_protected`): the payable
 * account of an active tax rate, and the income or expense account of an active item. Registered
 * one line each in ledger/AccountProtection.ts.
 */
export const activeTaxRatePayable: ProtectionCheck = {
  name: "active_tax_rate",
  check: (account) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{ name: string }>`SELECT name FROM tax_rates WHERE company_id = ${account.companyId}
        AND active AND payable_account = ${account.code} ORDER BY id LIMIT 5`.pipe(Effect.orDie)
      return rows.length === 0 ? null : `It is the payable account of active tax rates (${rows.map((row) => row.name).join(", ")}).`
    })
}

export const activeItemAccount: ProtectionCheck = {
  name: "active_item",
  check: (account) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{ name: string }>`SELECT name FROM items WHERE company_id = ${account.companyId} AND active
        AND (income_account = ${account.code} OR expense_account = ${account.code}) ORDER BY id LIMIT 5`.pipe(Effect.orDie)
      return rows.length === 0 ? null : `It is an account of active items (${rows.map((row) => row.name).join(", ")}).`
    })
}

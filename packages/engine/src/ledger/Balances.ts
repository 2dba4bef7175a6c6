import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import * as Row from "../Row.ts"
import { type AccountRef, naturalSign } from "./JournalEntry.ts"

/**
 * Balances come from `account_daily_totals`, never from the journal: one row per account and day
 * with that day's debits and credits, upserted by the database when a posting commits (migration
 * 0002). A balance as of a date sums an account's rows up to that date. The reports area reads the
 * same table.
 */

export interface Totals {
  readonly debitCents: number
  readonly creditCents: number
}

/** Debit and credit sums up to and including `asOf`, per account id (accounts without rows are absent). */
export const totalsAsOf = Effect.fn("Balances.totalsAsOf")(function*(
  companyId: string,
  asOf: string,
  accountIds?: ReadonlyArray<number>
) {
  const sql = yield* SqlClient.SqlClient
  if (accountIds !== undefined && accountIds.length === 0) return new Map<number, Totals>()
  const rows = yield* sql<Record<string, unknown>>`SELECT account_id, sum(debit_cents) AS debit_cents, sum(credit_cents) AS credit_cents
    FROM account_daily_totals WHERE company_id = ${companyId} AND day <= ${asOf}
    ${accountIds === undefined ? sql`` : sql`AND account_id IN ${sql.in(Array.from(new Set(accountIds)))}`}
    GROUP BY account_id`.pipe(Effect.orDie)
  return new Map(rows.map((row) => [Row.int(row.account_id), {
    debitCents: Row.int(row.debit_cents),
    creditCents: Row.int(row.credit_cents)
  }]))
})

/** A balance signed in the account's natural direction (DECISIONS.md). */
export const natural = (type: AccountRef["type"], totals: Totals | undefined): number =>
  totals === undefined ? 0 : naturalSign(type) * (totals.debitCents - totals.creditCents)

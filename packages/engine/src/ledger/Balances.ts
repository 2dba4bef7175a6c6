import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import * as Row from "../Row.ts"
import * as Chart from "./Chart.ts"
import { type AccountRef, naturalSign } from "./JournalEntry.ts"

/**
 * Balances come from `account_daily_totals`, never from the journal: one row per account and day
 * with that day's debits and credits, upserted in the posting's transaction. A balance as of a date
 * sums an account's rows up to that date. The reports area reads the same table.
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

/**
 * Adds an entry's per-account sums to the day's totals. Rows are upserted in account-id order so
 * that concurrent postings touching the same accounts take their row locks in one order.
 */
export const add = Effect.fn("Balances.add")(function*(
  companyId: string,
  day: string,
  sums: ReadonlyArray<{ readonly accountId: number; readonly debitCents: number; readonly creditCents: number }>
) {
  const sql = yield* SqlClient.SqlClient
  if (sums.length === 0) return
  yield* sql`INSERT INTO account_daily_totals ${sql.insert(Chart.rows(sums.map((sum) => ({
    company_id: companyId,
    account_id: sum.accountId,
    day,
    debit_cents: sum.debitCents,
    credit_cents: sum.creditCents
  }))))}
    ON CONFLICT (company_id, account_id, day) DO UPDATE SET
      debit_cents = account_daily_totals.debit_cents + excluded.debit_cents,
      credit_cents = account_daily_totals.credit_cents + excluded.credit_cents`.pipe(Effect.orDie)
})

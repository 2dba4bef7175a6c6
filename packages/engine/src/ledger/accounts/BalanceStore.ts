import { Effect } from "effect"
import { SqlClient, type Statement } from "effect/sql"
import * as Row from "../../kernel/Row.ts"
import { type AccountRef, naturalSign } from "./AccountRules.ts"

/**
 * Balances come from the totals the database keeps as lines are posted, never from the journal: one
 * row per account and month (`account_monthly_totals`) and per account and day
 * (`account_daily_totals`), each with its debits and credits (store/migrations/0002_ledger.ts). A
 * balance as of a date is the account's whole months before that date's month plus the days of
 * its month up to the date: at most one row a month and 31 daily rows per account, however long
 * the company has been posting. The reports area reads the same tables.
 */

/** The first day of a date's month: totals before it come by month, from it by day. */
const monthStartOf = (asOf: string): string => `${asOf.slice(0, 7)}-01`

export interface Totals {
  readonly debitCents: number
  readonly creditCents: number
}

/**
 * Debit and credit sums up to and including `asOf` per account, as a subquery with the columns
 * `account_id`, `debit_cents` and `credit_cents` (accounts without totals have no row), for the
 * accounts `onlyThese` names (an SQL condition on `account_id`, or nothing for all of them). Lets a
 * read bring balances in the statement that reads its accounts.
 */
export const totalsAsOfQuery = (
  sql: SqlClient.SqlClient,
  companyId: string,
  asOf: string,
  onlyThese: Statement.Fragment
): Statement.Fragment =>
  sql`SELECT account_id, sum(debit_cents) AS debit_cents, sum(credit_cents) AS credit_cents
    FROM (
      SELECT account_id, debit_cents, credit_cents FROM account_monthly_totals
      WHERE company_id = ${companyId} AND month < ${monthStartOf(asOf)} ${onlyThese}
      UNION ALL
      SELECT account_id, debit_cents, credit_cents FROM account_daily_totals
      WHERE company_id = ${companyId} AND day >= ${monthStartOf(asOf)} AND day <= ${asOf} ${onlyThese}
    ) AS totals
    GROUP BY account_id`

/**
 * The totals a row carries as `debit_cents` and `credit_cents` (null: the account has none), read
 * with `Row.withSummedCents`'s `cents` (sums past the safe range are amount_out_of_range).
 */
export const totalsOf = (row: Record<string, unknown>, cents: (value: unknown) => number): Totals | undefined =>
  row.debit_cents === null || row.debit_cents === undefined
    ? undefined
    : { debitCents: cents(row.debit_cents), creditCents: cents(row.credit_cents) }

/** Debit and credit sums up to and including `asOf`, per account id (accounts without rows are absent). */
export const totalsAsOf = Effect.fn("BalanceStore.totalsAsOf")(function*(
  companyId: string,
  asOf: string,
  accountIds?: ReadonlyArray<number>
) {
  const sql = yield* SqlClient.SqlClient
  if (accountIds !== undefined && accountIds.length === 0) return new Map<number, Totals>()
  const ids = accountIds === undefined ? null : Array.from(new Set(accountIds))
  const onlyThese = ids === null ? sql`` : sql`AND account_id IN ${sql.in(ids)}`
  const rows = yield* sql<Record<string, unknown>>`${totalsAsOfQuery(sql, companyId, asOf, onlyThese)}`.pipe(Effect.orDie)
  return yield* Row.withSummedCents((cents) => new Map(rows.map((row) => [Row.int(row.account_id), totalsOf(row, cents)!])))
})

/** A balance signed in the account's natural direction (DECISIONS.md). */
export const natural = (type: AccountRef["type"], totals: Totals | undefined): number =>
  totals === undefined ? 0 : naturalSign(type) * (totals.debitCents - totals.creditCents)

import type * as SafeTotals from "./SafeTotals.ts"
import type * as ReportChart from "./ReportChart.ts"
import * as TotalsStore from "./TotalsStore.ts"

/**
 * The year-end close, done in the reports rather than in the journal. Ledger posts no closing
 * entries (posted entries are immutable, and a late entry in a closed year would need the close
 * redone): instead every report closes income and expenses to retained earnings at each
 * fiscal-year start as it reads. An income or expense account's balance is its activity since the
 * start of the fiscal year; the net income of every earlier year is added to the retained earnings
 * account (docs/decisions/0202-year-end-close-in-reports.md).
 */

/** Sums up to the end of a day and up to the day before its fiscal year started. */
export interface ClosingInput {
  readonly toDate: ReadonlyMap<number, TotalsStore.Totals>
  readonly beforeYear: ReadonlyMap<number, TotalsStore.Totals>
}

export interface Closed {
  /** Debits minus credits per account id, after the close; accounts at zero may be absent. */
  readonly nets: ReadonlyMap<number, number>
  /** Income minus expenses of earlier fiscal years (in the retained earnings account's net, when there is one). */
  readonly earlierYearsEarnings: number
  /** Income minus expenses of the fiscal year so far. */
  readonly currentYearEarnings: number
}

/**
 * `total` adds the earnings of many accounts (SafeTotals.withTotals): each account's figures are
 * within the safe range, their sum need not be.
 */
export const close = (
  accounts: ReadonlyArray<ReportChart.ReportAccount>,
  retainedEarningsId: number | null,
  input: ClosingInput,
  total: SafeTotals.Total
): Closed => {
  const nets = new Map<number, number>()
  const earlier: Array<number> = []
  const current: Array<number> = []
  for (const account of accounts) {
    const toDate = TotalsStore.net(input.toDate.get(account.id) ?? TotalsStore.zero)
    if (account.type === "income" || account.type === "expense") {
      const beforeYear = TotalsStore.net(input.beforeYear.get(account.id) ?? TotalsStore.zero)
      // Earnings are credits minus debits: income is credited, expenses debited.
      earlier.push(-beforeYear)
      current.push(beforeYear - toDate)
      nets.set(account.id, toDate - beforeYear)
    } else {
      nets.set(account.id, toDate)
    }
  }
  const earlierYearsEarnings = total(earlier)
  const currentYearEarnings = total(current)
  if (retainedEarningsId !== null) nets.set(retainedEarningsId, total([nets.get(retainedEarningsId) ?? 0, -earlierYearsEarnings]))
  return { nets, earlierYearsEarnings, currentYearEarnings }
}

/** The two ranges `close` reads for a balance at the end of `date`, given its fiscal year's start. */
export const ranges = (date: string, fiscalYearStart: string, dayBefore: (date: string) => string): ReadonlyArray<TotalsStore.Range> => [
  { from: null, to: date },
  { from: null, to: dayBefore(fiscalYearStart) }
]

/** `close` over the sums of one column, read with `ranges` at `offset` and `offset + 1`. */
export const closeColumn = (
  accounts: ReadonlyArray<ReportChart.ReportAccount>,
  retainedEarningsId: number | null,
  column: ReadonlyMap<number, ReadonlyArray<TotalsStore.Totals>> | undefined,
  total: SafeTotals.Total,
  offset = 0
): Closed => {
  const toDate = new Map<number, TotalsStore.Totals>()
  const beforeYear = new Map<number, TotalsStore.Totals>()
  for (const [accountId, totals] of column ?? []) {
    toDate.set(accountId, totals[offset]!)
    beforeYear.set(accountId, totals[offset + 1]!)
  }
  return close(accounts, retainedEarningsId, { toDate, beforeYear }, total)
}

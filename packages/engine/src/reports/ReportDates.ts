import { Result } from "effect"
import type { ApiError } from "@ledger/api"
import { addDays, addMonthsClamped } from "../kernel/values/Calendar.ts"
import { FiscalYear } from "../ledger/index.ts"

/**
 * Date arithmetic of the reports on `YYYY-MM-DD` strings (UTC calendar days, no clock): the
 * defaults of `as_of`, `from` and `to`, fiscal-year starts, and the split of a date range into
 * whole months and loose days that lets a balance read monthly totals.
 */

export interface Span {
  readonly from: string
  readonly to: string
}

export { addDays }
export const dayBefore = (date: string): string => addDays(date, -1)

export const monthStart = (date: string): string => `${date.slice(0, 7)}-01`
export const monthEnd = (date: string): string => {
  const { year, month } = FiscalYear.parts(date)
  return FiscalYear.format(year, month, FiscalYear.daysInMonth(year, month))
}

/** The first day of the month `count` months after the month of `date` (count may be negative). */
export const addMonths = (date: string, count: number): string => monthStart(addMonthsClamped(date, count))

/** The first day of the fiscal year containing `date`. */
export const fiscalYearStart = (date: string, startMonth: number): string =>
  FiscalYear.range(FiscalYear.containing(date, startMonth), startMonth).start

/** The first days of fiscal years after `from` and on or before `to`: where income and expenses close. */
export const fiscalYearStartsWithin = (span: Span, startMonth: number): ReadonlyArray<string> => {
  const starts: Array<string> = []
  let start = addMonths(fiscalYearStart(span.from, startMonth), 12)
  while (start <= span.to) {
    starts.push(start)
    start = addMonths(start, 12)
  }
  return starts
}

export const asOf = (query: { readonly as_of?: string | undefined }, today: string): string => query.as_of ?? today

/**
 * `to` defaults to today and `from` to the first day of the fiscal year containing `to`; a range
 * that ends before it starts is refused, naming `from`.
 */
export const span = (
  query: { readonly from?: string | undefined; readonly to?: string | undefined },
  today: string,
  startMonth: number
): Result.Result<Span, ReadonlyArray<ApiError.Issue>> => {
  const to = query.to ?? today
  const from = query.from ?? fiscalYearStart(to, startMonth)
  if (from > to) return Result.fail([{ path: ["query", "from"], message: `from (${from}) is after to (${to})` }])
  return Result.succeed({ from, to })
}

/**
 * A range of days as whole months plus loose days, so that its sum reads at most one monthly row
 * per month and a few daily rows per account. At each end, a partial month is read as its days
 * or, when most of the month is wanted, as the whole month less the days not wanted: whichever
 * reads fewer days. A balance as of a date late in its month thus reads the month's row less the
 * days after the date, usually none (nothing is posted in the future). `from` null means since
 * the beginning. Months are named by their first day.
 */
export interface Split {
  readonly months: { readonly from: string | null; readonly to: string } | null
  /** Days added to the months. */
  readonly days: ReadonlyArray<Span>
  /** Days taken from the months: the unwanted part of a month read whole. */
  readonly daysOut: ReadonlyArray<Span>
}

const dayOfMonth = (date: string): number => Number(date.slice(8, 10))
const monthLength = (date: string): number => dayOfMonth(monthEnd(date))

export const split = (range: { readonly from: string | null; readonly to: string }): Split => {
  const { from, to } = range
  if (from !== null && from > to) return { months: null, days: [], daysOut: [] }
  const days: Array<Span> = []
  const daysOut: Array<Span> = []
  if (from !== null && monthStart(from) === monthStart(to)) {
    const wanted = dayOfMonth(to) - dayOfMonth(from) + 1
    if (monthLength(to) - wanted >= wanted) return { months: null, days: [{ from, to }], daysOut: [] }
    if (from !== monthStart(from)) daysOut.push({ from: monthStart(from), to: dayBefore(from) })
    if (to !== monthEnd(to)) daysOut.push({ from: addDays(to, 1), to: monthEnd(to) })
    return { months: { from: monthStart(from), to: monthStart(to) }, days, daysOut }
  }
  let firstMonth: string | null = null
  if (from !== null) {
    if (from === monthStart(from)) {
      firstMonth = from
    } else if (dayOfMonth(from) - 1 < monthLength(from) - dayOfMonth(from) + 1) {
      firstMonth = monthStart(from)
      daysOut.push({ from: monthStart(from), to: dayBefore(from) })
    } else {
      days.push({ from, to: monthEnd(from) })
      firstMonth = addMonths(from, 1)
    }
  }
  let lastMonth: string
  if (to === monthEnd(to)) {
    lastMonth = monthStart(to)
  } else if (monthLength(to) - dayOfMonth(to) < dayOfMonth(to)) {
    lastMonth = monthStart(to)
    daysOut.push({ from: addDays(to, 1), to: monthEnd(to) })
  } else {
    days.push({ from: monthStart(to), to })
    lastMonth = addMonths(to, -1)
  }
  const months = firstMonth === null || firstMonth <= lastMonth ? { from: firstMonth, to: lastMonth } : null
  return { months, days, daysOut }
}

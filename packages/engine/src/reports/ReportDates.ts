import { Result } from "effect"
import type { ApiError } from "@ledger/api"
import * as FiscalYear from "../ledger/FiscalYear.ts"

/**
 * Date arithmetic of the reports on `YYYY-MM-DD` strings (UTC calendar days, no clock): the
 * defaults of `as_of`, `from` and `to`, fiscal-year starts, and the split of a date range into
 * whole months and loose days that lets a balance read monthly totals.
 */

export interface Span {
  readonly from: string
  readonly to: string
}

const dayMilliseconds = 86_400_000

const toTime = (date: string): number => Date.parse(`${date}T00:00:00Z`)
const fromTime = (time: number): string => new Date(time).toISOString().slice(0, 10)

export const addDays = (date: string, days: number): string => fromTime(toTime(date) + days * dayMilliseconds)
export const dayBefore = (date: string): string => addDays(date, -1)

export const monthStart = (date: string): string => `${date.slice(0, 7)}-01`
export const monthEnd = (date: string): string => {
  const { year, month } = FiscalYear.parts(date)
  return FiscalYear.format(year, month, FiscalYear.daysInMonth(year, month))
}

/** The first day of the month `count` months after the month of `date` (count may be negative). */
export const addMonths = (date: string, count: number): string => {
  const { year, month } = FiscalYear.parts(date)
  const index = year * 12 + (month - 1) + count
  return FiscalYear.format(Math.floor(index / 12), (index % 12) + 1, 1)
}

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
 * A range of days as whole months plus the loose days at either end, so that its sum reads at most
 * one monthly row per month and 62 daily rows per account. `from` null means since the beginning.
 * Months are named by their first day.
 */
export interface Split {
  readonly months: { readonly from: string | null; readonly to: string } | null
  readonly days: ReadonlyArray<Span>
}

export const split = (range: { readonly from: string | null; readonly to: string }): Split => {
  const { from, to } = range
  if (from !== null && from > to) return { months: null, days: [] }
  const days: Array<Span> = []
  // The first whole month: the month of `from` when it starts on its first day, else the next one.
  let firstMonth: string | null = null
  if (from !== null) {
    if (from === monthStart(from)) {
      firstMonth = from
    } else {
      const head = { from, to: monthEnd(from) < to ? monthEnd(from) : to }
      days.push(head)
      if (head.to === to) return { months: null, days }
      firstMonth = addMonths(from, 1)
    }
  }
  // The last whole month: the month of `to` when it ends on its last day, else the one before.
  const lastMonth = to === monthEnd(to) ? monthStart(to) : addMonths(to, -1)
  if (to !== monthEnd(to)) {
    days.push({ from: monthStart(to), to })
  }
  const months = firstMonth === null || firstMonth <= lastMonth ? { from: firstMonth, to: lastMonth } : null
  return { months, days }
}

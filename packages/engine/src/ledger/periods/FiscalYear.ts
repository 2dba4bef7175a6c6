/**
 * Fiscal years and monthly periods as date arithmetic on `YYYY-MM-DD` strings (UTC, no clock).
 * A fiscal year is named by the calendar year it ends (spec 4.4): with a July start, fiscal year
 * 2025 runs from 2024-07-01 to 2025-06-30.
 */

export interface DateRange {
  readonly start: string
  readonly end: string
}

const pad = (value: number, width = 2): string => String(value).padStart(width, "0")

export const format = (year: number, month: number, day: number): string => `${pad(year, 4)}-${pad(month)}-${pad(day)}`

export const parts = (date: string): { readonly year: number; readonly month: number; readonly day: number } => {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number]
  return { year, month, day }
}

export const daysInMonth = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate()

/** The fiscal year that ends in calendar year `fiscalYear`. */
export const range = (fiscalYear: number, startMonth: number): DateRange => {
  const startYear = startMonth === 1 ? fiscalYear : fiscalYear - 1
  const endMonth = startMonth === 1 ? 12 : startMonth - 1
  return { start: format(startYear, startMonth, 1), end: format(fiscalYear, endMonth, daysInMonth(fiscalYear, endMonth)) }
}

/** The fiscal year containing a date. */
export const containing = (date: string, startMonth: number): number => {
  const { month, year } = parts(date)
  return startMonth === 1 || month < startMonth ? year : year + 1
}

/** The twelve calendar months of a fiscal year, in order. */
export const months = (fiscalYear: number, startMonth: number): ReadonlyArray<DateRange> => {
  const out: Array<DateRange> = []
  let year = startMonth === 1 ? fiscalYear : fiscalYear - 1
  let month = startMonth
  for (let index = 0; index < 12; index++) {
    out.push({ start: format(year, month, 1), end: format(year, month, daysInMonth(year, month)) })
    month++
    if (month === 13) {
      month = 1
      year++
    }
  }
  return out
}

/** Days from `start` to `end` inclusive. */
export const lengthInDays = (range: DateRange): number =>
  Math.round((Date.parse(`${range.end}T00:00:00Z`) - Date.parse(`${range.start}T00:00:00Z`)) / 86_400_000) + 1

export const overlaps = (left: DateRange, right: DateRange): boolean => left.start <= right.end && right.start <= left.end

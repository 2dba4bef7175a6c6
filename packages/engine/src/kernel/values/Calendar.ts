/**
 * Calendar arithmetic on `YYYY-MM-DD` strings, in UTC, with no time of day to go wrong: the one
 * copy every area uses (sales' due dates, reports' ranges, bank matching windows, consents' end
 * dates, estimated-tax reminders). Years
 * outside 0000-9999 come out with more or fewer than four digits: callers treat any result that
 * is not ten characters long as "beyond the calendar" (`isCalendarDate`), since such strings do
 * not compare correctly as text.
 */
const parts = (date: string) => date.split("-").map(Number) as [number, number, number]

const toUtc = (date: string): number => {
  const [year, month, day] = parts(date)
  const value = new Date(0)
  // setUTCFullYear, unlike Date.UTC, does not read years 0-99 as 1900-1999.
  value.setUTCFullYear(year, month - 1, day)
  return value.getTime()
}

const format = (year: number, month: number, day: number): string =>
  `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`

const fromUtc = (milliseconds: number): string => {
  const value = new Date(milliseconds)
  return format(value.getUTCFullYear(), value.getUTCMonth() + 1, value.getUTCDate())
}
const dayMilliseconds = 86_400_000

/** A date of years 0000 to 9999, the only ones that order correctly as text. */
export const isCalendarDate = (date: string): boolean => /^\d{4}-\d{2}-\d{2}$/.test(date)

export const addDays = (date: string, days: number): string => fromUtc(toUtc(date) + days * dayMilliseconds)

/**
 * An ISO timestamp (`2026-01-31T10:00:00.000Z`) `days` later, to the millisecond: for expiries
 * counted from a request's `now`, where the time of day is kept.
 */
export const addDaysToInstant = (instant: string, days: number): string => new Date(Date.parse(instant) + days * dayMilliseconds).toISOString()

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export const daysBetween = (from: string, to: string): number => Math.round((toUtc(to) - toUtc(from)) / dayMilliseconds)

export const daysInMonth = (year: number, month: number): number => {
  const value = new Date(0)
  value.setUTCFullYear(year, month, 0)
  return value.getUTCDate()
}

/**
 * The date `months` months after `start`'s month, on `start`'s day clamped to that month's end:
 * Jan 31 + 1 month is Feb 28 (or 29), + 2 months is Mar 31.
 */
export const addMonthsClamped = (start: string, months: number): string => {
  const [year, month, day] = parts(start)
  const index = year * 12 + (month - 1) + months
  const targetYear = Math.floor(index / 12)
  const targetMonth = index - targetYear * 12 + 1
  return format(targetYear, targetMonth, Math.min(day, daysInMonth(targetYear, targetMonth)))
}

/** The same day `years` later (earlier when negative); 29 February falls back to 28 February, never to 1 March. */
export const addYears = (date: string, years: number): string => addMonthsClamped(date, years * 12)

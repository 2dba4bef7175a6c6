/** Calendar arithmetic on `YYYY-MM-DD` strings, in UTC, with no time of day to go wrong. */
const toUtc = (date: string): number => {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number]
  return Date.UTC(year, month - 1, day)
}
const fromUtc = (milliseconds: number): string => new Date(milliseconds).toISOString().slice(0, 10)
const dayMilliseconds = 86_400_000

export const addDays = (date: string, days: number): string => fromUtc(toUtc(date) + days * dayMilliseconds)

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export const daysBetween = (from: string, to: string): number => Math.round((toUtc(to) - toUtc(from)) / dayMilliseconds)

export const daysInMonth = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate()

/**
 * The date `months` months after `start`'s month, on `start`'s day clamped to that month's end:
 * Jan 31 + 1 month is Feb 28 (or 29), + 2 months is Mar 31.
 */
export const addMonthsClamped = (start: string, months: number): string => {
  const [year, month, day] = start.split("-").map(Number) as [number, number, number]
  const index = year * 12 + (month - 1) + months
  const targetYear = Math.floor(index / 12)
  const targetMonth = index - targetYear * 12 + 1
  const targetDay = Math.min(day, daysInMonth(targetYear, targetMonth))
  return `${String(targetYear).padStart(4, "0")}-${String(targetMonth).padStart(2, "0")}-${String(targetDay).padStart(2, "0")}`
}

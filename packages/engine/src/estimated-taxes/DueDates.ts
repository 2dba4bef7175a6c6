/**
 * The four estimated-tax due dates of a year, moved to the next business day when they fall on a
 * Saturday, Sunday or legal holiday (IRC 7503): federal holidays (5 U.S.C. 6103) as observed, and
 * District of Columbia Emancipation Day (April 16), a legal holiday in the District where the IRS is.
 */
const dayMs = 86_400_000
const utc = (year: number, month: number, day: number) => Date.UTC(year, month - 1, day)
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10)
const weekday = (ms: number) => new Date(ms).getUTCDay()

/** The nth (1-based) weekday (0 Sunday..6 Saturday) of a month; n = -1 the last. */
const nthWeekday = (year: number, month: number, day: number, n: number): number => {
  if (n > 0) {
    const first = utc(year, month, 1)
    return first + (((day - weekday(first) + 7) % 7) + (n - 1) * 7) * dayMs
  }
  const last = utc(year, month + 1, 1) - dayMs
  return last - ((weekday(last) - day + 7) % 7) * dayMs
}

/** A fixed-date holiday as observed: Saturday -> the Friday before, Sunday -> the Monday after. */
const observed = (ms: number): number => weekday(ms) === 6 ? ms - dayMs : weekday(ms) === 0 ? ms + dayMs : ms

/** The legal holidays of a year (ISO dates), as observed. */
export const holidays = (year: number): ReadonlySet<string> => new Set([
  observed(utc(year, 1, 1)),
  nthWeekday(year, 1, 1, 3),
  nthWeekday(year, 2, 1, 3),
  observed(utc(year, 4, 16)),
  nthWeekday(year, 5, 1, -1),
  observed(utc(year, 6, 19)),
  observed(utc(year, 7, 4)),
  nthWeekday(year, 9, 1, 1),
  nthWeekday(year, 10, 1, 2),
  observed(utc(year, 11, 11)),
  nthWeekday(year, 11, 4, 4),
  observed(utc(year, 12, 25)),
  observed(utc(year + 1, 1, 1))
].map(iso))

export const isBusinessDay = (date: string): boolean => {
  const ms = utc(Number(date.slice(0, 4)), Number(date.slice(5, 7)), Number(date.slice(8, 10)))
  const day = weekday(ms)
  return day !== 0 && day !== 6 && !holidays(Number(date.slice(0, 4))).has(date)
}

/** The date itself when it is a business day, else the next business day. */
export const rollForward = (date: string): string => {
  let ms = utc(Number(date.slice(0, 4)), Number(date.slice(5, 7)), Number(date.slice(8, 10)))
  while (!isBusinessDay(iso(ms))) ms += dayMs
  return iso(ms)
}

export type Schedule = "individual" | "corporation"

/** The statutory dates before any move: 1040-ES April, June, September 15 and January 15; 1120-W the 15th of months 4, 6, 9 and 12. */
export const statutory = (year: number, schedule: Schedule): ReadonlyArray<string> =>
  schedule === "individual"
    ? [`${year}-04-15`, `${year}-06-15`, `${year}-09-15`, `${year + 1}-01-15`]
    : [`${year}-04-15`, `${year}-06-15`, `${year}-09-15`, `${year}-12-15`]

export const dueDates = (year: number, schedule: Schedule): ReadonlyArray<string> => statutory(year, schedule).map(rollForward)

/**
 * Dates as banks write them, to `YYYY-MM-DD`: OFX datetimes ("20190918100000[-03:EST]"), ISO
 * dates with or without a time, numeric day-month-year or month-day-year with 2 or 4 digit
 * years and any of "/", ".", "-" or space between, and month names ("07 Nov 2013", "10-Nov-9").
 * The statement's own date is kept: the time zone of a datetime never moves the day.
 */

export type DateOrder = "ymd" | "dmy" | "mdy"

const monthNames: Record<string, number> = {
  jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, sept: 9, oct: 10, nov: 11, dec: 12,
  // German, French, Dutch, Spanish and Portuguese abbreviations that differ from English.
  mär: 3, mrz: 3, mai: 5, okt: 10, dez: 12, janv: 1, févr: 2, fevr: 2, fév: 2, avr: 4, juin: 6, juil: 7, août: 8,
  aout: 8, déc: 12, mrt: 3, mei: 5, ene: 1, abr: 4, ago: 8, dic: 12, fev: 2, set: 9, out: 10
}

const monthOf = (name: string): number | undefined => {
  const lower = name.toLowerCase()
  return monthNames[lower] ?? monthNames[lower.slice(0, 4)] ?? monthNames[lower.slice(0, 3)]
}

export const yearMin = 1900
export const yearMax = 2200

const fullYear = (text: string): number => {
  const year = Number(text)
  if (text.length >= 3) return year
  // Two-digit (and the odd one-digit) years: 70-99 are the 1900s, the rest the 2000s.
  return year >= 70 ? 1900 + year : 2000 + year
}

/** `YYYY-MM-DD` when year, month and day make a real calendar date in range, else null. */
export const isoDate = (year: number, month: number, day: number): string | null => {
  if (!Number.isInteger(year) || year < yearMin || year > yearMax) return null
  if (month < 1 || month > 12 || day < 1) return null
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate()
  if (day > daysInMonth) return null
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`
}

/** An OFX datetime: YYYYMMDD, then optionally HHMMSS, .XXX and [offset:TZ]. */
export const parseOfxDate = (text: string): string | null => {
  const match = /^\s*(\d{4})(\d{2})(\d{2})(?:\d{2}(?:\d{2}(?:\d{2}(?:[.:]\d{1,3})?)?)?)?\s*(?:\[[^\]]*\])?\s*$/u.exec(text)
  if (match === null) return null
  return isoDate(Number(match[1]), Number(match[2]), Number(match[3]))
}

/** A date in a CSV cell, read in `order` when its numbers could be either way round. */
export const parseDate = (input: string, order: DateOrder = "mdy"): string | null => {
  const text = input.trim().replace(/^["']|["']$/gu, "")
  if (text === "") return null
  let match = /^(\d{4})(\d{2})(\d{2})(?:\d{6})?(?:\[[^\]]*\])?$/u.exec(text)
  if (match !== null) return isoDate(Number(match[1]), Number(match[2]), Number(match[3]))
  match = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})\.?(?:[ T].*)?$/u.exec(text)
  if (match !== null) return isoDate(Number(match[1]), Number(match[2]), Number(match[3]))
  match = /^(\d{1,2})[-/. ](\d{1,2})[-/. ](\d{4}|\d{2})\.?(?:[ T,].*)?$/u.exec(text)
  if (match !== null) {
    const first = Number(match[1])
    const second = Number(match[2])
    const year = fullYear(match[3]!)
    return order === "mdy" ? isoDate(year, first, second) : isoDate(year, second, first)
  }
  match = /^(\d{1,2})[-/. ]+([A-Za-zÀ-ÿ]{3,9})\.?[-/. ,]+(\d{1,4})(?:[ T].*)?$/u.exec(text)
  if (match !== null) {
    const month = monthOf(match[2]!)
    return month === undefined ? null : isoDate(fullYear(match[3]!), month, Number(match[1]))
  }
  match = /^([A-Za-zÀ-ÿ]{3,9})\.?[-/ ]+(\d{1,2}),?[-/ ]+(\d{2,4})(?:[ T].*)?$/u.exec(text)
  if (match !== null) {
    const month = monthOf(match[1]!)
    return month === undefined ? null : isoDate(fullYear(match[3]!), month, Number(match[2]))
  }
  return null
}

/**
 * The order of a column's numeric dates from its values: a first number over 12 means the day
 * comes first, a second one over 12 that the month does; `fallback` when every value could be
 * read both ways.
 */
export const detectOrder = (values: Iterable<string>, fallback: DateOrder): DateOrder => {
  let dayFirst = false
  let monthFirst = false
  for (const value of values) {
    const match = /^\s*(\d{1,2})[-/. ](\d{1,2})[-/. ]\d{2,4}/u.exec(value)
    if (match === null) continue
    if (Number(match[1]) > 12) dayFirst = true
    if (Number(match[2]) > 12) monthFirst = true
  }
  if (dayFirst && !monthFirst) return "dmy"
  if (monthFirst && !dayFirst) return "mdy"
  return fallback
}

/** A profile's named layout as an order. */
export const orderOfFormat = (format: string): DateOrder =>
  format.startsWith("YYYY") ? "ymd" : format.startsWith("MM") ? "mdy" : "dmy"

/**
 * Reports as CSV (RFC 4180): a header row, CRLF line ends, amounts as decimal strings with two
 * places (cents stay integers everywhere else). Text that a spreadsheet would run as a formula
 * (starting with =, +, -, @, tab or carriage return) is prefixed with an apostrophe, so an account
 * name or memo cannot become a formula when the file is opened.
 */

export type Cell = string | number | null

/** Integer cents as a decimal string: 123456 -> "1234.56", -5 -> "-0.05". Exact: no floating point. */
export const amount = (cents: number): string => {
  const sign = cents < 0 ? "-" : ""
  const absolute = Math.abs(cents)
  const units = Math.floor(absolute / 100)
  const rest = absolute - units * 100
  return `${sign}${units}.${String(rest).padStart(2, "0")}`
}

/** A marker for cells that hold amounts: they are written as decimals and never escaped as formulas. */
export interface Amount {
  readonly _tag: "Amount"
  readonly cents: number
}

export const cents = (value: number): Amount => ({ _tag: "Amount", cents: value })

const formulaStart = /^[=+\-@\t\r]/u

const text = (value: string): string => {
  const safe = formulaStart.test(value) ? `'${value}` : value
  return /[",\r\n]/u.test(safe) ? `"${safe.replace(/"/g, "\"\"")}"` : safe
}

const cell = (value: Cell | Amount): string =>
  value === null ? "" : typeof value === "number" ? String(value) : typeof value === "string" ? text(value) : amount(value.cents)

export const render = (header: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<Cell | Amount>>): string =>
  [header, ...rows].map((row) => row.map(cell).join(",")).join("\r\n") + "\r\n"

/** The envelope every report answers format=csv with. */
export const file = (filename: string, content: string) => ({ format: "csv" as const, filename, content })

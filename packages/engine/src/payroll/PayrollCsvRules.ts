import Papa from "papaparse"
import type { Payroll } from "@ledger/api"
import { digitsToCents } from "../kernel/values/Money.ts"
import { aliases, type HeaderMap, mapHeaders, nameAliases } from "./PayrollHeaders.ts"

// The header tables and their recognition live in PayrollHeaders.ts; the rules' users read them here.
export { aliases, headerKey, headerLengthMax, mapHeaders, nameAliases, normalize, notWithholding, recognise, type Recognised, stateAliases } from "./PayrollHeaders.ts"

type Column = Payroll.PayrollYtd.Column

/** The employee's deductions from gross pay: what the liability account receives from the employee's side. */
export const withholdingColumns: ReadonlyArray<Column> = [
  "federal_income_tax",
  "social_security_employee",
  "medicare_employee",
  "state_income_tax",
  "local_income_tax",
  "state_disability_employee",
  "other_deductions"
]
export const employerTaxColumns: ReadonlyArray<Column> = ["social_security_employer", "medicare_employer", "futa", "suta", "other_employer_taxes"]

/** At most this many columns in the header row (providers' reports have a few dozen). */
export const headerColumnsMax = 200
/** The header row may follow a report's title lines: it is looked for in this many first rows. */
export const titleRowsMax = 10

export type Amounts = Readonly<Record<Column, number>>
export interface EmployeeRow {
  readonly line: number
  readonly employee: string
  readonly amounts: Amounts
}
export interface Issue {
  readonly path: ReadonlyArray<string | number>
  readonly message: string
}
export interface Parsed {
  readonly columns: ReadonlyArray<Column>
  /** Every header not imported, as the file spells it: unknown ones and those never withholding. */
  readonly ignoredHeaders: ReadonlyArray<string>
  /**
   * Unknown headers whose cells hold an amount other than zero: withholding, perhaps, under a name
   * not in the tables. A file without Net Pay cannot be checked while it has any (`check`).
   */
  readonly unreadAmounts: ReadonlyArray<string>
  readonly rows: ReadonlyArray<EmployeeRow>
  /** The provider's own Total row, when the file has one (checked, not imported). */
  readonly totalRow: EmployeeRow | null
}
export type ParseResult =
  | { readonly _tag: "Parsed"; readonly parsed: Parsed }
  | {
    readonly _tag: "Invalid"
    readonly message: string
    readonly issues: ReadonlyArray<Issue>
    /** Once the header row was read: the headers not read, which the refusal names. */
    readonly ignoredHeaders?: ReadonlyArray<string>
  }

/**
 * "1,234.56", "$1234.5", "1234" -> cents, exactly (string arithmetic, no floating point). Empty
 * and "-" are 0. Negative amounts, more than two decimal places and text are refused (null).
 */
export const parseAmount = (raw: string): number | null => {
  const text = raw.trim().replace(/^\$/, "").replace(/,/g, "").trim()
  if (text === "" || text === "-") return 0
  const match = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(text) ?? /^\.(\d{1,2})$/.exec(text)
  if (match === null) return null
  if (match.length === 2) return digitsToCents("", match[1]!)
  return digitsToCents(match[1]!, match[2] ?? "")
}

const isTotalRow = (employee: string): boolean => /^(grand\s+)?totals?:?$/i.test(employee.trim())

const zero = (): Record<Column, number> => ({
  gross_wages: 0, federal_income_tax: 0, social_security_employee: 0, medicare_employee: 0, state_income_tax: 0,
  local_income_tax: 0, state_disability_employee: 0, other_deductions: 0, net_pay: 0, social_security_employer: 0,
  medicare_employer: 0, futa: 0, suta: 0, other_employer_taxes: 0
})

const allColumns: ReadonlyArray<Column> = Object.keys(zero()) as ReadonlyArray<Column>

const hasEmployee = (map: HeaderMap) => map.employee !== null || (map.firstName !== null && map.lastName !== null)
const hasGross = (map: HeaderMap) => [...map.amounts.values()].includes("gross_wages")

/** The employee's name in a row: the Employee cell, or "First Last". */
const employeeOf = (map: HeaderMap, cells: ReadonlyArray<string>): string =>
  map.employee !== null
    ? (cells[map.employee] ?? "").trim()
    : `${(cells[map.firstName!] ?? "").trim()} ${(cells[map.lastName!] ?? "").trim()}`.trim()

/**
 * Reads the file: a header row (after at most `titleRowsMax - 1` title lines of a report: the first
 * row naming both the employee and gross wages), then one row per employee (blank lines skipped).
 */
export const parse = (csv: string, maxRows: number): ParseResult => {
  const result = Papa.parse<Array<string>>(csv.replace(/^\uFEFF/, ""), { skipEmptyLines: "greedy" })
  const table = result.data
  if (table.length < 2) return { _tag: "Invalid", message: "The file needs a header row and at least one employee row.", issues: [] }
  const widest = table.slice(0, titleRowsMax).reduce((most, row) => Math.max(most, row.length), 0)
  if (widest > headerColumnsMax) return { _tag: "Invalid", message: `At most ${headerColumnsMax} columns.`, issues: [] }
  const found = table.slice(0, titleRowsMax).findIndex((row) => {
    const map = mapHeaders(row)
    return hasEmployee(map) && hasGross(map)
  })
  const headerIndex = Math.max(found, 0)
  const body = table.slice(headerIndex + 1)
  if (body.length === 0) return { _tag: "Invalid", message: "The file needs a header row and at least one employee row.", issues: [] }
  if (body.length > maxRows) return { _tag: "Invalid", message: `At most ${maxRows} employee rows per import.`, issues: [] }
  const headers = table[headerIndex]!
  const map = mapHeaders(headers)
  const missing = [...(hasEmployee(map) ? [] : ["employee" as const]), ...(hasGross(map) ? [] : ["gross_wages" as const])]
  if (missing.length > 0 || map.duplicate.length > 0) {
    return {
      _tag: "Invalid",
      message: missing.length > 0
        ? `Missing required columns: ${missing.map((m) => aliases[m][0]).join(", ")}.${notRead(map.ignored)}`
        : "Two headers name the same column.",
      issues: [
        ...missing.map((m) => ({
          path: ["body", "csv", "header", m],
          message: `Expected one of: ${aliases[m].join(", ")}${m === "employee" ? `; or both ${nameAliases.first_name[0]} and ${nameAliases.last_name[0]}` : ""}`
        })),
        ...map.duplicate.map((header) => ({ path: ["body", "csv", "header", header], message: "Duplicate column" }))
      ],
      ignoredHeaders: map.ignored
    }
  }
  const issues: Array<Issue> = []
  const rows: Array<EmployeeRow> = []
  const unread = new Set<number>()
  let totalRow: EmployeeRow | null = null
  body.forEach((cells, index) => {
    const line = headerIndex + index + 2
    const amounts = zero()
    for (const [cellIndex, column] of map.amounts) {
      const raw = cells[cellIndex] ?? ""
      const cents = parseAmount(raw)
      if (cents === null) issues.push({ path: ["body", "csv", line, headers[cellIndex]!], message: `Not an amount: ${JSON.stringify(raw.slice(0, 40))}` })
      else amounts[column] += cents
    }
    for (const cellIndex of map.unknown) {
      if ((parseAmount(cells[cellIndex] ?? "") ?? 0) > 0) unread.add(cellIndex)
    }
    const employee = employeeOf(map, cells)
    if (employee === "") issues.push({ path: ["body", "csv", line, "Employee"], message: "Employee is empty" })
    else if (employee.length > 200) issues.push({ path: ["body", "csv", line, "Employee"], message: "At most 200 characters" })
    const row = { line, employee, amounts }
    if (isTotalRow(employee)) totalRow = row
    else rows.push(row)
  })
  if (issues.length > 0) {
    return { _tag: "Invalid", message: `Some cells could not be read.${notRead(map.ignored)}`, issues: issues.slice(0, 100), ignoredHeaders: map.ignored }
  }
  if (rows.length === 0) return { _tag: "Invalid", message: "The file has no employee rows.", issues: [], ignoredHeaders: map.ignored }
  const present = new Set(map.amounts.values())
  const columns = allColumns.filter((column) => present.has(column))
  const unreadAmounts = map.unknown.filter((index) => unread.has(index)).map((index) => headers[index]!)
  return { _tag: "Parsed", parsed: { columns, ignoredHeaders: map.ignored, unreadAmounts, rows, totalRow } }
}

/** How many ignored headers a message names (all are in `details.ignored_headers`). */
const namedInMessageMax = 12

/** " Columns not read: …" for a refusal's message, naming the headers the file has and Ledger ignored; "" when none. */
export const notRead = (ignored: ReadonlyArray<string>): string => {
  if (ignored.length === 0) return ""
  const named = ignored.slice(0, namedInMessageMax).map((header) => JSON.stringify(header.length > 60 ? `${header.slice(0, 60)}…` : header))
  const more = ignored.length > namedInMessageMax ? ` and ${ignored.length - namedInMessageMax} more` : ""
  return ` Columns not read: ${named.join(", ")}${more}.`
}

const sumOf = (amounts: Amounts, of: ReadonlyArray<Column>): number => of.reduce((sum, column) => sum + amounts[column], 0)

/** Net pay as the file says it, or gross less withholding when the file has no Net Pay column. */
export const netPayOf = (amounts: Amounts, hasNetPay: boolean): number =>
  hasNetPay ? amounts.net_pay : amounts.gross_wages - sumOf(amounts, withholdingColumns)

/**
 * The checks: each row's gross wages equal its withholding, deductions and net pay (to the cent);
 * withholding never exceeds gross; a Total row equals the column sums. Issues name line and column.
 *
 * Without a Net Pay column nothing cross-checks the withholding: net pay is gross less every
 * withholding column read, so a column not read that holds amounts (Social Security under a name
 * not in the tables, say) would pass into net pay and the summary entry unseen. Such a file is
 * refused, naming each of those columns (issue 38 item 6, ADR 2015).
 */
export const check = (parsed: Parsed): ReadonlyArray<Issue> => {
  const hasNetPay = parsed.columns.includes("net_pay")
  const issues: Array<Issue> = []
  if (!hasNetPay) {
    for (const header of parsed.unreadAmounts) {
      issues.push({
        path: ["body", "csv", "header", header],
        message: "Not a column Ledger reads, and it holds amounts. Without a Net Pay column, net pay is gross less the withholding read, " +
          "so withholding here would be counted as net pay: add the Net Pay column, or give this one a header docs/payroll.md lists."
      })
    }
  }
  for (const row of parsed.rows) {
    const withheld = sumOf(row.amounts, withholdingColumns)
    if (withheld > row.amounts.gross_wages) {
      issues.push({ path: ["body", "csv", row.line], message: `${row.employee}: withholding ${withheld} exceeds gross wages ${row.amounts.gross_wages} (cents)` })
    } else if (hasNetPay && withheld + row.amounts.net_pay !== row.amounts.gross_wages) {
      issues.push({
        path: ["body", "csv", row.line],
        message: `${row.employee}: gross ${row.amounts.gross_wages} != withholding ${withheld} + net pay ${row.amounts.net_pay} (cents)`
      })
    }
  }
  if (parsed.totalRow !== null) {
    const sums = totalsOf(parsed.rows, hasNetPay)
    for (const column of parsed.columns) {
      if (parsed.totalRow.amounts[column] !== sums[`${column}_cents`]) {
        issues.push({
          path: ["body", "csv", parsed.totalRow.line, aliases[column][0]!],
          message: `Total row says ${parsed.totalRow.amounts[column]}, the employee rows add up to ${sums[`${column}_cents`]} (cents)`
        })
      }
    }
  }
  return issues
}

/** Column sums; net pay computed when absent; withholding and employer taxes summed for the entry. */
export const totalsOf = (rows: ReadonlyArray<EmployeeRow>, hasNetPay: boolean): Payroll.PayrollYtd.Totals => {
  const sums = zero()
  for (const row of rows) {
    for (const column of allColumns) sums[column] += column === "net_pay" ? netPayOf(row.amounts, hasNetPay) : row.amounts[column]
  }
  return {
    ...(Object.fromEntries(allColumns.map((column) => [`${column}_cents`, sums[column]])) as Record<`${Column}_cents`, number>),
    employee_withholding_cents: sumOf(sums, withholdingColumns),
    employer_tax_cents: sumOf(sums, employerTaxColumns)
  }
}

/** Adds import totals (a year made of a provider switch). */
export const addTotals = (a: Payroll.PayrollYtd.Totals, b: Payroll.PayrollYtd.Totals): Payroll.PayrollYtd.Totals =>
  Object.fromEntries(Object.keys(a).map((key) => [key, (a as Record<string, number>)[key]! + (b as Record<string, number>)[key]!])) as Payroll.PayrollYtd.Totals

export const emptyTotals = (): Payroll.PayrollYtd.Totals => totalsOf([], false)

/** The summary entry's lines: debits wages and employer taxes, credits the liability and net pay. */
export const summaryLines = (
  totals: Payroll.PayrollYtd.Totals,
  accounts: { readonly wages: string; readonly employerTax: string; readonly liability: string; readonly netPay: string }
) => {
  const lines = [
    { account: accounts.wages, debit_cents: totals.gross_wages_cents, memo: "Gross wages" },
    { account: accounts.employerTax, debit_cents: totals.employer_tax_cents, memo: "Employer payroll taxes" },
    { account: accounts.liability, credit_cents: totals.employee_withholding_cents + totals.employer_tax_cents, memo: "Withholding, deductions and employer taxes" },
    { account: accounts.netPay, credit_cents: totals.net_pay_cents, memo: "Net pay" }
  ]
  return lines.filter((line) => (line.debit_cents ?? line.credit_cents ?? 0) > 0)
}

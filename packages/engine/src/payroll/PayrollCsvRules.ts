import Papa from "papaparse"
import type { Payroll } from "@ledger/api"

type Column = Payroll.PayrollYtd.Column

/**
 * Header aliases of the common payroll providers' year-to-date exports (docs/payroll.md, ADR 1400).
 * A header matches after lower-casing and dropping everything but letters and digits, so
 * "Gross Pay", "gross_pay" and "GROSS-PAY" are one header.
 */
export const aliases: Readonly<Record<Column | "employee", ReadonlyArray<string>>> = {
  employee: ["Employee", "Employee Name", "Name", "Worker", "Team Member", "Employee Full Name", "Full Name"],
  gross_wages: ["Gross Wages", "Gross Pay", "Gross", "Total Gross", "Gross Earnings", "Total Gross Pay", "Gross Amount", "Wages"],
  federal_income_tax: ["Federal Income Tax", "Federal Withholding", "FIT", "Fed Income Tax", "Federal Income Tax Withheld", "FITW", "Federal Tax"],
  social_security_employee: ["Social Security", "Social Security Employee", "Employee Social Security", "SS Employee", "OASDI Employee", "OASDI EE", "Social Security EE", "FICA SS EE"],
  medicare_employee: ["Medicare", "Medicare Employee", "Employee Medicare", "Medicare EE", "FICA Med EE"],
  state_income_tax: ["State Income Tax", "State Withholding", "SIT", "State Tax", "State Income Tax Withheld", "SITW"],
  local_income_tax: ["Local Income Tax", "Local Tax", "City Tax", "Local Withholding"],
  state_disability_employee: ["State Disability", "SDI", "SDI Employee", "State Disability Insurance", "Employee SDI", "PFL"],
  other_deductions: ["Other Deductions", "Deductions", "Total Deductions Other", "Benefit Deductions", "Pre Tax Deductions", "Voluntary Deductions"],
  net_pay: ["Net Pay", "Net", "Net Amount", "Take Home Pay", "Net Wages", "Total Net Pay"],
  social_security_employer: ["Employer Social Security", "Social Security Employer", "SS Employer", "OASDI Employer", "OASDI ER", "Social Security ER", "FICA SS ER", "Company Social Security"],
  medicare_employer: ["Employer Medicare", "Medicare Employer", "Medicare ER", "FICA Med ER", "Company Medicare"],
  futa: ["FUTA", "Federal Unemployment", "Employer FUTA", "FUTA ER", "Federal Unemployment Tax"],
  suta: ["SUTA", "State Unemployment", "SUI", "SUI ER", "Employer SUTA", "State Unemployment Tax", "SUI Employer"],
  other_employer_taxes: ["Other Employer Taxes", "Employer Taxes Other", "Other ER Taxes", "Local Employer Tax", "ETT"]
}

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

export const normalize = (header: string): string => header.toLowerCase().replace(/[^a-z0-9]/g, "")

const byNormalized: ReadonlyMap<string, Column | "employee"> = new Map(
  Object.entries(aliases).flatMap(([column, names]) => names.map((name) => [normalize(name), column as Column | "employee"] as const))
)

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
  readonly ignoredHeaders: ReadonlyArray<string>
  readonly rows: ReadonlyArray<EmployeeRow>
  /** The provider's own Total row, when the file has one (checked, not imported). */
  readonly totalRow: EmployeeRow | null
}
export type ParseResult =
  | { readonly _tag: "Parsed"; readonly parsed: Parsed }
  | { readonly _tag: "Invalid"; readonly message: string; readonly issues: ReadonlyArray<Issue> }

/**
 * "1,234.56", "$1234.5", "1234" -> cents, exactly (string arithmetic, no floating point). Empty
 * and "-" are 0. Negative amounts, more than two decimal places and text are refused (null).
 */
export const parseAmount = (raw: string): number | null => {
  const text = raw.trim().replace(/^\$/, "").replace(/,/g, "").trim()
  if (text === "" || text === "-") return 0
  const match = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(text) ?? /^\.(\d{1,2})$/.exec(text)
  if (match === null) return null
  if (match.length === 2) return Number(match[1]!.padEnd(2, "0"))
  return Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"))
}

const isTotalRow = (employee: string): boolean => /^(grand\s+)?totals?:?$/i.test(employee.trim())

const zero = (): Record<Column, number> => ({
  gross_wages: 0, federal_income_tax: 0, social_security_employee: 0, medicare_employee: 0, state_income_tax: 0,
  local_income_tax: 0, state_disability_employee: 0, other_deductions: 0, net_pay: 0, social_security_employer: 0,
  medicare_employer: 0, futa: 0, suta: 0, other_employer_taxes: 0
})

const allColumns: ReadonlyArray<Column> = Object.keys(zero()) as ReadonlyArray<Column>

const mapHeaders = (headers: ReadonlyArray<string>) => {
  const mapped = new Map<number, Column | "employee">()
  const ignored: Array<string> = []
  const duplicate: Array<string> = []
  headers.forEach((header, index) => {
    const column = byNormalized.get(normalize(header))
    if (column === undefined) ignored.push(header)
    else if ([...mapped.values()].includes(column)) duplicate.push(header)
    else mapped.set(index, column)
  })
  return { mapped, ignored, duplicate }
}

/** Reads the file: a header row, then one row per employee (blank lines skipped). */
export const parse = (csv: string, maxRows: number): ParseResult => {
  const result = Papa.parse<Array<string>>(csv.replace(/^\uFEFF/, ""), { skipEmptyLines: "greedy" })
  const table = result.data
  if (table.length < 2) return { _tag: "Invalid", message: "The file needs a header row and at least one employee row.", issues: [] }
  if (table.length - 1 > maxRows) return { _tag: "Invalid", message: `At most ${maxRows} employee rows per import.`, issues: [] }
  const { mapped, ignored, duplicate } = mapHeaders(table[0]!)
  const present = new Set(mapped.values())
  const missing = (["employee", "gross_wages"] as const).filter((column) => !present.has(column))
  if (missing.length > 0 || duplicate.length > 0) {
    return {
      _tag: "Invalid",
      message: missing.length > 0 ? `Missing required columns: ${missing.map((m) => aliases[m][0]).join(", ")}.` : "Two headers name the same column.",
      issues: [...missing.map((m) => ({ path: ["body", "csv", "header", m], message: `Expected one of: ${aliases[m].join(", ")}` })),
        ...duplicate.map((header) => ({ path: ["body", "csv", "header", header], message: "Duplicate column" }))]
    }
  }
  const issues: Array<Issue> = []
  const rows: Array<EmployeeRow> = []
  let totalRow: EmployeeRow | null = null
  table.slice(1).forEach((cells, index) => {
    const line = index + 2
    const amounts = zero()
    let employee = ""
    for (const [cellIndex, column] of mapped) {
      const raw = cells[cellIndex] ?? ""
      if (column === "employee") {
        employee = raw.trim()
        continue
      }
      const cents = parseAmount(raw)
      if (cents === null) issues.push({ path: ["body", "csv", line, aliases[column][0]!], message: `Not an amount: ${JSON.stringify(raw.slice(0, 40))}` })
      else amounts[column] = cents
    }
    if (employee === "") issues.push({ path: ["body", "csv", line, "Employee"], message: "Employee is empty" })
    else if (employee.length > 200) issues.push({ path: ["body", "csv", line, "Employee"], message: "At most 200 characters" })
    const row = { line, employee, amounts }
    if (isTotalRow(employee)) totalRow = row
    else rows.push(row)
  })
  if (issues.length > 0) return { _tag: "Invalid", message: "Some cells could not be read.", issues: issues.slice(0, 100) }
  if (rows.length === 0) return { _tag: "Invalid", message: "The file has no employee rows.", issues: [] }
  const columns = allColumns.filter((column) => present.has(column))
  return { _tag: "Parsed", parsed: { columns, ignoredHeaders: ignored, rows, totalRow } }
}

const sumOf = (amounts: Amounts, of: ReadonlyArray<Column>): number => of.reduce((sum, column) => sum + amounts[column], 0)

/** Net pay as the file says it, or gross less withholding when the file has no Net Pay column. */
export const netPayOf = (amounts: Amounts, hasNetPay: boolean): number =>
  hasNetPay ? amounts.net_pay : amounts.gross_wages - sumOf(amounts, withholdingColumns)

/**
 * The checks: each row's gross wages equal its withholding, deductions and net pay (to the cent);
 * withholding never exceeds gross; a Total row equals the column sums. Issues name line and column.
 */
export const check = (parsed: Parsed): ReadonlyArray<Issue> => {
  const hasNetPay = parsed.columns.includes("net_pay")
  const issues: Array<Issue> = []
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

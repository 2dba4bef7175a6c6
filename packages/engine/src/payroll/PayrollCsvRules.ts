import Papa from "papaparse"
import type { Payroll } from "@ledger/api"

type Column = Payroll.PayrollYtd.Column

/**
 * Header aliases of the main payroll providers' year-to-date reports (Gusto, ADP, Paychex,
 * QuickBooks Payroll) and of the W-2's own box titles (docs/payroll.md, ADR 1400, ADR 2015). A
 * header matches after lower-casing and dropping everything but letters and digits, and a leading
 * or trailing "YTD" / "Year to date" (`headerKey`), so "Gross Pay", "gross_pay", "GROSS-PAY" and
 * "YTD Gross Pay" are one header. Adding a provider's spelling is one line here.
 */
export const aliases: Readonly<Record<Column | "employee", ReadonlyArray<string>>> = {
  employee: ["Employee", "Employee Name", "Name", "Worker", "Team Member", "Employee Full Name", "Full Name", "Worker Name"],
  gross_wages: ["Gross Wages", "Gross Pay", "Gross", "Total Gross", "Gross Earnings", "Total Gross Pay", "Gross Amount", "Wages", "Total Earnings", "Total Pay", "Gross Wages Paid"],
  federal_income_tax: [
    "Federal Income Tax", "Federal Withholding", "FIT", "Fed Income Tax", "Federal Income Tax Withheld", "FITW", "Federal Tax",
    "Federal Income Tax Employee", "Federal Income Employee", "Federal Income EE", "Fed Inc Tax", "Federal Inc Tax", "Fed Withholding", "Federal WH", "Fed WH"
  ],
  social_security_employee: [
    "Social Security", "Social Security Employee", "Employee Social Security", "SS Employee", "OASDI Employee", "OASDI EE", "Social Security EE", "FICA SS EE",
    "Social Security Tax Withheld", "Social Security Tax", "Employee Social Security Tax", "Social Security Tax Employee", "OASDI", "Soc Sec", "Soc Sec EE",
    "EE Social Security", "EE Soc Sec", "SS EE", "FICA Social Security"
  ],
  medicare_employee: [
    "Medicare", "Medicare Employee", "Employee Medicare", "Medicare EE", "FICA Med EE", "Medicare Tax Withheld", "Medicare Tax", "Employee Medicare Tax",
    "Medicare Tax Employee", "EE Medicare", "FICA Medicare", "Medicare Withheld"
  ],
  state_income_tax: ["State Income Tax", "State Withholding", "SIT", "State Tax", "State Income Tax Withheld", "SITW", "State Inc Tax", "State WH", "State Income Tax Employee"],
  local_income_tax: ["Local Income Tax", "Local Tax", "City Tax", "Local Withholding", "Local Income Tax Withheld", "Local Income Tax Employee"],
  state_disability_employee: ["State Disability", "SDI", "SDI Employee", "State Disability Insurance", "Employee SDI", "PFL", "SDI EE", "State Disability Employee"],
  other_deductions: ["Other Deductions", "Deductions", "Total Deductions Other", "Benefit Deductions", "Pre Tax Deductions", "Voluntary Deductions", "Employee Deductions"],
  net_pay: ["Net Pay", "Net", "Net Amount", "Take Home Pay", "Net Wages", "Total Net Pay", "Take Home", "Net Check", "Net Paid"],
  social_security_employer: [
    "Employer Social Security", "Social Security Employer", "SS Employer", "OASDI Employer", "OASDI ER", "Social Security ER", "FICA SS ER", "Company Social Security",
    "Employer Social Security Tax", "Social Security Tax Employer", "Social Security Company", "ER Social Security", "ER Soc Sec", "Soc Sec ER", "SS ER"
  ],
  medicare_employer: [
    "Employer Medicare", "Medicare Employer", "Medicare ER", "FICA Med ER", "Company Medicare", "Employer Medicare Tax", "Medicare Tax Employer",
    "Medicare Company", "ER Medicare"
  ],
  futa: [
    "FUTA", "Federal Unemployment", "Employer FUTA", "FUTA ER", "Federal Unemployment Tax", "FUTA Employer", "FUTA Tax", "Federal Unemployment ER",
    "Federal Unemployment Employer", "Federal Unemployment 940", "Federal Unemployment Company", "FUTA Company", "ER FUTA"
  ],
  suta: [
    "SUTA", "State Unemployment", "SUI", "SUI ER", "Employer SUTA", "State Unemployment Tax", "SUI Employer", "SUTA ER", "SUTA Employer", "SUTA Tax",
    "State Unemployment ER", "State Unemployment Employer", "State Unemployment Company", "SUI Company", "ER SUI", "ER SUTA"
  ],
  other_employer_taxes: ["Other Employer Taxes", "Employer Taxes Other", "Other ER Taxes", "Local Employer Tax", "ETT", "Employment Training Tax"]
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

/** A name in two columns (first, last): the employee is "First Last". */
export const nameAliases: Readonly<Record<"first_name" | "last_name", ReadonlyArray<string>>> = {
  first_name: ["First Name", "Employee First Name", "Legal First Name", "Given Name"],
  last_name: ["Last Name", "Employee Last Name", "Legal Last Name", "Surname", "Family Name"]
}

/**
 * A state's own column, named with its postal code before or after ("CA SUI", "NY - Withholding",
 * "SDI (CA)"): its amount joins the column, and several states' add up. A plain header and a
 * state's for the same column would count it twice and are refused as duplicates.
 */
export const stateAliases: Readonly<Partial<Record<Column, ReadonlyArray<string>>>> = {
  state_income_tax: ["Withholding", "Income Tax", "PIT", "SIT", "State Income Tax", "State Withholding", "Income Tax Withheld", "State Income Tax Withheld", "Withholding Tax", "State Tax"],
  state_disability_employee: ["SDI", "SDI EE", "SDI Employee", "Disability", "Disability Employee", "Disability EE", "State Disability", "State Disability Insurance", "State Disability Ins Employee", "PFL", "FLI", "PFML", "PFML Employee", "Paid Family Leave"],
  suta: ["SUI", "SUTA", "SUI ER", "SUI Employer", "SUI Company", "Unemployment", "Unemployment Tax", "Unemployment Company", "Unemployment Employer", "Unemployment ER", "State Unemployment", "State Unemployment Tax"],
  other_employer_taxes: ["ETT", "Employment Training Tax", "ETT Employer", "ETT Company"]
}

/** US postal codes a state's column may carry (the states, DC and Puerto Rico). */
const stateCodes = new Set(("AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR " +
  "PA PR RI SC SD TN TX UT VT VA WA WV WI WY").split(" "))

/**
 * Headers read and not imported because they are never withholding: wage bases (the W-2's boxes 1,
 * 3, 5, 7, 16, 18), tips, hours, identifiers and dates. A file without Net Pay may carry them
 * (`unreadAmounts` does not count them); any other header holding amounts may be withholding.
 */
export const notWithholding: ReadonlyArray<string> = [
  "Wages Tips Other Compensation", "Wages Tips and Other Compensation", "Federal Taxable Wages", "Federal Wages", "Taxable Wages",
  "Social Security Wages", "Social Security Tips", "Medicare Wages and Tips", "Medicare Wages", "Allocated Tips", "Tips",
  "State Wages Tips Etc", "State Wages", "Local Wages Tips Etc", "Local Wages", "SUI Wages", "FUTA Wages", "Taxable FUTA Wages", "Taxable SUI Wages",
  "Hours", "Regular Hours", "Overtime Hours", "Total Hours", "Rate", "Pay Rate", "Hourly Rate", "Salary",
  "Employee ID", "Employee Number", "ID", "SSN", "Employee SSN", "Social Security Number", "EIN", "Employer ID", "Control Number",
  "Department", "Location", "Job Title", "Title", "State", "Locality", "Locality Name", "Check Date", "Pay Date", "Period Start", "Period End",
  "Pay Period", "Check Number", "Address", "Email"
]

const stripYtd = (key: string): string => key.replace(/^(ytd|yeartodate)/u, "").replace(/(ytd|yeartodate)$/u, "")

export const normalize = (header: string): string => header.toLowerCase().replace(/[^a-z0-9]/g, "")

/** The form headers are compared in: `normalize`, then without a leading or trailing YTD. */
export const headerKey = (header: string): string => stripYtd(normalize(header))

type Target = Column | "employee" | "first_name" | "last_name"

const tableOf = <K extends string>(table: Readonly<Partial<Record<K, ReadonlyArray<string>>>>): ReadonlyMap<string, K> =>
  new Map(Object.entries(table).flatMap(([target, names]) => (names as ReadonlyArray<string>).map((name) => [headerKey(name), target as K] as const)))

const plainHeaders = tableOf<Target>({ ...aliases, ...nameAliases })
const stateHeaders = tableOf<Column>(stateAliases)
const notWithholdingKeys: ReadonlySet<string> = new Set(notWithholding.map(headerKey))

/** "CA SUI", "CA - SUI", "SUI (CA)", "SUI - CA": the state's code and the rest, else null. */
const stateSplit = (header: string): { readonly state: string; readonly rest: string } | null => {
  const trimmed = header.trim()
  const before = /^([A-Z]{2})(?:\s*[-:_/]\s*|\s+)(.+)$/u.exec(trimmed)
  if (before !== null && stateCodes.has(before[1]!)) return { state: before[1]!, rest: before[2]! }
  const after = /^(.+?)(?:\s*[-:_/(]\s*|\s+)([A-Z]{2})\)?$/u.exec(trimmed)
  if (after !== null && stateCodes.has(after[2]!)) return { state: after[2]!, rest: after[1]! }
  return null
}

/** What one header is: a column (a state's when `state` is set), a name part, a known non-withholding header, or unknown. */
export type Recognised =
  | { readonly _tag: "Column"; readonly target: Target; readonly state: string | null }
  | { readonly _tag: "NotWithholding" }
  | { readonly _tag: "Unknown" }

/** No table's header is longer; a longer one is unknown without being matched (the state patterns backtrack). */
export const headerLengthMax = 100

/** The header recognition: pure, by the tables above. A plain alias wins over a state's reading. */
export const recognise = (header: string): Recognised => {
  if (header.length > headerLengthMax) return { _tag: "Unknown" }
  const key = headerKey(header)
  const plain = plainHeaders.get(key)
  if (plain !== undefined) return { _tag: "Column", target: plain, state: null }
  const split = stateSplit(header)
  const ofState = split === null ? undefined : stateHeaders.get(headerKey(split.rest))
  if (split !== null && ofState !== undefined) return { _tag: "Column", target: ofState, state: split.state }
  if (notWithholdingKeys.has(key)) return { _tag: "NotWithholding" }
  return { _tag: "Unknown" }
}

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

interface HeaderMap {
  /** Cell index -> the column it adds to (several states' columns add to one). */
  readonly amounts: ReadonlyMap<number, Column>
  readonly employee: number | null
  readonly firstName: number | null
  readonly lastName: number | null
  readonly ignored: ReadonlyArray<string>
  /** Cell indexes of unknown headers (not the never-withholding ones). */
  readonly unknown: ReadonlyArray<number>
  readonly duplicate: ReadonlyArray<string>
}

/** The header row read through `recognise`: where each column is, what is ignored, what is named twice. */
export const mapHeaders = (headers: ReadonlyArray<string>): HeaderMap => {
  const amounts = new Map<number, Column>()
  const names = new Map<"employee" | "first_name" | "last_name", number>()
  // Per column: "plain" when a plain header names it, else the states whose headers do.
  const seen = new Map<Column, "plain" | Set<string>>()
  const ignored: Array<string> = []
  const unknown: Array<number> = []
  const duplicate: Array<string> = []
  headers.forEach((header, index) => {
    const recognised = recognise(header)
    if (recognised._tag !== "Column") {
      ignored.push(header)
      if (recognised._tag === "Unknown") unknown.push(index)
      return
    }
    const { state, target } = recognised
    if (target === "employee" || target === "first_name" || target === "last_name") {
      if (names.has(target)) duplicate.push(header)
      else names.set(target, index)
      return
    }
    const before = seen.get(target)
    if (state === null ? before !== undefined : before === "plain" || (before !== undefined && before.has(state))) {
      duplicate.push(header)
      return
    }
    if (state === null) seen.set(target, "plain")
    else seen.set(target, new Set([...(before === undefined || before === "plain" ? [] : before), state]))
    amounts.set(index, target)
  })
  const employee = names.get("employee") ?? null
  const firstName = employee === null ? names.get("first_name") ?? null : null
  const lastName = employee === null ? names.get("last_name") ?? null : null
  // Name parts not used (the file also has a full name) are ignored like any other header.
  for (const [part, index] of names) {
    if (part !== "employee" && employee !== null) ignored.push(headers[index]!)
  }
  return { amounts, employee, firstName, lastName, ignored, unknown, duplicate }
}

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

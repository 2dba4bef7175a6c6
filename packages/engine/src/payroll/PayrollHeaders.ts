import type { Payroll } from "@ledger/api"

/**
 * Which column a payroll CSV's header is (issue 38 item 6, ADR 2015): tables of the headers the
 * main providers' year-to-date reports and the W-2 use, and `recognise`, one pure function over
 * them. `mapHeaders` reads a header row with it. The file's other rules are PayrollCsvRules.ts.
 */

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

export interface HeaderMap {
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

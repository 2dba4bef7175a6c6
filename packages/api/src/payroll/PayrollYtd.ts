import { Schema } from "effect"
import { DateString, Id, NonNegativeCents, Reason, Timestamp } from "../Common.ts"
import * as Operation from "../Operation.ts"
import { JournalEntry } from "../ledger/Records.ts"

const area = "4.8 Payroll year to date"

/** The largest payroll CSV accepted, in characters (about 5,000 employees). */
export const csvLengthMax = 2_000_000
/** The most employee rows one import holds. */
export const employeeRowsMax = 5_000

export const AccountCode = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(40))
export const TaxYear = Schema.Int.check(Schema.isBetween({ minimum: 2000, maximum: 2100 })).annotate({ description: "The tax year (a calendar year)." })
const IdPath = Schema.Struct({ id: Id })

/**
 * The canonical columns of an import (docs/payroll.md lists the header aliases each accepts).
 * Employee and gross_wages are required; every other column is optional and counts as 0 when absent.
 */
export const columns = [
  "gross_wages",
  "federal_income_tax",
  "social_security_employee",
  "medicare_employee",
  "state_income_tax",
  "local_income_tax",
  "state_disability_employee",
  "other_deductions",
  "net_pay",
  "social_security_employer",
  "medicare_employer",
  "futa",
  "suta",
  "other_employer_taxes"
] as const
export type Column = typeof columns[number]

const amountsFields = Object.fromEntries(columns.map((column) => [`${column}_cents`, NonNegativeCents])) as {
  readonly [K in Column as `${K}_cents`]: typeof NonNegativeCents
}

/** Totals of an import: every column, plus what the summary entry posts. */
export const Totals = Schema.Struct({
  ...amountsFields,
  employee_withholding_cents: NonNegativeCents,
  employer_tax_cents: NonNegativeCents
}).annotate({ identifier: "PayrollTotals" })
export type Totals = typeof Totals.Type

export const EmployeeRow = Schema.Struct({
  line: Schema.Int,
  employee: Schema.String,
  ...amountsFields
}).annotate({ identifier: "PayrollEmployeeRow" })

export const PayrollImport = Schema.Struct({
  id: Id,
  tax_year: Schema.Int,
  provider: Schema.String,
  period_through: DateString,
  switch_id: Schema.NullOr(Id),
  status: Schema.Literals(["imported", "void"]),
  columns: Schema.Array(Schema.String),
  employee_count: Schema.Int,
  totals: Totals,
  summary_entry_id: Schema.NullOr(Id),
  void_entry_id: Schema.NullOr(Id),
  void_reason: Schema.NullOr(Schema.String),
  created_by: Schema.String,
  created_at: Timestamp,
  voided_at: Schema.NullOr(Timestamp)
}).annotate({ identifier: "PayrollImport" })
export type PayrollImport = typeof PayrollImport.Type

export const Checked = Schema.Struct({
  dry_run: Schema.Literal(true),
  tax_year: Schema.Int,
  provider: Schema.String,
  period_through: DateString,
  columns: Schema.Array(Schema.String),
  ignored_headers: Schema.Array(Schema.String),
  employee_count: Schema.Int,
  totals: Totals,
  total_row_checked: Schema.Boolean,
  rows: Schema.Array(EmployeeRow)
}).annotate({ identifier: "PayrollChecked" })

export const YearToDate = Schema.Struct({
  tax_year: Schema.Int,
  totals: Totals,
  imports: Schema.Array(PayrollImport)
}).annotate({ identifier: "PayrollYearToDate" })

export const getPayrollYtd = Operation.make({
  id: "getPayrollYtd",
  method: "GET",
  path: "/v1/payroll/ytd",
  area,
  summary: "The year's payroll imports and their combined totals (void imports listed, not counted).",
  scope: "read",
  mode: "R",
  query: Schema.Struct({ year: TaxYear }),
  success: YearToDate
})

export const importPayrollYtd = Operation.make({
  id: "importPayrollYtd",
  method: "POST",
  path: "/v1/payroll/ytd",
  area,
  summary: "Import a payroll provider's year-to-date CSV (one row per employee). dry_run answers the checked totals.",
  description: "Required columns Employee and Gross Wages; withholding and employer-tax columns by header aliases " +
    "(docs/payroll.md). Each row's net pay must equal gross wages less its withholding and deductions; a Total row, when " +
    "present, must equal the column sums. Without a Net Pay column, net pay is gross less every withholding read, and a column " +
    "not read that holds amounts is refused (it may be withholding). A refusal lists the headers not read in details.ignored_headers. " +
    "A second import of a year names the one it follows in switch_id (a provider switch).",
  scope: "admin",
  mode: "K",
  peopleOnly: true,
  body: Schema.Struct({
    csv: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(csvLengthMax)).annotate({
      description: "The provider's year-to-date export as CSV text: a header row, then one row per employee."
    }),
    provider: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(60)).annotate({ description: "The payroll provider's name (Gusto, ADP...)." }),
    tax_year: TaxYear,
    period_through: DateString,
    switch_id: Schema.optionalKey(Id),
    dry_run: Schema.optionalKey(Schema.Boolean)
  }),
  bodyBytesMax: 4_200_000,
  success: PayrollImport,
  otherResponses: { 200: Checked },
  errors: ["payroll_csv_invalid", "payroll_totals_mismatch", "payroll_import_exists"]
})

export const voidPayrollYtd = Operation.make({
  id: "voidPayrollYtd",
  method: "POST",
  path: "/v1/payroll/ytd/{id}/void",
  area,
  summary: "Void an import; its summary entry, if posted, is reversed on the void's date.",
  scope: "admin",
  mode: "K",
  status: 200,
  peopleOnly: true,
  pathParams: IdPath,
  body: Schema.Struct({ reason: Reason }),
  success: PayrollImport,
  errors: ["already_void", "entry_already_reversed", "period_hard_locked"]
})

export const SummaryEntryResult = Schema.Struct({
  import: PayrollImport,
  entry: JournalEntry
}).annotate({ identifier: "PayrollSummaryEntry" })

export const postPayrollSummaryEntry = Operation.make({
  id: "postPayrollSummaryEntry",
  method: "POST",
  path: "/v1/payroll/ytd/{id}/summary-entry",
  area,
  summary: "Post the import's totals as one entry: wages and employer taxes against the liability and net pay accounts.",
  description: "Debits wages_account with gross wages and employer_tax_account with employer taxes; credits liability_account " +
    "with withholding, deductions and employer taxes, and net_pay_account with net pay. Refused when the wages account " +
    "already holds the year's wages from other entries (wages_already_recorded), and the second time (payroll_summary_exists).",
  scope: "admin",
  mode: "K",
  peopleOnly: true,
  pathParams: IdPath,
  body: Schema.Struct({
    entry_date: DateString,
    wages_account: AccountCode,
    employer_tax_account: AccountCode,
    liability_account: AccountCode,
    net_pay_account: AccountCode
  }),
  success: SummaryEntryResult,
  errors: ["already_void", "payroll_summary_exists", "wages_already_recorded", "unknown_account", "inactive_account", "period_hard_locked"]
})

export const operations = [getPayrollYtd, importPayrollYtd, voidPayrollYtd, postPayrollSummaryEntry] as const

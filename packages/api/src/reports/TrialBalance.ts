import { Schema } from "effect"
import { DateString } from "../Common.ts"
import { AccountType } from "../ledger/Records.ts"
import * as Operation from "../Operation.ts"
import { area, files, AsOf, ByClass, ClassColumn, classFields, ClassFilter, CsvReport, Format } from "./Shared.ts"

export const TrialBalanceClassAmount = Schema.Struct({
  class: ClassColumn,
  debit_cents: Schema.Int,
  credit_cents: Schema.Int
}).annotate({ identifier: "TrialBalanceClassAmount" })

export const TrialBalanceRow = Schema.Struct({
  code: Schema.NullOr(Schema.String).annotate({
    description: "The account code. Null only for the earnings of earlier fiscal years when the chart has no retained earnings account."
  }),
  name: Schema.String,
  type: AccountType,
  debit_cents: Schema.Int,
  credit_cents: Schema.Int,
  by_class: Schema.optionalKey(Schema.Array(TrialBalanceClassAmount))
}).annotate({ identifier: "TrialBalanceRow" })

export const TrialBalance = Schema.Struct({
  as_of: DateString,
  ...classFields,
  rows: Schema.Array(TrialBalanceRow).annotate({
    description: "Accounts with a balance, in code order; each row has one side non-zero. Income and expense " +
      "accounts show the fiscal year to date; earlier years' net income is in the retained earnings row."
  }),
  total_debit_cents: Schema.Int,
  total_credit_cents: Schema.Int,
  totals_by_class: Schema.optionalKey(Schema.Array(TrialBalanceClassAmount))
}).annotate({ identifier: "TrialBalance" })
export type TrialBalance = typeof TrialBalance.Type

export const getTrialBalance = Operation.make({
  id: "getTrialBalance",
  method: "GET",
  path: "/v1/reports/trial-balance",
  area,
  summary: "Every account's balance as of a date, as a debit or a credit; the two totals are equal.",
  description: "Balances come from the per-account daily totals (never a scan of the journal). Income and expense " +
    "accounts start afresh each fiscal year: their earlier years' net income is shown in the retained earnings " +
    "account. format=csv answers `{ format: \"csv\", filename, content }`.",
  scope: "read",
  mode: "R",
  query: Schema.Struct({ as_of: AsOf, class: ClassFilter, by_class: ByClass, format: Format }),
  success: Schema.Union([TrialBalance, CsvReport]),
  files,
  errors: ["unknown_class", "amount_out_of_range"]
})

import { Schema } from "effect"
import { DateString } from "../Common.ts"
import * as Operation from "../Operation.ts"
import { area, files, AsOf, ByClass, ClassAmount, classFields, ClassFilter, CsvReport, Format } from "./Shared.ts"

export const BalanceSheetRow = Schema.Struct({
  code: Schema.NullOr(Schema.String).annotate({
    description: "The account code; null for the computed equity lines (net income, and retained earnings when the chart has no such account)."
  }),
  name: Schema.String,
  subtype: Schema.NullOr(Schema.String),
  parent_code: Schema.NullOr(Schema.String),
  balance_cents: Schema.Int.annotate({ description: "Signed in the account's natural direction." }),
  by_class: Schema.optionalKey(Schema.Array(ClassAmount))
}).annotate({ identifier: "BalanceSheetRow" })

export const BalanceSheetSection = Schema.Struct({
  rows: Schema.Array(BalanceSheetRow),
  total_cents: Schema.Int,
  total_by_class: Schema.optionalKey(Schema.Array(ClassAmount))
}).annotate({ identifier: "BalanceSheetSection" })

export const BalanceSheet = Schema.Struct({
  as_of: DateString,
  fiscal_year_start: DateString.annotate({ description: "First day of the fiscal year containing as_of." }),
  ...classFields,
  assets: BalanceSheetSection,
  liabilities: BalanceSheetSection,
  equity: BalanceSheetSection.annotate({
    description: "Equity accounts; the retained earnings row includes the net income of earlier fiscal years, " +
      "and a last row `Net Income` holds the current fiscal year's."
  }),
  total_liabilities_and_equity_cents: Schema.Int.annotate({ description: "Equal to assets.total_cents." }),
  total_liabilities_and_equity_by_class: Schema.optionalKey(Schema.Array(ClassAmount)),
  current_year_earnings_cents: Schema.Int.annotate({
    description: "Income minus expenses from fiscal_year_start to as_of (the Net Income row)."
  }),
  earlier_years_earnings_cents: Schema.Int.annotate({
    description: "Income minus expenses before fiscal_year_start, included in the retained earnings row."
  }),
  retained_earnings_account: Schema.NullOr(Schema.String).annotate({
    description: "The code of the account earlier years' earnings are shown in (the lowest-coded equity account of subtype retained_earnings); null when there is none."
  })
}).annotate({ identifier: "BalanceSheet" })
export type BalanceSheet = typeof BalanceSheet.Type

export const getBalanceSheet = Operation.make({
  id: "getBalanceSheet",
  method: "GET",
  path: "/v1/reports/balance-sheet",
  area,
  summary: "Assets, liabilities and equity as of a date, with retained and current-year earnings; it always balances.",
  description: "Balances come from the per-account daily totals. The fiscal year starts in the company's " +
    "fiscal_year_start_month. format=csv answers `{ format: \"csv\", filename, content }`.",
  scope: "read",
  mode: "R",
  query: Schema.Struct({ as_of: AsOf, class: ClassFilter, by_class: ByClass, format: Format }),
  success: Schema.Union([BalanceSheet, CsvReport]),
  files,
  errors: ["unknown_class", "amount_out_of_range"]
})

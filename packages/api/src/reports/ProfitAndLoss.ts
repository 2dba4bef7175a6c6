import { Schema } from "effect"
import { DateString } from "../Common.ts"
import * as Operation from "../Operation.ts"
import { area, files, ByClass, ClassAmount, classFields, ClassFilter, CsvReport, Format, From, To } from "./Shared.ts"

export const ProfitAndLossRow = Schema.Struct({
  code: Schema.String,
  name: Schema.String,
  subtype: Schema.NullOr(Schema.String),
  parent_code: Schema.NullOr(Schema.String),
  amount_cents: Schema.Int.annotate({ description: "The account's activity in the range, in its natural direction." }),
  by_class: Schema.optionalKey(Schema.Array(ClassAmount))
}).annotate({ identifier: "ProfitAndLossRow" })

export const ProfitAndLossSection = Schema.Struct({
  rows: Schema.Array(ProfitAndLossRow),
  total_cents: Schema.Int,
  total_by_class: Schema.optionalKey(Schema.Array(ClassAmount))
}).annotate({ identifier: "ProfitAndLossSection" })

export const ProfitAndLoss = Schema.Struct({
  from: DateString,
  to: DateString,
  ...classFields,
  income: ProfitAndLossSection,
  cost_of_goods_sold: ProfitAndLossSection.annotate({
    description: "Expense accounts whose subtype (or a parent's) starts with `cost_of_` (cost_of_goods_sold, cost_of_services, ...)."
  }),
  gross_profit_cents: Schema.Int.annotate({ description: "Income minus cost of goods sold." }),
  gross_profit_by_class: Schema.optionalKey(Schema.Array(ClassAmount)),
  expenses: ProfitAndLossSection,
  net_income_cents: Schema.Int.annotate({ description: "Gross profit minus expenses: negative for a loss." }),
  net_income_by_class: Schema.optionalKey(Schema.Array(ClassAmount))
}).annotate({ identifier: "ProfitAndLoss" })
export type ProfitAndLoss = typeof ProfitAndLoss.Type

export const getProfitAndLoss = Operation.make({
  id: "getProfitAndLoss",
  method: "GET",
  path: "/v1/reports/profit-and-loss",
  area,
  summary: "Income, cost of goods sold, gross profit, expenses and net income for a range of dates.",
  description: "Each account's activity from `from` to `to` inclusive, from the per-account daily totals. " +
    "format=csv answers `{ format: \"csv\", filename, content }`.",
  scope: "read",
  mode: "R",
  query: Schema.Struct({ from: From, to: To, class: ClassFilter, by_class: ByClass, format: Format }),
  success: Schema.Union([ProfitAndLoss, CsvReport]),
  files,
  errors: ["unknown_class", "amount_out_of_range"]
})

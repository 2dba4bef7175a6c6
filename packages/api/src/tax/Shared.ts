import { Schema } from "effect"

export const area = "4.6 Tax returns (mapping and export)"

/** The four returns Ledger maps the books to (spec 4.6). */
export const ReturnType = Schema.Literals(["1120S", "1065", "1120", "SCHC"]).annotate({
  description: "1120S (S corporation), 1065 (partnership), 1120 (C corporation), SCHC (Schedule C of Form 1040)."
})
export type ReturnType = typeof ReturnType.Type

/** A return line's id, as `GET /v1/tax/lines` lists them (`1120-26`, `1120S-L1`, `SCHC-24b`). */
export const LineId = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(40))

export const LineKind = Schema.Literals([
  "income",
  "cost_of_goods_sold",
  "deduction",
  "schedule_k",
  "balance_sheet",
  "m1",
  "not_on_return"
])

export const ReturnLine = Schema.Struct({
  id: LineId,
  return_type: ReturnType,
  form: Schema.String.annotate({ description: "The form or schedule, as printed: `Form 1120`, `Schedule L`, `Schedule C Part II`." }),
  line: Schema.String.annotate({ description: "The line number as printed on the form: `12`, `16a`, `27b`." }),
  description: Schema.String,
  kind: LineKind,
  normal_balance: Schema.Literals(["debit", "credit"])
}).annotate({ identifier: "TaxReturnLine" })
export type ReturnLine = typeof ReturnLine.Type

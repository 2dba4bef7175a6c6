import { Schema } from "effect"
import { DateString, Id } from "../Common.ts"
import * as File from "../File.ts"
import * as Operation from "../Operation.ts"
import { AsOfQuery } from "./Shared.ts"

const area = "Reports"

export const AgingBuckets = Schema.Struct({
  current_cents: Schema.Int,
  days_1_30_cents: Schema.Int,
  days_31_60_cents: Schema.Int,
  days_61_90_cents: Schema.Int,
  over_90_cents: Schema.Int,
  total_cents: Schema.Int
})

export const Aging = Schema.Struct({
  as_of: DateString,
  side: Schema.Literals(["receivables", "payables"]),
  rows: Schema.Array(Schema.Struct({
    contact_id: Id,
    name: Schema.String,
    ...AgingBuckets.fields,
    unapplied_credit_cents: Schema.Int.annotate({ description: "Credits and payments not yet applied (not in the buckets)." })
  })),
  totals: AgingBuckets
}).annotate({ identifier: "Aging" })

const query = Schema.Struct({ as_of: AsOfQuery, format: Schema.optionalKey(Schema.Literals(["json", "csv"])) })
export const CsvReport = File.CsvEnvelope

export const getArAging = Operation.make({
  id: "getArAging",
  method: "GET",
  path: "/v1/reports/ar-aging",
  area,
  summary: "Receivables by customer in buckets of days past due: current, 1-30, 31-60, 61-90, over 90.",
  scope: "read",
  mode: "R",
  query,
  success: Schema.Union([Aging, CsvReport]),
  files: File.csvReport
})

export const getApAging = Operation.make({
  id: "getApAging",
  method: "GET",
  path: "/v1/reports/ap-aging",
  area,
  summary: "Payables by vendor in buckets of days past due: current, 1-30, 31-60, 61-90, over 90.",
  scope: "read",
  mode: "R",
  query,
  success: Schema.Union([Aging, CsvReport]),
  files: File.csvReport
})

export const operations = [getArAging, getApAging] as const

import { Schema } from "effect"
import * as File from "../File.ts"
import { DateString, Id, Page, PageQuery, Timestamp } from "../Common.ts"
import * as Operation from "../Operation.ts"
import { IdPath } from "../sales/Shared.ts"
import { area, groupErrors } from "./Settings.ts"

export const PayoutLine = Schema.Struct({
  type: Schema.String,
  source: Schema.String,
  amount_cents: Schema.Int,
  fee_cents: Schema.Int,
  net_cents: Schema.Int
})

export const Payout = Schema.Struct({
  id: Id,
  processor_payout_id: Schema.String,
  amount_cents: Schema.Int,
  arrival_date: DateString,
  status: Schema.Literals(["paid", "failed"]),
  entry_id: Schema.NullOr(Id).annotate({ description: "Dr the payout bank account, Cr clearing." }),
  bank_line_id: Schema.NullOr(Id).annotate({ description: "The bank line it reconciled to, once it arrived." }),
  reconciled: Schema.Boolean,
  lines: Schema.Array(PayoutLine),
  created_at: Timestamp
}).annotate({ identifier: "OnlinePayout" })
export type Payout = typeof Payout.Type

export const listOnlinePayouts = Operation.make({
  id: "listOnlinePayouts",
  method: "GET",
  path: "/v1/online-payments/payouts",
  area,
  summary: "Payouts from the processor to the bank, newest first.",
  scope: "read",
  mode: "R",
  query: Schema.Struct(PageQuery),
  success: Page(Payout),
  errors: [...groupErrors]
})

export const getOnlinePayout = Operation.make({
  id: "getOnlinePayout",
  method: "GET",
  path: "/v1/online-payments/payouts/{id}",
  area,
  summary: "One payout with the balance transactions it settled; `format=csv` answers them as a CSV file.",
  description: "format=csv answers the payout's balance transactions as a CSV file (JSON clients and MCP: `{ format: \"csv\", filename, content }`).",
  scope: "read",
  mode: "R",
  pathParams: IdPath,
  query: Schema.Struct({
    format: Schema.optionalKey(Schema.Literals(["json", "csv"]).annotate({ description: "csv: the balance transactions as a CSV file; json (default): the payout record." }))
  }),
  success: Schema.Union([Payout, File.CsvEnvelope]),
  errors: [...groupErrors],
  files: File.csvReport
})

export const operations = [listOnlinePayouts, getOnlinePayout] as const

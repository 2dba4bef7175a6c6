import { Schema } from "effect"
import { DateString, DryRun, Id, Page, PageQuery, PositiveCents, Reason, Timestamp } from "../Common.ts"
import * as Operation from "../Operation.ts"
import { IdPath } from "../sales/Shared.ts"
import { area, groupErrors } from "./Settings.ts"

export const ChargeStatus = Schema.Literals(["pending", "succeeded", "failed"])
export const Method = Schema.Literals(["card", "ach", "stablecoin"])

export const Refund = Schema.Struct({
  id: Id,
  amount_cents: Schema.Int,
  reason: Schema.String,
  status: Schema.Literals(["pending", "succeeded", "failed"]),
  entry_id: Schema.NullOr(Id),
  created_at: Timestamp
})

export const Dispute = Schema.Struct({
  id: Id,
  amount_cents: Schema.Int,
  fee_cents: Schema.Int,
  status: Schema.Literals(["open", "won", "lost"]),
  entry_id: Schema.NullOr(Id),
  close_entry_id: Schema.NullOr(Id)
})

export const Charge = Schema.Struct({
  id: Id,
  document_id: Id,
  document_number: Schema.String,
  contact_id: Id,
  method: Method,
  status: ChargeStatus,
  amount_cents: Schema.Int,
  fee_cents: Schema.NullOr(Schema.Int),
  net_cents: Schema.NullOr(Schema.Int),
  refunded_cents: Schema.Int,
  paid_on: Schema.NullOr(DateString),
  payment_id: Schema.NullOr(Id).annotate({ description: "The sales payment applied to the invoice." }),
  fee_entry_id: Schema.NullOr(Id),
  processor_payment_id: Schema.String,
  refunds: Schema.Array(Refund),
  disputes: Schema.Array(Dispute),
  created_at: Timestamp
}).annotate({ identifier: "OnlineCharge" })
export type Charge = typeof Charge.Type

export const listOnlinePayments = Operation.make({
  id: "listOnlinePayments",
  method: "GET",
  path: "/v1/online-payments",
  area,
  summary: "Charges taken on pay pages, newest first.",
  scope: "read",
  mode: "R",
  query: Schema.Struct({ document_id: Schema.optionalKey(Id), status: Schema.optionalKey(ChargeStatus), ...PageQuery }),
  success: Page(Charge),
  errors: [...groupErrors]
})

export const getOnlineCharge = Operation.make({
  id: "getOnlineCharge",
  method: "GET",
  path: "/v1/online-payments/charges/{id}",
  area,
  summary: "One charge with its fee, refunds and disputes.",
  scope: "read",
  mode: "R",
  pathParams: IdPath,
  success: Charge,
  errors: [...groupErrors]
})

const RefundPreview = Schema.Struct({
  dry_run: Schema.Literal(true),
  charge_id: Id,
  amount_cents: Schema.Int,
  refundable_cents: Schema.Int,
  entry: Schema.Struct({ debit_account: Schema.String, credit_account: Schema.String, amount_cents: Schema.Int })
})

export const refundOnlineCharge = Operation.make({
  id: "refundOnlineCharge",
  method: "POST",
  path: "/v1/online-payments/charges/{id}/refund",
  area,
  summary: "Ask the processor to refund a charge (all or part). 200 dry run; 201 asked: the books post Dr refunds, Cr clearing when the processor confirms.",
  description: "For the company's own owner or CPA; not an MCP tool.",
  scope: "approve",
  mode: "K",
  peopleOnly: true,
  signedIn: true,
  mcpTool: false,
  pathParams: IdPath,
  body: Schema.Struct({
    amount_cents: Schema.optionalKey(PositiveCents).annotate({ description: "Default: all that is still refundable." }),
    reason: Reason,
    dry_run: DryRun
  }),
  success: Refund,
  otherResponses: { 200: RefundPreview },
  errors: [...groupErrors, "refund_exceeds_charge"]
})

export const operations = [listOnlinePayments, getOnlineCharge, refundOnlineCharge] as const

import { Schema } from "effect"
import { DateString, Id, PositiveCents, Timestamp } from "../Common.ts"
import * as Operation from "../Operation.ts"
import { Method } from "./Charges.ts"
import { area, groupErrors } from "./Settings.ts"

/** `pay_` and 43 base64url characters (32 random bytes): the link is the credential (ADR 1802). */
export const PayToken = Schema.String.check(Schema.isPattern(/^pay_[A-Za-z0-9_-]{43}$/u)).annotate({ description: "The pay link's token." })

export const createPayLink = Operation.make({
  id: "createPayLink",
  method: "POST",
  path: "/v1/online-payments/pay-links",
  area,
  summary: "An invoice's pay link: an unguessable, expiring token the customer opens without an account. Shown once; earlier links of the invoice keep working until they expire.",
  scope: "propose",
  mode: "K",
  body: Schema.Struct({
    document_id: Id,
    expires_days: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 90 })).annotate({ description: "Days the link works (default 30)." }))
  }),
  success: Schema.Struct({ document_id: Id, url: Schema.String, token: PayToken, expires_at: Timestamp }),
  errors: [...groupErrors, "not_found", "document_not_payable"]
})

export const PayPage = Schema.Struct({
  company_name: Schema.String,
  invoice_number: Schema.String,
  doc_date: DateString,
  due_date: Schema.NullOr(DateString),
  currency: Schema.Literal("usd"),
  total_cents: Schema.Int,
  open_balance_cents: Schema.Int,
  allow_partial: Schema.Boolean,
  methods: Schema.Array(Method),
  expires_at: Timestamp
}).annotate({ identifier: "PayPage" })

export const getPayPage = Operation.make({
  id: "getPayPage",
  method: "GET",
  path: "/v1/pay/{token}",
  area,
  summary: "The public pay page of an invoice: only what the payer needs (who bills, number, dates, amounts, methods). No credential: the link is.",
  credential: "none",
  scope: "read",
  mode: "R",
  mcpTool: false,
  pathParams: Schema.Struct({ token: PayToken }),
  success: PayPage,
  errors: [...groupErrors, "not_found", "pay_link_expired"]
})

export const payInvoiceOnline = Operation.make({
  id: "payInvoiceOnline",
  method: "POST",
  path: "/v1/pay/{token}",
  area,
  summary: "Start paying the invoice: a processor payment for the open balance (or a part, when partial payments are allowed). The books post when the processor confirms.",
  credential: "none",
  scope: "read",
  mode: "-",
  mcpTool: false,
  status: 201,
  pathParams: Schema.Struct({ token: PayToken }),
  body: Schema.Struct({ method: Method, amount_cents: Schema.optionalKey(PositiveCents) }),
  success: Schema.Struct({ client_secret: Schema.String, amount_cents: Schema.Int, status: Schema.Literal("pending") }),
  errors: [...groupErrors, "not_found", "pay_link_expired", "document_not_payable", "partial_payment_not_allowed", "method_not_accepted"]
})

/** The largest event body taken (the processor's events are a few kilobytes). */
export const processorEventBytesMax = 262_144

export const receiveProcessorEvent = Operation.make({
  id: "receiveProcessorEvent",
  method: "POST",
  path: "/v1/online-payments/events",
  area,
  summary: "The processor's signed event (payments, refunds, disputes, payouts, subscriptions): verified, then booked once by event id, in any order.",
  description: "The processor POSTs the event itself as the body, signed in its `Stripe-Signature: t=...,v1=...` header (`Processor-Signature` is read too) " +
    "over the exact bytes sent (ADR 1803): the signature is checked against the raw body, never a re-encoding of it.",
  credential: "none",
  scope: "read",
  mode: "-",
  mcpTool: false,
  rawBody: true,
  bodyBytesMax: processorEventBytesMax,
  body: Schema.Record(Schema.String, Schema.Unknown).annotate({ description: "The processor's event, as it sent it." }),
  success: Schema.Struct({ received: Schema.Boolean, duplicate: Schema.Boolean, event_id: Schema.String }),
  errors: [...groupErrors, "invalid_signature"]
})

export const operations = [createPayLink, getPayPage, payInvoiceOnline, receiveProcessorEvent] as const

import { Schema } from "effect"
import { DateString, Id, Memo, PageQuery, Page, PositiveCents, Timestamp } from "../Common.ts"
import * as Operation from "../Operation.ts"
import { VoidBody } from "./Documents.ts"
import { AccountCode, Applications, DocumentNumber, governedFields, governedResponses, IdPath, Reference } from "./Shared.ts"

const area = "4.7 Sales and purchases"

export const PaymentDirection = Schema.Literals(["received", "made"])

export const PaymentApplication = Schema.Struct({
  application_id: Id,
  document_id: Id,
  document_number: Schema.String,
  amount_cents: Schema.Int,
  applied_on: DateString,
  active: Schema.Boolean
})

export const Payment = Schema.Struct({
  id: Id,
  direction: PaymentDirection,
  contact_id: Id,
  payment_date: DateString,
  account: Schema.String.annotate({ description: "The bank, cash or card account." }),
  control_account: Schema.String.annotate({ description: "The AR or AP account." }),
  amount_cents: Schema.Int,
  applied_cents: Schema.Int,
  unapplied_cents: Schema.Int.annotate({ description: "Credit on account: the part not applied to documents." }),
  applications: Schema.Array(PaymentApplication),
  number: Schema.NullOr(Schema.String),
  reference: Schema.NullOr(Schema.String),
  memo: Schema.NullOr(Schema.String),
  bank_line_id: Schema.NullOr(Id),
  status: Schema.Literals(["posted", "void"]),
  entry_id: Schema.NullOr(Id),
  void_entry_id: Schema.NullOr(Id),
  void_reason: Schema.NullOr(Schema.String),
  voided_at: Schema.NullOr(Timestamp),
  created_at: Timestamp
}).annotate({ identifier: "Payment" })
export type Payment = typeof Payment.Type

export const PaymentBody = Schema.Struct({
  contact_id: Id,
  payment_date: Schema.optionalKey(DateString).annotate({ description: "Default: the bank line's date, else today." }),
  account: Schema.optionalKey(AccountCode).annotate({ description: "Default: the bank line's ledger account; without a bank line, undeposited funds for money received and the first bank account for money paid (ADR 0307)." }),
  amount_cents: Schema.optionalKey(PositiveCents).annotate({
    description: "The whole payment (default: the bank line's amount, else the sum of applications); the excess stays as credit on account."
  }),
  applications: Schema.optionalKey(Applications),
  control_account: Schema.optionalKey(AccountCode),
  bank_line_id: Schema.optionalKey(Id).annotate({ description: "An unmatched bank line this payment categorizes." }),
  number: Schema.optionalKey(DocumentNumber),
  reference: Schema.optionalKey(Reference),
  memo: Schema.optionalKey(Memo),
  ...governedFields
})
export type PaymentBody = typeof PaymentBody.Type

const paymentErrors = ["unknown_account", "inactive_account", "period_hard_locked", "amount_out_of_range", "period_locked", "soft_lock_reason_required", "over_application"] as const

export const receivePayment = Operation.make({
  id: "receivePayment",
  method: "POST",
  path: "/v1/payments/received",
  area,
  summary: "A customer's payment: Dr bank, Cr AR; applied to invoices, the excess kept as credit. 200/201/202.",
  scope: "propose",
  mode: "K",
  governed: true,
  body: PaymentBody,
  success: Payment,
  otherResponses: governedResponses,
  errors: paymentErrors
})

export const makePayment = Operation.make({
  id: "makePayment",
  method: "POST",
  path: "/v1/payments/made",
  area,
  summary: "A payment to a vendor: Dr AP, Cr bank or card; applied to bills, the excess kept as credit. 200/201/202.",
  scope: "propose",
  mode: "K",
  governed: true,
  body: PaymentBody,
  success: Payment,
  otherResponses: governedResponses,
  errors: paymentErrors
})

export const listPayments = Operation.make({
  id: "listPayments",
  method: "GET",
  path: "/v1/payments",
  area,
  summary: "Payments received and made, newest first.",
  scope: "read",
  mode: "R",
  query: Schema.Struct({
    kind: Schema.optionalKey(PaymentDirection),
    contact_id: Schema.optionalKey(Id),
    unapplied: Schema.optionalKey(Schema.Boolean).annotate({ description: "Only payments with credit left to apply." }),
    ...PageQuery
  }),
  success: Page(Payment)
})

export const getPayment = Operation.make({
  id: "getPayment",
  method: "GET",
  path: "/v1/payments/{id}",
  area,
  summary: "One payment with its applications.",
  scope: "read",
  mode: "R",
  pathParams: IdPath,
  success: Payment
})

export const applyPayment = Operation.make({
  id: "applyPayment",
  method: "POST",
  path: "/v1/payments/{id}/apply",
  area,
  summary: "Apply a payment's unapplied credit to open documents of the same contact.",
  scope: "propose",
  mode: "K",
  status: 200,
  pathParams: IdPath,
  body: Schema.Struct({
    applications: Applications.check(Schema.isMinLength(1)),
    applied_on: Schema.optionalKey(DateString),
    dry_run: governedFields.dry_run
  }),
  success: Payment,
  errors: ["over_application", "already_void"]
})

export const voidPayment = Operation.make({
  id: "voidPayment",
  method: "POST",
  path: "/v1/payments/{id}/void",
  area,
  summary: "Void a payment: its applications end and the exact reversal of its entry is posted.",
  scope: "approve",
  mode: "K",
  governed: true,
  status: 200,
  pathParams: IdPath,
  body: VoidBody,
  success: Payment,
  otherResponses: { 202: governedResponses[202] },
  errors: ["already_void", "period_hard_locked", "amount_out_of_range", "period_locked", "soft_lock_reason_required"]
})

export const operations = [receivePayment, makePayment, listPayments, getPayment, applyPayment, voidPayment] as const

import { Schema } from "effect"
import { DateString, Id, Timestamp } from "../Common.ts"

/**
 * A sales or purchase document as the API shows it: its kind, lines, tax lines, balances and the
 * payments and credits applied to it. Documents.ts declares the operations that write and read it.
 */

export const documentKinds = [
  "invoice",
  "credit_memo",
  "bill",
  "vendor_credit",
  "sales_receipt",
  "refund",
  "vendor_refund",
  "expense",
  "check",
  "transfer"
] as const
export const DocumentKind = Schema.Literals(documentKinds)
export type DocumentKind = typeof DocumentKind.Type
export const Side = Schema.Literals(["sales", "purchases", "spending"])
export const DocumentStatus = Schema.Literals(["open", "partial", "paid", "applied", "void"])
export const DocumentStatusFilter = Schema.Literals(["open", "partial", "paid", "applied", "void", "overdue", "unpaid"])

export const DocumentLine = Schema.Struct({
  line_no: Schema.Int,
  item_id: Schema.NullOr(Id),
  description: Schema.NullOr(Schema.String),
  account: Schema.String,
  quantity: Schema.NullOr(Schema.String),
  unit_price_cents: Schema.NullOr(Schema.Int),
  amount_cents: Schema.Int,
  class: Schema.NullOr(Schema.String),
  taxable: Schema.Boolean
})

export const TaxLine = Schema.Struct({
  tax_rate_id: Id,
  name: Schema.String,
  agency_id: Id,
  rate_percent: Schema.String,
  payable_account: Schema.String,
  taxable_subtotal_cents: Schema.Int,
  tax_cents: Schema.Int
})

export const AppliedItem = Schema.Struct({
  application_id: Id,
  source: Schema.Literals(["payment", "credit"]),
  payment_id: Schema.NullOr(Id),
  credit_document_id: Schema.NullOr(Id),
  document_id: Id,
  amount_cents: Schema.Int,
  applied_on: DateString
})

export const Document = Schema.Struct({
  id: Id,
  kind: DocumentKind,
  side: Side,
  contact_id: Id,
  number: Schema.String,
  doc_date: DateString,
  due_date: Schema.NullOr(DateString),
  terms_days: Schema.NullOr(Schema.Int),
  reference: Schema.NullOr(Schema.String),
  memo: Schema.NullOr(Schema.String),
  control_account: Schema.NullOr(Schema.String).annotate({ description: "AR or AP; the bank account for receipts and refunds." }),
  account: Schema.NullOr(Schema.String).annotate({ description: "Receipts and refunds: the bank or cash account." }),
  tax_rate_id: Schema.NullOr(Id),
  lines: Schema.Array(DocumentLine),
  tax_lines: Schema.Array(TaxLine),
  subtotal_cents: Schema.Int,
  tax_cents: Schema.Int,
  total_cents: Schema.Int,
  applied_cents: Schema.Int,
  open_balance_cents: Schema.Int,
  status: DocumentStatus,
  overdue: Schema.Boolean,
  entry_id: Schema.NullOr(Id),
  void_entry_id: Schema.NullOr(Id),
  void_reason: Schema.NullOr(Schema.String),
  voided_at: Schema.NullOr(Timestamp),
  estimate_id: Schema.NullOr(Id),
  recurring_template_id: Schema.NullOr(Id),
  applications: Schema.Array(AppliedItem).annotate({
    description: "Payments and credits applied to this document, or, for a credit, where it was applied."
  }),
  created_at: Timestamp
}).annotate({ identifier: "Document" })
export type Document = typeof Document.Type

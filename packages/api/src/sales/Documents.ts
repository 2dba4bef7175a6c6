import { Schema } from "effect"
import { DateString, Id, Memo, PageQuery, Page, Reason } from "../Common.ts"
import * as File from "../File.ts"
import * as Operation from "../Operation.ts"
import {
  AccountCode,
  Applications,
  AsOfQuery,
  DocumentLines,
  DocumentNumber,
  governedFields,
  governedResponses,
  IdPath,
  Reference,
  TermsDays
} from "./Shared.ts"

import { Document, DocumentKind, DocumentStatusFilter, Side } from "./DocumentRecord.ts"

export {
  AppliedItem,
  Document,
  DocumentKind,
  documentKinds,
  DocumentLine,
  DocumentStatus,
  DocumentStatusFilter,
  Side,
  TaxLine
} from "./DocumentRecord.ts"

const area = "4.7 Sales and purchases"

const documentFields = {
  contact_id: Id,
  number: Schema.optionalKey(DocumentNumber).annotate({ description: "Assigned from the kind's sequence when omitted." }),
  doc_date: DateString,
  reference: Schema.optionalKey(Reference),
  memo: Schema.optionalKey(Memo),
  lines: DocumentLines,
  ...governedFields
}

const receivableFields = {
  ...documentFields,
  due_date: Schema.optionalKey(DateString),
  terms_days: Schema.optionalKey(TermsDays).annotate({ description: "Due date = doc_date + terms (default: the contact's)." }),
  control_account: Schema.optionalKey(AccountCode).annotate({ description: "Default: the first active AR (sales) or AP (purchases) account." })
}

export const InvoiceBody = Schema.Struct({
  ...receivableFields,
  tax_rate_id: Schema.optionalKey(Id).annotate({ description: "Adds one tax line per jurisdiction on the rate's payable accounts." })
})
export type InvoiceBody = typeof InvoiceBody.Type
export const BillBody = Schema.Struct(receivableFields)
export type BillBody = typeof BillBody.Type
export const ReceiptBody = Schema.Struct({
  ...documentFields,
  account: AccountCode.annotate({ description: "The bank or cash account the money goes into or out of." }),
  tax_rate_id: Schema.optionalKey(Id)
})
export type ReceiptBody = typeof ReceiptBody.Type
export const VendorRefundBody = Schema.Struct({
  ...documentFields,
  account: AccountCode.annotate({ description: "The bank account the vendor's refund is deposited to." })
})

const postingErrors = [
  "unknown_account",
  "control_account_line",
  "inactive_account",
  "period_hard_locked", "amount_out_of_range",
  "period_locked",
  "soft_lock_reason_required",
  "number_in_use",
  "inactive_tax_rate"
] as const

/** A document write on the governed path: 200 dry run, 201 posted, 202 queued. */
const governedDocument = <const Id extends string, B extends Schema.Top>(id: Id, path: string, summary: string, body: B) =>
  Operation.make({
    id,
    method: "POST",
    path,
    area,
    summary,
    scope: "propose",
    mode: "K",
    governed: true,
    body,
    success: Document,
    otherResponses: governedResponses,
    errors: postingErrors
  })

export const createInvoice = governedDocument(
  "createInvoice",
  "/v1/invoices",
  "Invoice a customer: Dr AR, Cr income per line (and tax per jurisdiction). 200 dry run, 201 posted, 202 queued.",
  InvoiceBody
)
export const createCreditMemo = governedDocument(
  "createCreditMemo",
  "/v1/credit-memos",
  "Credit a customer: Dr income (and tax), Cr AR. Apply it to open invoices.",
  InvoiceBody
)
export const createBill = governedDocument("createBill", "/v1/bills", "Record a vendor's bill: Dr expense per line, Cr AP.", BillBody)
export const createVendorCredit = governedDocument(
  "createVendorCredit",
  "/v1/vendor-credits",
  "Record a vendor's credit: Dr AP, Cr expense per line.",
  BillBody
)
export const createSalesReceipt = governedDocument(
  "createSalesReceipt",
  "/v1/sales-receipts",
  "A sale paid on the spot: Dr bank or cash, Cr income per line (and tax).",
  ReceiptBody
)
export const createRefund = governedDocument(
  "createRefund",
  "/v1/refunds",
  "A refund receipt to a customer: Dr income per line (and tax), Cr bank or cash.",
  ReceiptBody
)
export const createVendorRefund = governedDocument(
  "createVendorRefund",
  "/v1/vendor-refunds",
  "Money a vendor refunds: Dr bank, Cr expense per line.",
  VendorRefundBody
)

export const listDocuments = Operation.make({
  id: "listDocuments",
  method: "GET",
  path: "/v1/documents",
  area,
  summary: "Sales and purchase documents, newest first.",
  scope: "read",
  mode: "R",
  query: Schema.Struct({
    kind: Schema.optionalKey(DocumentKind),
    side: Schema.optionalKey(Side),
    status: Schema.optionalKey(DocumentStatusFilter),
    contact_id: Schema.optionalKey(Id),
    from: Schema.optionalKey(DateString),
    to: Schema.optionalKey(DateString),
    as_of: AsOfQuery,
    ...PageQuery
  }),
  success: Page(Document)
})

export const getDocument = Operation.make({
  id: "getDocument",
  method: "GET",
  path: "/v1/documents/{id}",
  area,
  summary: "One document with its lines and the payments and credits applied to it.",
  scope: "read",
  mode: "R",
  pathParams: IdPath,
  query: Schema.Struct({ as_of: AsOfQuery }),
  success: Document
})

/** Voiding a document or a payment. */
export const VoidBody = Schema.Struct({
  reason: Reason,
  void_date: Schema.optionalKey(DateString).annotate({ description: "Date of the reversal entry (default today)." }),
  soft_lock_override_reason: governedFields.soft_lock_override_reason,
  dry_run: governedFields.dry_run
})
export type VoidBody = typeof VoidBody.Type

export const voidDocument = Operation.make({
  id: "voidDocument",
  method: "POST",
  path: "/v1/documents/{id}/void",
  area,
  summary: "Void a document: the exact reversal of its entry is posted. Invoices and bills need their payments and credits voided first.",
  scope: "approve",
  mode: "K",
  governed: true,
  status: 200,
  pathParams: IdPath,
  body: VoidBody,
  success: Document,
  otherResponses: { 202: governedResponses[202] },
  errors: ["document_has_applications", "already_void", "period_hard_locked", "amount_out_of_range", "period_locked", "soft_lock_reason_required"]
})

export const applyCredit = Operation.make({
  id: "applyCredit",
  method: "POST",
  path: "/v1/documents/{id}/apply",
  area,
  summary: "Apply an open credit memo or vendor credit to open invoices or bills of the same contact.",
  scope: "propose",
  mode: "K",
  status: 200,
  pathParams: IdPath,
  body: Schema.Struct({
    applications: Applications.check(Schema.isMinLength(1)),
    applied_on: Schema.optionalKey(DateString).annotate({ description: "Default today (never before either document's date)." }),
    dry_run: governedFields.dry_run
  }),
  success: Document,
  errors: ["over_application", "already_void"]
})

export const PdfFile = File.PdfEnvelope

/** `?format=`: the PDF of a document or an estimate: `pdf` (default) the file, `base64` the JSON envelope (ADR 0015). */
export const PdfQuery = Schema.Struct({ format: File.PdfFormat })

export const getDocumentPdf = Operation.make({
  id: "getDocumentPdf",
  method: "GET",
  path: "/v1/documents/{id}/pdf",
  area,
  summary: "The document as a PDF (format=base64: in JSON).",
  scope: "read",
  mode: "R",
  pathParams: IdPath,
  query: PdfQuery,
  success: PdfFile,
  files: File.pdfDocument
})

export const operations = [
  createInvoice,
  createCreditMemo,
  createBill,
  createVendorCredit,
  createSalesReceipt,
  createRefund,
  createVendorRefund,
  listDocuments,
  getDocument,
  voidDocument,
  applyCredit,
  getDocumentPdf
] as const

import { Schema } from "effect"
import { DateString, Id, Memo, PageQuery, Page, Reason, Timestamp } from "../Common.ts"
import * as File from "../File.ts"
import * as Operation from "../Operation.ts"
import { Document, DocumentLine, TaxLine } from "./DocumentRecord.ts"
import { PdfFile, PdfQuery } from "./Documents.ts"
import {
  AsOfQuery,
  DocumentLines,
  DocumentNumber,
  governedFields,
  governedResponses,
  IdPath,
  Reference,
  TermsDays
} from "./Shared.ts"

const area = "4.8 Estimates"

export const EstimateStatus = Schema.Literals(["open", "accepted", "declined", "converted", "void"])

/**
 * An estimate's line is an invoice's line. No identifier of its own: like DocumentLine it stays
 * inline, so neither the OpenAPI document nor the SDK's generated types gain a new name.
 */
export const EstimateLine = DocumentLine

export const Estimate = Schema.Struct({
  id: Id,
  contact_id: Id,
  number: Schema.String,
  estimate_date: DateString,
  expiry_date: Schema.NullOr(DateString),
  expired: Schema.Boolean.annotate({ description: "Open past its expiry date, as of the request's date." }),
  reference: Schema.NullOr(Schema.String),
  memo: Schema.NullOr(Schema.String),
  tax_rate_id: Schema.NullOr(Id),
  lines: Schema.Array(EstimateLine),
  tax_lines: Schema.Array(TaxLine),
  subtotal_cents: Schema.Int,
  tax_cents: Schema.Int,
  total_cents: Schema.Int,
  status: EstimateStatus,
  status_reason: Schema.NullOr(Schema.String),
  invoice_id: Schema.NullOr(Id),
  created_at: Timestamp,
  updated_at: Timestamp
}).annotate({ identifier: "Estimate" })
export type Estimate = typeof Estimate.Type

export const EstimateBody = Schema.Struct({
  contact_id: Id,
  number: Schema.optionalKey(DocumentNumber),
  estimate_date: DateString,
  expiry_date: Schema.optionalKey(DateString),
  reference: Schema.optionalKey(Reference),
  memo: Schema.optionalKey(Memo),
  tax_rate_id: Schema.optionalKey(Id),
  lines: DocumentLines,
  dry_run: governedFields.dry_run
})
export type EstimateBody = typeof EstimateBody.Type

export const EstimatePreview = Schema.Struct({
  dry_run: Schema.Literal(true),
  estimate: Schema.Unknown,
  number: Schema.String
}).annotate({ identifier: "EstimatePreview" })

export const createEstimate = Operation.make({
  id: "createEstimate",
  method: "POST",
  path: "/v1/estimates",
  area,
  summary: "Quote a customer. Never posts. 200 preview, 201 created.",
  scope: "propose",
  mode: "K",
  body: EstimateBody,
  success: Estimate,
  otherResponses: { 200: EstimatePreview },
  errors: ["number_in_use", "inactive_tax_rate"]
})

export const listEstimates = Operation.make({
  id: "listEstimates",
  method: "GET",
  path: "/v1/estimates",
  area,
  summary: "Estimates, newest first.",
  scope: "read",
  mode: "R",
  query: Schema.Struct({
    status: Schema.optionalKey(EstimateStatus),
    contact_id: Schema.optionalKey(Id),
    as_of: AsOfQuery,
    ...PageQuery
  }),
  success: Page(Estimate)
})

export const getEstimate = Operation.make({
  id: "getEstimate",
  method: "GET",
  path: "/v1/estimates/{id}",
  area,
  summary: "One estimate.",
  scope: "read",
  mode: "R",
  pathParams: IdPath,
  success: Estimate
})

export const setEstimateStatus = Operation.make({
  id: "setEstimateStatus",
  method: "POST",
  path: "/v1/estimates/{id}/status",
  area,
  summary: "Accept, decline, reopen or void an estimate (void needs a reason).",
  scope: "propose",
  mode: "K",
  status: 200,
  pathParams: IdPath,
  body: Schema.Struct({
    status: Schema.Literals(["open", "accepted", "declined", "void"]).annotate({ description: "The estimate's new status; converted comes only from converting it." }),
    reason: Schema.optionalKey(Reason)
  }),
  success: Estimate,
  errors: ["invalid_transition"]
})

export const convertEstimate = Operation.make({
  id: "convertEstimate",
  method: "POST",
  path: "/v1/estimates/{id}/convert",
  area,
  summary: "Turn an open or accepted estimate into an invoice on the governed path. 200/201/202.",
  scope: "propose",
  mode: "K",
  governed: true,
  pathParams: IdPath,
  body: Schema.Struct({
    doc_date: Schema.optionalKey(DateString).annotate({ description: "Default the server's today." }),
    due_date: Schema.optionalKey(DateString),
    terms_days: Schema.optionalKey(TermsDays),
    number: Schema.optionalKey(DocumentNumber),
    memo: Schema.optionalKey(Memo),
    ...governedFields
  }),
  success: Document,
  otherResponses: governedResponses,
  errors: ["invalid_transition", "number_in_use", "inactive_tax_rate", "period_hard_locked", "amount_out_of_range", "period_locked", "soft_lock_reason_required"]
})

export const getEstimatePdf = Operation.make({
  id: "getEstimatePdf",
  method: "GET",
  path: "/v1/estimates/{id}/pdf",
  area,
  summary: "The estimate as a PDF (format=base64: in JSON).",
  scope: "read",
  mode: "R",
  pathParams: IdPath,
  query: PdfQuery,
  success: PdfFile,
  files: File.pdfDocument
})

export const operations = [
  createEstimate,
  listEstimates,
  getEstimate,
  setEstimateStatus,
  convertEstimate,
  getEstimatePdf
] as const

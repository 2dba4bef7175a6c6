import { Schema } from "effect"
import { Id, NonNegativeCents, Page, PageQuery, Reason, Timestamp } from "../Common.ts"
import * as File from "../File.ts"
import * as Operation from "../Operation.ts"
import { area, Year } from "./Shared.ts"

export const Provider = Schema.Literals(["gov_csv", "gov_a2a", "partner_mock", "partner_live"]).annotate({ description: "Where the filing goes: gov_csv a CSV for the IRS's upload portal; the others a Publication 1220 file." })
export const IrsStatus = Schema.Literals(["submitted", "accepted", "partially_accepted", "rejected_by_irs"]).annotate({ description: "The IRS's answer." })
export const FilingStatus = Schema.Literals(["proposed", "rejected", "approved", "failed", "submitted", "accepted", "partially_accepted", "rejected_by_irs"])
  .annotate({
    description: "proposed (nothing sent), rejected (by a person; nothing sent), approved (gov_csv only: the filed copy is " +
      "the CSV a person uploads to the IRS portal; ack records the portal's receipt, ADR 2006), failed (the provider did " +
      "not take it; retry), then the IRS answer. ADR 1305."
  })

export const CorrectionInput = Schema.Struct({
  contact_id: Id,
  type: Schema.Literals(["amounts", "name_tin"]).annotate({
    description: "amounts: one-transaction correction (G) with the right amounts; name_tin: two-transaction correction " +
      "(a G record zeroing the original, then a C record with the right name or TIN), Publication 1220."
  })
}).annotate({ identifier: "FilingCorrectionInput" })

export const Filing = Schema.Struct({
  id: Id,
  year: Year,
  provider: Provider,
  kind: Schema.Literals(["original", "correction"]),
  status: FilingStatus,
  file_format: Schema.Literals(["fire", "csv"]),
  threshold_cents: Schema.Int,
  contact_ids: Schema.Array(Id),
  corrections: Schema.Array(CorrectionInput),
  payee_count: Schema.Int,
  record_count: Schema.Int,
  total_nec_cents: Schema.Int,
  total_misc_cents: Schema.Int,
  preview_sha256: Schema.String,
  receipt_id: Schema.NullOr(Schema.String),
  provider_reference: Schema.NullOr(Schema.String),
  rejected_records: Schema.Array(Schema.Int),
  attempts: Schema.Int,
  last_error: Schema.NullOr(Schema.String),
  note: Schema.NullOr(Schema.String),
  decided_by: Schema.NullOr(Schema.String),
  decided_at: Schema.NullOr(Timestamp),
  decision_reason: Schema.NullOr(Schema.String),
  created_by: Schema.String,
  created_at: Timestamp,
  updated_at: Timestamp
}).annotate({ identifier: "InformationReturnFiling" })
export type Filing = typeof Filing.Type

export const FilingPreview = Schema.Struct({
  dry_run: Schema.Literal(true),
  year: Year,
  provider: Provider,
  kind: Schema.Literals(["original", "correction"]),
  file_format: Schema.Literals(["fire", "csv"]),
  payee_count: Schema.Int,
  record_count: Schema.Int,
  total_nec_cents: Schema.Int,
  total_misc_cents: Schema.Int,
  content: Schema.String.annotate({ description: "The exact file, TINs masked." }),
  sha256: Schema.String.annotate({ description: "SHA-256 of `content`: quote it as preview_sha256 to approve the filing proposed from it." })
}).annotate({ identifier: "InformationReturnFilingPreview" })

const IdPath = Schema.Struct({ id: Id })

export const listFilings = Operation.make({
  id: "listFilings",
  method: "GET",
  path: "/v1/tax-forms/filings",
  area,
  summary: "Information-return filings, newest first.",
  scope: "read",
  mode: "R",
  query: Schema.Struct({ year: Schema.optionalKey(Year), ...PageQuery }),
  success: Page(Filing)
})

export const createFiling = Operation.make({
  id: "createFiling",
  method: "POST",
  path: "/v1/tax-forms/filings",
  area,
  summary: "Propose a 1099 filing; the dry run shows the exact content (TINs masked) and its SHA-256. Nothing is sent until approval.",
  scope: "propose",
  mode: "K",
  body: Schema.Struct({
    year: Year,
    provider: Provider,
    kind: Schema.optionalKey(Schema.Literals(["original", "correction"]).annotate({ description: "An original filing (default) or a correction of one." })),
    contact_ids: Schema.optionalKey(Schema.Array(Id).check(Schema.isMaxLength(5000)).annotate({ description: "Only these vendors; omitted: every recipient of the year's 1099 summary." })),
    corrections: Schema.optionalKey(Schema.Array(CorrectionInput).check(Schema.isMaxLength(5000)).annotate({ description: "With kind correction: the forms to correct and how." })),
    threshold_cents: Schema.optionalKey(NonNegativeCents),
    dry_run: Schema.optionalKey(Schema.Boolean)
  }),
  success: Filing,
  otherResponses: { 200: FilingPreview },
  errors: ["payer_not_set", "nothing_to_file", "tax_profile_missing"]
})

export const getFiling = Operation.make({
  id: "getFiling",
  method: "GET",
  path: "/v1/tax-forms/filings/{id}",
  area,
  summary: "One filing, with its masked content.",
  scope: "read",
  mode: "R",
  pathParams: IdPath,
  success: Schema.Struct({ ...Filing.fields, content_masked: Schema.String })
})


export const approveFiling = Operation.make({
  id: "approveFiling",
  method: "POST",
  path: "/v1/tax-forms/filings/{id}/approve",
  area,
  summary: "Send the filing, quoting the SHA-256 of the preview the person saw. People only, never agents or AI apps.",
  description: "A gov_csv filing is sent by no provider: approving it makes it `approved`, its filed copy " +
    "(`GET .../filed`) is the CSV to upload to the IRS portal, and `ack` records the portal's receipt. The other " +
    "providers file electronically through the filing provider, which must be configured (503 " +
    "`tax_filing_not_configured`). ADR 2006.",
  scope: "approve",
  mode: "K",
  peopleOnly: true,
  status: 200,
  pathParams: IdPath,
  body: Schema.Struct({
    preview_sha256: Schema.String.check(Schema.isPattern(/^[0-9a-f]{64}$/u)).annotate({ description: "The SHA-256 of the content you reviewed, from the filing's preview." }),
    note: Schema.optionalKey(Reason)
  }),
  success: Filing,
  errors: ["filing_not_pending", "filing_preview_mismatch", "tax_filing_not_configured"]
})

export const rejectFiling = Operation.make({
  id: "rejectFiling",
  method: "POST",
  path: "/v1/tax-forms/filings/{id}/reject",
  area,
  summary: "Reject a proposed filing; nothing is sent.",
  scope: "approve",
  mode: "K",
  peopleOnly: true,
  status: 200,
  pathParams: IdPath,
  body: Schema.Struct({ reason: Reason }),
  success: Filing,
  errors: ["filing_not_pending"]
})

export const retryFiling = Operation.make({
  id: "retryFiling",
  method: "POST",
  path: "/v1/tax-forms/filings/{id}/retry",
  area,
  summary: "Send again a filing the provider failed to take.",
  scope: "approve",
  mode: "K",
  peopleOnly: true,
  status: 200,
  pathParams: IdPath,
  body: Schema.Struct({}),
  success: Filing,
  errors: ["filing_not_retryable", "tax_filing_not_configured"]
})

export const ackFiling = Operation.make({
  id: "ackFiling",
  method: "POST",
  path: "/v1/tax-forms/filings/{id}/ack",
  area,
  summary: "Record the IRS acknowledgement of a sent filing, or the portal's receipt of an approved gov_csv filing uploaded by a person.",
  scope: "approve",
  mode: "K",
  status: 200,
  pathParams: IdPath,
  body: Schema.Struct({
    receipt_id: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(100)).annotate({ description: "The IRS's receipt id for the submission." }),
    status: IrsStatus,
    rejected_records: Schema.optionalKey(Schema.Array(Schema.Int.check(Schema.isGreaterThanOrEqualTo(1))).check(Schema.isMaxLength(10000)).annotate({ description: "With partially_accepted: the record numbers the IRS rejected." })),
    note: Schema.optionalKey(Reason)
  }),
  success: Filing,
  errors: ["filing_not_submitted"]
})

export const refreshFiling = Operation.make({
  id: "refreshFiling",
  method: "POST",
  path: "/v1/tax-forms/filings/{id}/refresh",
  area,
  summary: "Ask the provider for the IRS answer now (not for gov_csv, which no provider sent: record its answer with ack).",
  scope: "approve",
  mode: "-",
  status: 200,
  pathParams: IdPath,
  body: Schema.Struct({}),
  success: Filing,
  errors: ["filing_not_submitted", "filing_not_refreshable", "tax_filing_not_configured", "tax_filing_failed"]
})

export const getFiledCopy = Operation.make({
  id: "getFiledCopy",
  method: "GET",
  path: "/v1/tax-forms/filings/{id}/filed",
  area,
  summary: "The filed copy with full TINs, for a person with the filing right; each download is audit-logged. " +
    "For an approved gov_csv filing, the CSV to upload to the IRS portal. ADR 1310, 2006.",
  scope: "approve",
  mode: "R",
  peopleOnly: true,
  pathParams: IdPath,
  query: Schema.Struct({
    format: Schema.optionalKey(Schema.Literals(["file", "json"])).annotate({
      description: "`file` (default): the filed file itself. `json`: `{filing_id, filename, content_type, sha256, content}`."
    })
  }),
  success: Schema.Struct({ filing_id: Id, filename: Schema.String, content_type: Schema.String, sha256: Schema.String, content: Schema.String }),
  errors: ["filing_not_submitted"],
  files: File.files({ formats: { file: [File.mediaTypes.text, File.mediaTypes.csv] }, default: "file" })
})

export const getRecipientCopies = Operation.make({
  id: "getRecipientCopies",
  method: "GET",
  path: "/v1/tax-forms/filings/{id}/recipient-copies",
  area,
  summary: "Copy B for each recipient of a filing as one PDF (recipient TINs truncated as the IRS allows). ADR 1310.",
  scope: "read",
  mode: "R",
  pathParams: IdPath,
  query: Schema.Struct({
    contact_id: Schema.optionalKey(Id),
    format: File.PdfFormat
  }),
  success: File.PdfEnvelope,
  files: File.pdfDocument
})

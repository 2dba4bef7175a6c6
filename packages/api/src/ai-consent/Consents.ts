import { Schema } from "effect"
import { DateString, Id, Page, PageQuery, Reason, Timestamp } from "../Common.ts"
import * as File from "../File.ts"
import * as Operation from "../Operation.ts"

/** Section 7216 consent records (spec 3-endpoints-b 4.4, concepts 3.10). */

export const area = "4.4 AI consent (section 7216)"
const IdPath = Schema.Struct({ id: Id })
export const Text = (max: number) => Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(max))

export const providers = ["provider_a", "provider_b", "provider_c", "provider_d", "other"] as const
export const Provider = Schema.Literals(providers)
export const dataCategories = ["books", "bank_lines", "documents", "receipts", "contacts", "tax_mappings", "tax_forms"] as const
export const DataCategory = Schema.Literals(dataCategories)
export const purposes = ["bookkeeping", "reconciliation", "tax_preparation_support", "review", "support", "other"] as const
export const Purpose = Schema.Literals(purposes)
export const Status = Schema.Literals(["pending", "valid_now", "superseded", "expired", "revoked", "cancelled"])

export const ProviderInfo = Schema.Struct({
  provider: Schema.String,
  name: Schema.String,
  location: Schema.String,
  data_handling: Schema.String
}).annotate({ identifier: "AiProvider" })

export const Consent = Schema.Struct({
  id: Id,
  version: Schema.Int,
  status: Status,
  providers: Schema.Array(Schema.String),
  provider_other_name: Schema.NullOr(Schema.String),
  provider_other_country: Schema.NullOr(Schema.String),
  data_categories: Schema.Array(Schema.String),
  purposes: Schema.Array(Schema.String),
  purpose_detail: Schema.NullOr(Schema.String),
  valid_until: Schema.NullOr(DateString),
  firm_id: Schema.NullOr(Schema.Int),
  supersedes: Schema.NullOr(Schema.Int),
  due_date: Schema.NullOr(DateString),
  text: Schema.String,
  text_sha256: Schema.String,
  signed_at: Schema.NullOr(Timestamp),
  signed_by: Schema.NullOr(Schema.String),
  signed_method: Schema.NullOr(Schema.Literals(["typed", "upload"])),
  accepted_providers: Schema.Array(Schema.String),
  has_signed_pdf: Schema.Boolean,
  ended_at: Schema.NullOr(Timestamp),
  end_reason: Schema.NullOr(Schema.String),
  created_at: Timestamp
}).annotate({ identifier: "AiConsent" })
export type Consent = typeof Consent.Type

export const PdfFile = File.PdfEnvelope

const templateFields = {
  providers: Schema.Array(Provider).check(Schema.isMinLength(1), Schema.isMaxLength(5)).annotate({ description: "The AI providers the consent covers (GET /v1/ai-providers lists them)." }),
  provider_other_name: Schema.optionalKey(Text(200).annotate({ description: "With provider other: the provider's name." })),
  provider_other_country: Schema.optionalKey(Text(100).annotate({ description: "With provider other: the country where it processes the data." })),
  data_categories: Schema.Array(DataCategory).check(Schema.isMinLength(1), Schema.isMaxLength(7)).annotate({ description: "What the providers may see: books, bank_lines, documents, receipts, contacts, tax_mappings, tax_forms." }),
  purposes: Schema.Array(Purpose).check(Schema.isMinLength(1), Schema.isMaxLength(6)).annotate({ description: "What the data is used for." }),
  purpose_detail: Schema.optionalKey(Text(2000).annotate({ description: "The purposes in the taxpayer's words, printed in the consent." })),
  valid_until: Schema.optionalKey(DateString),
  firm_id: Schema.optionalKey(Id.annotate({ description: "The firm whose agents the consent covers; omitted: the company's own." }))
}

export const listAiConsents = Operation.make({
  id: "listAiConsents",
  method: "GET",
  path: "/v1/company/ai-consents",
  area,
  summary: "Consents, newest first, every version.",
  scope: "read",
  mode: "R",
  peopleOnly: true,
  query: Schema.Struct({ ...PageQuery }),
  success: Page(Consent)
})

export const createAiConsent = Operation.make({
  id: "createAiConsent",
  method: "POST",
  path: "/v1/company/ai-consents",
  area,
  summary: "Request a consent: the document is generated from the template and frozen (pending).",
  scope: "admin",
  mode: "K",
  peopleOnly: true,
  body: Schema.Struct({
    ...templateFields,
    supersedes: Schema.optionalKey(Id),
    send_request: Schema.optionalKey(Schema.Boolean.annotate({ description: "A firm's request: email the company's people to sign (default true)." })),
    due_date: Schema.optionalKey(DateString)
  }),
  success: Consent,
  errors: ["consent_not_signed"]
})

const csv = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(500))

export const getAiConsentTemplate = Operation.make({
  id: "getAiConsentTemplate",
  method: "GET",
  path: "/v1/company/ai-consents/template",
  area,
  summary: "The consent text the request would freeze; nothing saved.",
  scope: "read",
  mode: "R",
  peopleOnly: true,
  query: Schema.Struct({
    providers: csv.annotate({ description: "The AI providers, comma-separated." }),
    data_categories: csv.annotate({ description: "The data categories, comma-separated." }),
    purposes: csv.annotate({ description: "The purposes, comma-separated." }),
    purpose_detail: Schema.optionalKey(Text(2000).annotate({ description: "The purposes in the taxpayer's words." })),
    valid_until: Schema.optionalKey(DateString),
    provider_other_name: Schema.optionalKey(Text(200).annotate({ description: "With provider other: the provider's name." })),
    provider_other_country: Schema.optionalKey(Text(100).annotate({ description: "With provider other: the country where it processes the data." })),
    firm_id: Schema.optionalKey(Schema.String.annotate({ description: "The firm whose agents the consent would cover." }))
  }),
  success: Schema.Struct({ text: Schema.String, text_sha256: Schema.String, valid_until: Schema.NullOr(DateString) })
})

export const getAiConsent = Operation.make({
  id: "getAiConsent",
  method: "GET",
  path: "/v1/company/ai-consents/{id}",
  area,
  summary: "One consent; `format=pdf` answers the consent document as a PDF file, `format=base64` as the PDF in JSON.",
  scope: "read",
  mode: "R",
  peopleOnly: true,
  pathParams: IdPath,
  query: Schema.Struct({ format: Schema.optionalKey(Schema.Literals(["json", "pdf", "base64"])) }),
  success: Schema.Union([Consent, PdfFile]),
  files: File.files({ formats: { pdf: [File.mediaTypes.pdf] } })
})

export const getAiConsentSignedPdf = Operation.make({
  id: "getAiConsentSignedPdf",
  method: "GET",
  path: "/v1/company/ai-consents/{id}/signed-pdf",
  area,
  summary: "The signed consent as a PDF: the uploaded paper-signed copy, or the generated one with the typed signature.",
  scope: "read",
  mode: "R",
  peopleOnly: true,
  pathParams: IdPath,
  query: Schema.Struct({ format: Schema.optionalKey(Schema.Literals(["pdf", "base64"])) }),
  success: PdfFile,
  errors: ["consent_not_signed"],
  files: File.pdfDocument
})

const AcceptedProviders = Schema.Array(Provider).check(Schema.isMinLength(1), Schema.isMaxLength(5)).annotate({ description: "The providers the signer accepts, among the consent's." })

export const signAiConsent = Operation.make({
  id: "signAiConsent",
  method: "POST",
  path: "/v1/company/ai-consents/{id}/sign",
  area,
  summary: "Sign a pending consent: the owner, in their own browser session with a recent step-up, types their name.",
  scope: "admin",
  mode: "K",
  status: 200,
  peopleOnly: true,
  browserSessionOnly: true,
  mcpTool: false,
  pathParams: IdPath,
  body: Schema.Struct({ typed_name: Text(200), accepted_providers: AcceptedProviders }),
  success: Consent,
  errors: ["consent_not_pending", "consent_not_owner", "step_up_required"]
})

/** 2 MB of PDF as base64. */
export const signedPdfBytesMax = 2 * 1024 * 1024

export const uploadAiConsent = Operation.make({
  id: "uploadAiConsent",
  method: "POST",
  path: "/v1/company/ai-consents/{id}/upload",
  area,
  summary: "Record a paper-signed consent: the signed PDF (at most 2 MB) with an attestation.",
  scope: "admin",
  mode: "K",
  status: 200,
  peopleOnly: true,
  bodyBytesMax: Math.ceil(signedPdfBytesMax * 4 / 3) + 64 * 1024,
  pathParams: IdPath,
  body: Schema.Struct({
    pdf_base64: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(Math.ceil(signedPdfBytesMax * 4 / 3) + 4)).annotate({ description: "The signed PDF's bytes, base64 (at most 2 MB)." }),
    signed_on: DateString,
    signed_by: Text(200).annotate({ description: "The taxpayer who signed, as named on the paper." }),
    attest: Schema.Boolean.annotate({ description: "Must be true: you attest the taxpayer signed this consent." }),
    accepted_providers: AcceptedProviders
  }),
  success: Consent,
  errors: ["consent_not_pending", "consent_invalid_pdf", "step_up_required"]
})

export const revokeAiConsent = Operation.make({
  id: "revokeAiConsent",
  method: "POST",
  path: "/v1/company/ai-consents/{id}/revoke",
  area,
  summary: "Revoke a signed consent (revoked) or cancel a pending one (cancelled); immediate, no step-up.",
  scope: "admin",
  mode: "K",
  status: 200,
  peopleOnly: true,
  pathParams: IdPath,
  body: Schema.Struct({ reason: Schema.optionalKey(Reason) }),
  success: Consent,
  errors: ["conflict"]
})

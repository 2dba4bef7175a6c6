import { Schema } from "effect"
import { DateString, DryRun, Empty, Id, Memo, NonNegativeCents, Page, PageQuery, Reason, Timestamp } from "../Common.ts"
import * as File from "../File.ts"
import * as Operation from "../Operation.ts"
import * as Governed from "../ledger/Governed.ts"
import { AccountCode } from "../ledger/Records.ts"
import { area, FileContent, IdPath, limits, MediaType } from "./Shared.ts"

export const receiptStatuses = ["new", "extracted", "matched", "posted", "discarded"] as const
export const ReceiptStatus = Schema.Literals(receiptStatuses)
export const ReceiptSource = Schema.Literals(["email", "upload", "camera"])
export const PaymentMethod = Schema.Literals(["cash", "card", "other"]).annotate({ description: "How the receipt was paid: cash, card or other." })

const Vendor = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(limits.vendorLengthMax)).annotate({
  description: "The seller's name as the receipt shows it."
})
const Note = Schema.String.check(Schema.isMaxLength(limits.noteLengthMax)).annotate({ description: "A person's or agent's note on the receipt." })

/** How the receipt was last read: the built-in reader and, when configured, the extraction provider. */
export const Extraction = Schema.Struct({
  status: Schema.Literals(["none", "read", "not_configured", "failed"]),
  by: Schema.NullOr(Schema.String),
  fields_found: Schema.Array(Schema.String),
  message: Schema.NullOr(Schema.String),
  at: Schema.NullOr(Timestamp)
})

export const Receipt = Schema.Struct({
  id: Id,
  status: ReceiptStatus,
  source: ReceiptSource,
  file_name: Schema.String,
  media_type: MediaType,
  size_bytes: Schema.Int,
  sha256: Schema.String,
  note: Schema.NullOr(Schema.String),
  vendor: Schema.NullOr(Schema.String),
  date: Schema.NullOr(Schema.String),
  total_cents: Schema.NullOr(Schema.Int),
  tax_cents: Schema.NullOr(Schema.Int),
  subtotal_cents: Schema.NullOr(Schema.Int),
  payment_method: Schema.NullOr(PaymentMethod),
  has_text: Schema.Boolean,
  has_snapshot: Schema.Boolean.annotate({ description: "An HTML receipt has a PDF snapshot: GET .../file?variant=snapshot." }),
  extraction: Extraction,
  bank_line_id: Schema.NullOr(Id),
  document_id: Schema.NullOr(Id),
  entry_id: Schema.NullOr(Id),
  proposal_id: Schema.NullOr(Id),
  inbox_message_id: Schema.NullOr(Id),
  discarded_reason: Schema.NullOr(Schema.String),
  created_at: Timestamp,
  updated_at: Timestamp
}).annotate({ identifier: "Receipt" })
export type Receipt = typeof Receipt.Type

export const Candidate = Schema.Struct({
  bank_line_id: Id,
  bank_account_id: Id,
  date: Schema.String,
  amount_cents: Schema.Int,
  payee: Schema.NullOr(Schema.String),
  score: Schema.Int,
  reasons: Schema.Array(Schema.Literals(["amount", "date_window", "vendor"]))
}).annotate({ identifier: "ReceiptCandidate" })

export const ReceiptWithCandidates = Schema.Struct({ ...Receipt.fields, candidates: Schema.Array(Candidate) })
export const Uploaded = Schema.Struct({ ...Receipt.fields, created: Schema.Boolean })

export const listReceipts = Operation.make({
  id: "listReceipts", method: "GET", path: "/v1/receipts", area, summary: "Receipts, newest first.",
  scope: "read", mode: "R",
  query: Schema.Struct({ status: Schema.optionalKey(ReceiptStatus), source: Schema.optionalKey(ReceiptSource), ...PageQuery }),
  success: Page(Receipt)
})

export const uploadReceipt = Operation.make({
  id: "uploadReceipt", method: "POST", path: "/v1/receipts", area,
  summary: "Upload a receipt file (PDF, JPEG, PNG or HEIC, at most 20 MB as base64); the same file twice is the same receipt.",
  description: "The type is read from the bytes, never the name. Stored encrypted; a PDF's text is read at once.",
  scope: "propose", mode: "K", bodyBytesMax: limits.uploadBodyBytesMax,
  body: Schema.Struct({
    file_name: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(limits.fileNameLengthMax)).annotate({
      description: "The file's name, kept for people; the type is read from the bytes."
    }),
    content_base64: Schema.String.check(Schema.isMinLength(4), Schema.isMaxLength(limits.base64CharactersMax)).annotate({
      description: "The file's bytes, base64."
    }),
    source: Schema.optionalKey(Schema.Literals(["upload", "camera"]).annotate({ description: "How it came: an uploaded file (default) or a camera photo." })),
    note: Schema.optionalKey(Note)
  }),
  success: Uploaded,
  errors: ["payload_too_large", "unsupported_media_type", "receipt_storage_not_configured", "receipt_storage_unavailable"]
})

export const getReceipt = Operation.make({
  id: "getReceipt", method: "GET", path: "/v1/receipts/{id}", area,
  summary: "One receipt, with candidate bank lines (amount, date window, vendor) and the reasons for each.",
  scope: "read", mode: "R", pathParams: IdPath, success: ReceiptWithCandidates
})

export const updateReceipt = Operation.make({
  id: "updateReceipt", method: "POST", path: "/v1/receipts/{id}", area,
  summary: "Correct the fields read from a receipt. Only sent fields change; null clears one.",
  scope: "propose", mode: "K", status: 200, pathParams: IdPath,
  body: Schema.Struct({
    vendor: Schema.optionalKey(Schema.NullOr(Vendor)),
    date: Schema.optionalKey(Schema.NullOr(DateString)),
    total_cents: Schema.optionalKey(Schema.NullOr(NonNegativeCents)),
    tax_cents: Schema.optionalKey(Schema.NullOr(NonNegativeCents)),
    subtotal_cents: Schema.optionalKey(Schema.NullOr(NonNegativeCents)),
    payment_method: Schema.optionalKey(Schema.NullOr(PaymentMethod)),
    note: Schema.optionalKey(Schema.NullOr(Note))
  }),
  success: Receipt,
  errors: ["receipt_state"]
})

export const getReceiptFile = Operation.make({
  id: "getReceiptFile", method: "GET", path: "/v1/receipts/{id}/file", area,
  summary: "The receipt's file as it was received, decrypted, with its own media type (format=base64: in JSON).",
  scope: "read", mode: "R", pathParams: IdPath,
  query: Schema.Struct({
    variant: Schema.optionalKey(Schema.Literals(["original", "snapshot"]).annotate({
      description: "The file as received (default), or the PDF snapshot of an HTML receipt."
    })),
    format: Schema.optionalKey(Schema.Literals(["base64"]))
  }),
  success: FileContent,
  errors: ["receipt_storage_not_configured", "receipt_storage_unavailable"],
  files: File.files({
    formats: { file: [File.mediaTypes.pdf, File.mediaTypes.jpeg, File.mediaTypes.png, File.mediaTypes.heic, File.mediaTypes.html] },
    default: "file"
  })
})

export const extractReceipt = Operation.make({
  id: "extractReceipt", method: "POST", path: "/v1/receipts/{id}/extract", area,
  summary: "Read the receipt again: its text, then the deployment's extraction provider when one is configured.",
  description: "Fields a person corrected are kept; fields still empty are filled.",
  scope: "propose", mode: "K", status: 200, pathParams: IdPath, body: Empty, success: Receipt,
  errors: ["receipt_state", "receipt_storage_not_configured", "receipt_storage_unavailable"]
})

export const matchReceipt = Operation.make({
  id: "matchReceipt", method: "POST", path: "/v1/receipts/{id}/match", area,
  summary: "Attach the receipt to a bank line; it is posted when the line is.",
  scope: "propose", mode: "K", status: 200, pathParams: IdPath,
  body: Schema.Struct({ bank_line_id: Id }), success: Receipt, errors: ["receipt_state"]
})

export const unmatchReceipt = Operation.make({
  id: "unmatchReceipt", method: "POST", path: "/v1/receipts/{id}/unmatch", area,
  summary: "Detach a matched receipt from its bank line.",
  scope: "propose", mode: "K", status: 200, pathParams: IdPath, body: Empty, success: Receipt, errors: ["receipt_state"]
})

export const attachReceipt = Operation.make({
  id: "attachReceipt", method: "POST", path: "/v1/receipts/{id}/attach", area,
  summary: "Attach the receipt to a posted expense, check or bill (a bill's document id or a posted entry's id).",
  scope: "propose", mode: "K", status: 200, pathParams: IdPath,
  body: Schema.Struct({ document_id: Id }), success: Receipt, errors: ["receipt_state"]
})

export const ExpensePreview = Schema.Struct({ receipt_id: Id, payment_account: Schema.String, account: Schema.String, amount_cents: Schema.Int })

export const createReceiptExpense = Operation.make({
  id: "createReceiptExpense", method: "POST", path: "/v1/receipts/{id}/expense", area,
  summary: "Post the receipt as an expense through the governed path: an agent's request always waits (receipt_review).",
  description: "Debits `account`, credits `payment_account` by `amount_cents` (default the receipt's total) on `doc_date` (default its date).",
  scope: "propose", mode: "K", governed: true, pathParams: IdPath,
  body: Schema.Struct({
    payment_account: AccountCode,
    account: AccountCode,
    amount_cents: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 1_000_000_000_000_000 }))),
    doc_date: Schema.optionalKey(DateString),
    payee_id: Schema.optionalKey(Id),
    memo: Schema.optionalKey(Memo),
    class: Schema.optionalKey(Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200)).annotate({
      description: "A class name (reporting dimension) for the expense line."
    })),
    confidence: Schema.optionalKey(Governed.Confidence),
    soft_lock_override_reason: Schema.optionalKey(Reason),
    dry_run: DryRun
  }),
  success: Receipt,
  otherResponses: { 200: Governed.preview(ExpensePreview), 202: Governed.Queued },
  errors: [
    "receipt_state",
    "unknown_account",
    "inactive_account",
    "unknown_class",
    "unknown_contact",
    "control_account_line",
    "period_hard_locked", "amount_out_of_range",
    "soft_lock_reason_required"
  ]
})

export const discardReceipt = Operation.make({
  id: "discardReceipt", method: "POST", path: "/v1/receipts/{id}/discard", area,
  summary: "Set a receipt aside (not a business expense, a duplicate paper copy).",
  scope: "propose", mode: "K", status: 200, pathParams: IdPath,
  body: Schema.Struct({ reason: Reason }), success: Receipt, errors: ["receipt_state"]
})

export const restoreReceipt = Operation.make({
  id: "restoreReceipt", method: "POST", path: "/v1/receipts/{id}/restore", area,
  summary: "Bring a discarded receipt back.",
  scope: "propose", mode: "K", status: 200, pathParams: IdPath, body: Empty, success: Receipt, errors: ["receipt_state"]
})

export const operations = [
  listReceipts, uploadReceipt, getReceipt, updateReceipt, getReceiptFile, extractReceipt,
  matchReceipt, unmatchReceipt, attachReceipt, createReceiptExpense, discardReceipt, restoreReceipt
] as const

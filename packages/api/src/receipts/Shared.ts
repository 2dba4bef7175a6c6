import { Schema } from "effect"
import { Id } from "../Common.ts"

/** The section every receipts operation belongs to. */
export const area = "4.1 Receipts"

/** Sizes and counts of the receipts area (spec 8.2; the rest are this implementation's, ADR 1200). */
export const limits = {
  /** A receipt file: PDF, JPEG, PNG or HEIC, at most 20 MB (spec 8.2). */
  fileBytesMax: 20 * 1024 * 1024,
  /**
   * Its base64 form (four characters per three bytes) with 1 MB to spare, so that a file just over
   * the limit is refused as too large (413) by the rule that knows why, not as a bad request.
   */
  base64CharactersMax: Math.ceil((21 * 1024 * 1024) / 3) * 4,
  /** The upload's JSON body: the base64 and the other fields. */
  uploadBodyBytesMax: Math.ceil((21 * 1024 * 1024) / 3) * 4 + 64 * 1024,
  fileNameLengthMax: 255,
  noteLengthMax: 2000,
  vendorLengthMax: 200,
  /** Text read from a PDF kept with the receipt (characters). */
  textCharactersMax: 100_000,
  /** An inbound message: whole size, attachments, and each attachment. */
  messageBytesMax: 30 * 1024 * 1024,
  attachmentsPerMessageMax: 10,
  allowedSendersMax: 100,
  /** Candidate bank lines: days either side of the receipt's date, and how many are shown. */
  candidateWindowDays: 7,
  candidatesMax: 10,
  slugForwardDays: 30,
  /** A message waits in review this long; then it is `expired` and its held files are deleted. */
  reviewDays: 30,
  /**
   * Messages one company's inbox takes in 24 hours (issue 41 item 2); past it mail is deferred
   * with SMTP 452 (the sender retries later), never read. Shared by every server through the
   * database.
   */
  inboxMessagesPerDayMax: 1_000
} as const

export const IdPath = Schema.Struct({ id: Id })

/** What an upload may be. */
export const UploadMediaType = Schema.Literals(["application/pdf", "image/jpeg", "image/png", "image/heic"])
export type UploadMediaType = typeof UploadMediaType.Type
/** What a receipt may be: an upload's types, or an HTML message that arrived by mail (it has a PDF snapshot). */
export const MediaType = Schema.Literals(["application/pdf", "image/jpeg", "image/png", "image/heic", "text/html"])
export type MediaType = typeof MediaType.Type

/** A file served back: JSON with its bytes as base64 (ADR 1201). */
export const FileContent = Schema.Struct({
  file_name: Schema.String,
  media_type: Schema.String,
  size_bytes: Schema.Int,
  content_base64: Schema.String
}).annotate({ identifier: "ReceiptFileContent" })

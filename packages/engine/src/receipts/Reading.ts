import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError } from "@ledger/api"
import { type BlobRef, BlobStore, type BlobUnavailable } from "../ports/BlobStore.ts"
import type { Entropy } from "../ports/Entropy.ts"
import { ReceiptReader } from "../ports/ReceiptReader.ts"
import * as FileRules from "./FileRules.ts"
import * as HtmlReceipt from "./HtmlReceipt.ts"
import * as PdfText from "./PdfText.ts"
import * as ReceiptRules from "./ReceiptRules.ts"
import * as ReceiptStore from "./ReceiptStore.ts"
import * as TextFields from "./TextFields.ts"

/**
 * Storing a file as a receipt and reading it, for uploads and for mail alike. The bytes go to
 * the encrypted blob store under `receipt/<sha256>`; a PDF's text is read at once and its fields
 * by Ledger's own rules; the deployment's receipt reader (OCR) is asked when one is configured.
 */

export const blobKey = (sha: string) => `receipt/${sha}`
export const snapshotKey = (sha: string) => `snapshot/${sha}`

/** An object store that cannot be reached is the deployment's trouble, said as such (503), not a bug (500). */
const unavailable = (error: BlobUnavailable) =>
  ApiError.fail("receipt_storage_unavailable", "The receipt file store cannot be reached; try again later.", { reason: error.message.slice(0, 200) })

/** The blob store, configured, with its failures as the API's 503 `receipt_storage_unavailable`. */
export const requireStorage = Effect.gen(function*() {
  const store = yield* BlobStore
  if (!store.configured) {
    return yield* Effect.fail(ApiError.fail("receipt_storage_not_configured", "Receipts are stored encrypted: configure the deployment's master key (LEDGER_MASTER_KEY)."))
  }
  return {
    put: (ref: BlobRef, bytes: Uint8Array) => store.put(ref, bytes).pipe(Effect.mapError(unavailable)),
    get: (ref: BlobRef) => store.get(ref).pipe(Effect.mapError(unavailable)),
    remove: (ref: BlobRef) => store.remove(ref).pipe(Effect.mapError(unavailable))
  }
})

export interface Read {
  readonly text: string | null
  readonly fields: ReceiptRules.Fields
  readonly status: "read" | "not_configured" | "failed" | "none"
  readonly by: string | null
  readonly found: ReadonlyArray<string>
  readonly message: string | null
}

/** Reads a file: its text (PDF), fields by rules from the text, then the provider's fields over them. */
export const read = Effect.fn("Reading.read")(function*(mediaType: string, bytes: Uint8Array) {
  const html = mediaType === "text/html" ? HtmlReceipt.toText(new TextDecoder().decode(bytes)).slice(0, 100_000) : null
  const text = mediaType === "application/pdf" ? yield* PdfText.read(bytes) : html === "" ? null : html
  const own = text === null ? ReceiptRules.emptyFields : TextFields.read(text)
  const reader = yield* ReceiptReader
  if (html !== null) return { text, fields: own, found: ReceiptRules.foundFields(own), status: "read", by: "ledger", message: null } satisfies Read
  if (!reader.configured) {
    const found = ReceiptRules.foundFields(own)
    return {
      text, fields: own, found,
      status: text === null ? "not_configured" : "read",
      by: text === null ? null : "ledger",
      message: text === null ? "No receipt reader is configured for images or scans (LEDGER_RECEIPT_READER_URL)." : null
    } satisfies Read
  }
  const provided = yield* Effect.result(reader.read({ mediaType, bytes, text }))
  if (provided._tag === "Failure") {
    return { text, fields: own, found: ReceiptRules.foundFields(own), status: "failed", by: reader.name, message: provided.failure.message } satisfies Read
  }
  const fields = ReceiptRules.merge(own, provided.success as Partial<ReceiptRules.Fields>, [])
  return { text, fields, found: ReceiptRules.foundFields(fields), status: "read", by: reader.name, message: null } satisfies Read
})

/** An HTML receipt: its text read by rules, and its PDF snapshot of that text stored beside it. */
const readHtml = Effect.fn("Reading.readHtml")(function*(company: string, sha: string, bytes: Uint8Array, title: string, now: string) {
  const blobs = yield* requireStorage
  const reading = yield* read("text/html", bytes)
  yield* blobs.put({ companyId: company, key: snapshotKey(sha) }, yield* HtmlReceipt.snapshot({ title, text: reading.text ?? "", at: now }))
  return reading
})

export const readingColumns = (reading: Read, now: string) => ({
  text_content: reading.text,
  vendor: reading.fields.vendor,
  receipt_date: reading.fields.date,
  total_cents: reading.fields.total_cents,
  tax_cents: reading.fields.tax_cents,
  subtotal_cents: reading.fields.subtotal_cents,
  payment_method: reading.fields.payment_method,
  extraction_status: reading.status,
  extraction_by: reading.by,
  extraction_fields: JSON.stringify(reading.found),
  extraction_message: reading.message,
  extracted_at: now
})

export interface Stored {
  readonly created: boolean
  readonly row: Record<string, unknown>
}

/**
 * Stores checked bytes as the company's receipt, or finds the receipt these bytes already are
 * (`created` false). Runs in the caller's transaction.
 */
export const store = (input: {
  readonly company: string
  readonly bytes: Uint8Array
  readonly fileName: string
  readonly source: "email" | "upload" | "camera"
  readonly note: string | null
  readonly inboxMessageId: number | null
  readonly now: string
  /** An HTML message's body: kept as the original, read as text, with a PDF snapshot. */
  readonly html?: boolean
}): Effect.Effect<Stored, ApiError.LedgerError, SqlClient.SqlClient | BlobStore | ReceiptReader | Entropy> =>
  Effect.gen(function*() {
    const blobs = yield* requireStorage
    const checked = input.html === true
      ? { mediaType: "text/html" as const, sha256: yield* FileRules.fingerprintAsync(input.bytes) }
      : yield* FileRules.checkFile(input.bytes)
    const existing = yield* ReceiptStore.bySha(input.company, checked.sha256)
    if (existing !== undefined) return { created: false, row: existing }
    yield* blobs.put({ companyId: input.company, key: blobKey(checked.sha256) }, input.bytes)
    const reading = checked.mediaType === "text/html"
      ? yield* readHtml(input.company, checked.sha256, input.bytes, input.fileName, input.now)
      : yield* read(checked.mediaType, input.bytes)
    const id = yield* ReceiptStore.insertOnce({
      company_id: input.company,
      source: input.source,
      file_name: input.fileName,
      media_type: checked.mediaType,
      has_snapshot: checked.mediaType === "text/html",
      size_bytes: input.bytes.byteLength,
      sha256: checked.sha256,
      note: input.note,
      inbox_message_id: input.inboxMessageId,
      ...readingColumns(reading, input.now),
      created_at: input.now,
      updated_at: input.now
    })
    // A concurrent upload of the same file committed first: this one is that receipt.
    if (id === null) return { created: false, row: (yield* ReceiptStore.bySha(input.company, checked.sha256))! }
    return { created: true, row: yield* ReceiptStore.load(input.company, id) }
  })

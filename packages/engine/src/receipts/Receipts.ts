import { Effect } from "effect"
import { Base64 } from "effect/encoding"
import { ApiError, Receipts } from "@ledger/api"
import { requireCompanyId } from "../kernel/CompanyContext.ts"
import * as Handler from "../kernel/Handler.ts"
import * as Pagination from "../kernel/Pagination.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Row from "../kernel/Row.ts"
import * as FileRules from "./FileRules.ts"
import * as Reading from "./Reading.ts"
import * as ReceiptRules from "./ReceiptRules.ts"
import * as ReceiptStore from "./ReceiptStore.ts"

const Ops = Receipts.Records
const limits = Receipts.Shared.limits

const editedOf = (row: Record<string, unknown>): ReadonlyArray<string> => {
  const parsed = Row.json<unknown>(row.edited_fields)
  return Array.isArray(parsed) ? parsed.map(String) : []
}

/** Candidate bank lines, best first (ReceiptRules.scoreLine). */
const candidatesOf = Effect.fn("Receipts.candidatesOf")(function*(company: string, receipt: Receipts.Records.Receipt) {
  if (receipt.status === "discarded" || receipt.status === "posted" || receipt.bank_line_id !== null) return []
  const rows = yield* ReceiptStore.candidateLines(company, { totalCents: receipt.total_cents, date: receipt.date }, limits.candidateWindowDays)
  return rows
    .map((line) => {
      const scored = ReceiptRules.scoreLine({ totalCents: receipt.total_cents, date: receipt.date, vendor: receipt.vendor }, line, limits.candidateWindowDays)
      return {
        bank_line_id: line.id,
        bank_account_id: line.bankAccountId,
        date: line.date,
        amount_cents: line.amountCents,
        payee: line.payee,
        score: scored.score,
        reasons: [...scored.reasons]
      }
    })
    .filter((candidate) => candidate.reasons.length > 0)
    .sort((a, b) => b.score - a.score || b.bank_line_id - a.bank_line_id)
    .slice(0, limits.candidatesMax)
})

/** Refuses a change to a discarded receipt (restore it first). */
export const requireNotDiscarded = (row: Record<string, unknown>) =>
  row.discarded === true
    ? Effect.fail(ApiError.fail("receipt_state", "The receipt is discarded: restore it first.", { status: "discarded" }))
    : Effect.void

export const handlers = [
  Handler.make(Ops.listReceipts, ({ query }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      const limit = Pagination.limitOf(query)
      const after = yield* Pagination.afterId(query)
      const rows = yield* ReceiptStore.list(company, { status: query.status, source: query.source, after, limit })
      return { body: Pagination.page(rows, limit, (row) => Row.int(row.id), ReceiptStore.present) }
    })),

  Handler.make(Ops.uploadReceipt, ({ body }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      const request = yield* RequestContext
      yield* Reading.requireStorage
      const bytes = yield* FileRules.decodeBase64(body.content_base64, ["body", "content_base64"])
      const stored = yield* Reading.store({
        company, bytes, fileName: body.file_name, source: body.source ?? "upload", note: body.note ?? null, inboxMessageId: null, now: request.now
      })
      const receipt = ReceiptStore.present(stored.row)
      return {
        status: 201,
        body: { ...receipt, created: stored.created },
        audit: { targetType: "receipt", targetId: receipt.id, details: { created: stored.created, media_type: receipt.media_type, size_bytes: receipt.size_bytes } }
      }
    })),

  Handler.make(Ops.getReceipt, ({ path }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      const receipt = ReceiptStore.present(yield* ReceiptStore.load(company, path.id))
      return { body: { ...receipt, candidates: yield* candidatesOf(company, receipt) } }
    })),

  Handler.make(Ops.updateReceipt, ({ path, body }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      const request = yield* RequestContext
      const row = yield* ReceiptStore.load(company, path.id, true)
      yield* requireNotDiscarded(row)
      const { date, note, ...fields } = body
      const changed = [...Object.keys(fields), ...(date === undefined ? [] : ["date"])]
      const edited = Array.from(new Set([...editedOf(row), ...changed]))
      const updated = yield* ReceiptStore.update(company, path.id, {
        ...fields,
        ...(date === undefined ? {} : { receipt_date: date }),
        ...(note === undefined ? {} : { note }),
        edited_fields: JSON.stringify(edited),
        updated_at: request.now
      })
      return { body: ReceiptStore.present(updated), audit: { targetType: "receipt", targetId: path.id, details: { changed: Object.keys(body) } } }
    })),

  Handler.make(Ops.getReceiptFile, ({ path, query }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      const receipt = ReceiptStore.present(yield* ReceiptStore.load(company, path.id))
      const blobs = yield* Reading.requireStorage
      const snapshot = query.variant === "snapshot"
      if (snapshot && !receipt.has_snapshot) {
        return yield* Effect.fail(ApiError.notFound("snapshot: only a receipt that arrived as an HTML message has one"))
      }
      const key = snapshot ? Reading.snapshotKey(receipt.sha256) : Reading.blobKey(receipt.sha256)
      const bytes = yield* blobs.get({ companyId: company, key })
      if (bytes === null) return yield* Effect.fail(ApiError.notFound("receipt file"))
      const fileName = snapshot ? `${receipt.file_name.replace(/\.html?$/iu, "")}.pdf` : receipt.file_name
      return {
        body: { file_name: fileName, media_type: snapshot ? "application/pdf" : receipt.media_type, size_bytes: bytes.byteLength, content_base64: Base64.encode(bytes) }
      }
    })),

  Handler.make(Ops.extractReceipt, ({ path }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      const request = yield* RequestContext
      const row = yield* ReceiptStore.load(company, path.id, true)
      const blobs = yield* Reading.requireStorage
      yield* requireNotDiscarded(row)
      const receipt = ReceiptStore.present(row)
      const bytes = yield* blobs.get({ companyId: company, key: Reading.blobKey(receipt.sha256) })
      if (bytes === null) return yield* Effect.fail(ApiError.notFound("receipt file"))
      const reading = yield* Reading.read(receipt.media_type, bytes)
      const fields = ReceiptRules.merge(receipt, reading.fields, editedOf(row))
      const columns = Reading.readingColumns({ ...reading, fields }, request.now)
      const updated = yield* ReceiptStore.update(company, path.id, { ...columns, updated_at: request.now })
      return { body: ReceiptStore.present(updated), audit: { targetType: "receipt", targetId: path.id, details: { extraction: reading.status } } }
    })),

  Handler.make(Ops.discardReceipt, ({ path, body }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      const request = yield* RequestContext
      const receipt = ReceiptStore.present(yield* ReceiptStore.load(company, path.id, true))
      if (receipt.status === "discarded") return yield* Effect.fail(ApiError.fail("receipt_state", "The receipt is already discarded.", { status: receipt.status }))
      if (receipt.status === "posted" || receipt.proposal_id !== null) {
        return yield* Effect.fail(ApiError.fail("receipt_state", "The receipt backs a posted or proposed expense; it cannot be discarded.", { status: receipt.status }))
      }
      const updated = yield* ReceiptStore.update(company, path.id, { discarded: true, discarded_reason: body.reason, updated_at: request.now })
      return { body: ReceiptStore.present(updated), audit: { targetType: "receipt", targetId: path.id, reason: body.reason } }
    })),

  Handler.make(Ops.restoreReceipt, ({ path }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      const request = yield* RequestContext
      const receipt = ReceiptStore.present(yield* ReceiptStore.load(company, path.id, true))
      if (receipt.status !== "discarded") return yield* Effect.fail(ApiError.fail("receipt_state", "Only a discarded receipt can be restored.", { status: receipt.status }))
      const updated = yield* ReceiptStore.update(company, path.id, { discarded: false, discarded_reason: null, updated_at: request.now })
      return { body: ReceiptStore.present(updated), audit: { targetType: "receipt", targetId: path.id } }
    }))
]

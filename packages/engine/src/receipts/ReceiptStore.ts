import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, type Receipts } from "@ledger/api"
import * as Banking from "../banking/index.ts"
import * as Row from "../kernel/Row.ts"
import * as ReceiptRules from "./ReceiptRules.ts"

/**
 * SQL of receipts. Every statement names the company. The status is computed on read
 * (ReceiptRules.statusOf): a receipt matched to a bank line shows `posted` as soon as the line has
 * posted, without anything writing to the receipt (the line's entry is read with it).
 */

type Sql = SqlClient.SqlClient

const select = (sql: Sql) =>
  sql`SELECT r.*, bl.entry_id AS line_entry_id FROM receipts r
    LEFT JOIN bank_lines bl ON bl.company_id = r.company_id AND bl.id = r.bank_line_id`

/** The SQL form of statusOf, for filtering lists. */
const statusSql = (sql: Sql) =>
  sql`(CASE WHEN r.discarded THEN 'discarded'
    WHEN r.entry_id IS NOT NULL OR r.document_id IS NOT NULL OR (r.bank_line_id IS NOT NULL AND bl.entry_id IS NOT NULL) THEN 'posted'
    WHEN r.bank_line_id IS NOT NULL THEN 'matched'
    WHEN (r.extraction_status = 'read' AND jsonb_array_length(r.extraction_fields) > 0) OR jsonb_array_length(r.edited_fields) > 0 THEN 'extracted'
    ELSE 'new' END)`

const texts = (value: unknown): ReadonlyArray<string> => {
  const parsed = Row.json<unknown>(value)
  return Array.isArray(parsed) ? parsed.map(String) : []
}

export const present = (row: Record<string, unknown>): Receipts.Records.Receipt => {
  const extractionFields = texts(row.extraction_fields)
  const edited = texts(row.edited_fields)
  const status = ReceiptRules.statusOf({
    discarded: row.discarded === true,
    entryId: Row.intOrNull(row.entry_id),
    documentId: Row.intOrNull(row.document_id),
    bankLineId: Row.intOrNull(row.bank_line_id),
    bankLinePosted: row.line_entry_id !== null && row.line_entry_id !== undefined,
    extracted: (row.extraction_status === "read" && extractionFields.length > 0) || edited.length > 0
  })
  return {
    id: Row.int(row.id),
    status,
    source: row.source as "email" | "upload" | "camera",
    file_name: String(row.file_name),
    media_type: row.media_type as Receipts.Shared.MediaType,
    size_bytes: Row.int(row.size_bytes),
    sha256: String(row.sha256),
    note: (row.note as string | null) ?? null,
    vendor: (row.vendor as string | null) ?? null,
    date: row.receipt_date === null || row.receipt_date === undefined ? null : Row.date(row.receipt_date),
    total_cents: Row.intOrNull(row.total_cents),
    tax_cents: Row.intOrNull(row.tax_cents),
    subtotal_cents: Row.intOrNull(row.subtotal_cents),
    payment_method: (row.payment_method as "cash" | "card" | "other" | null) ?? null,
    has_text: row.text_content !== null && row.text_content !== undefined,
    has_snapshot: row.has_snapshot === true,
    extraction: {
      status: row.extraction_status as "none" | "read" | "not_configured" | "failed",
      by: (row.extraction_by as string | null) ?? null,
      fields_found: extractionFields,
      message: (row.extraction_message as string | null) ?? null,
      at: row.extracted_at === null || row.extracted_at === undefined ? null : Row.iso(row.extracted_at)
    },
    bank_line_id: Row.intOrNull(row.bank_line_id),
    document_id: Row.intOrNull(row.document_id),
    entry_id: Row.intOrNull(row.entry_id),
    proposal_id: Row.intOrNull(row.proposal_id),
    inbox_message_id: Row.intOrNull(row.inbox_message_id),
    discarded_reason: (row.discarded_reason as string | null) ?? null,
    created_at: Row.iso(row.created_at),
    updated_at: Row.iso(row.updated_at)
  }
}

export const load = Effect.fn("ReceiptStore.load")(function*(company: string, id: number, lock = false) {
  const sql = yield* SqlClient.SqlClient
  if (lock) yield* sql`SELECT id FROM receipts WHERE company_id = ${company} AND id = ${id} FOR UPDATE`.pipe(Effect.orDie)
  const rows = yield* sql<Record<string, unknown>>`${select(sql)} WHERE r.company_id = ${company} AND r.id = ${id}`.pipe(Effect.orDie)
  if (rows[0] === undefined) return yield* Effect.fail(ApiError.notFound("receipt"))
  return rows[0]
})

export const bySha = Effect.fn("ReceiptStore.bySha")(function*(company: string, sha: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`${select(sql)} WHERE r.company_id = ${company} AND r.sha256 = ${sha}`.pipe(Effect.orDie)
  return rows[0]
})

export const list = Effect.fn("ReceiptStore.list")(function*(company: string, filter: {
  readonly status?: string | undefined
  readonly source?: string | undefined
  readonly after: number | null
  readonly limit: number
}) {
  const sql = yield* SqlClient.SqlClient
  return yield* sql<Record<string, unknown>>`${select(sql)} WHERE r.company_id = ${company}
    ${filter.status === undefined ? sql`` : sql`AND ${statusSql(sql)} = ${filter.status}`}
    ${filter.source === undefined ? sql`` : sql`AND r.source = ${filter.source}`}
    ${filter.after === null ? sql`` : sql`AND r.id < ${filter.after}`}
    ORDER BY r.id DESC LIMIT ${filter.limit + 1}`.pipe(Effect.orDie)
})

/** Inserts a receipt unless the company already has its file (same SHA-256): the new id, or null. */
export const insertOnce = Effect.fn("ReceiptStore.insertOnce")(function*(values: Record<string, unknown>) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ id: unknown }>`INSERT INTO receipts ${sql.insert(values)}
    ON CONFLICT (company_id, sha256) DO NOTHING RETURNING id`.pipe(Effect.orDie)
  return rows[0] === undefined ? null : Row.int(rows[0].id)
})

export const update = Effect.fn("ReceiptStore.update")(function*(company: string, id: number, values: Record<string, unknown>) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`UPDATE receipts SET ${sql.update(values)} WHERE company_id = ${company} AND id = ${id}`.pipe(Effect.orDie)
  return yield* load(company, id)
})

/**
 * Bank lines that may be this receipt's payment: banking's own reader (money out, posted by the
 * bank, not excluded, near its date or of its amount), less the lines another receipt holds.
 */
export const candidateLines = Effect.fn("ReceiptStore.candidateLines")(function*(company: string, receipt: {
  readonly totalCents: number | null
  readonly date: string | null
}, windowDays: number) {
  const sql = yield* SqlClient.SqlClient
  const lines = yield* Banking.spendingLinesNear(company, { amountCents: receipt.totalCents, date: receipt.date, windowDays, limit: 200 })
  if (lines.length === 0) return lines
  const held = yield* sql<{ bank_line_id: unknown }>`SELECT bank_line_id FROM receipts WHERE company_id = ${company} AND NOT discarded
    AND bank_line_id IN ${sql.in(lines.map((line) => line.id))}`.pipe(Effect.orDie)
  const taken = new Set(held.map((row) => Row.int(row.bank_line_id)))
  return lines.filter((line) => !taken.has(line.id))
})

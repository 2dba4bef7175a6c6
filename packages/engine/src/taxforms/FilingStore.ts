import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, type TaxForms } from "@ledger/api"
import * as Pagination from "../kernel/Pagination.ts"
import * as Row from "../kernel/Row.ts"

/** Filings' rows: the masked content in clear, the full file sealed, the IRS's answer. */

type Filing = TaxForms.Filings.Filing

export const fileBinding = (company: string, previewSha256: string) => `tax-filing:${company}:${previewSha256}`

export const filing = (row: Record<string, unknown>): Filing => ({
  id: Row.int(row.id),
  year: Row.int(row.year),
  provider: row.provider as Filing["provider"],
  kind: row.kind as Filing["kind"],
  status: row.status as Filing["status"],
  file_format: row.file_format as Filing["file_format"],
  threshold_cents: Row.int(row.threshold_cents),
  contact_ids: Row.json<Array<number>>(row.contact_ids),
  corrections: Row.json<Filing["corrections"]>(row.corrections),
  payee_count: Row.int(row.payee_count),
  record_count: Row.int(row.record_count),
  total_nec_cents: Row.int(row.total_nec_cents),
  total_misc_cents: Row.int(row.total_misc_cents),
  preview_sha256: String(row.preview_sha256),
  receipt_id: (row.receipt_id as string | null) ?? null,
  provider_reference: (row.provider_reference as string | null) ?? null,
  rejected_records: Row.json<Array<number>>(row.rejected_records),
  attempts: Row.int(row.attempts),
  last_error: (row.last_error as string | null) ?? null,
  note: (row.note as string | null) ?? null,
  decided_by: (row.decided_by as string | null) ?? null,
  decided_at: Row.isoOrNull(row.decided_at),
  decision_reason: (row.decision_reason as string | null) ?? null,
  created_by: String(row.created_by),
  created_at: Row.iso(row.created_at),
  updated_at: Row.iso(row.updated_at)
})

export const load = Effect.fn("FilingStore.load")(function*(company: string, id: number, lock = false) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM tax_filings WHERE company_id = ${company} AND id = ${id}
    ${lock ? sql`FOR UPDATE` : sql``}`.pipe(Effect.orDie)
  if (rows[0] === undefined) return yield* Effect.fail(ApiError.notFound("filing"))
  return rows[0]
})

export const update = Effect.fn("FilingStore.update")(function*(company: string, id: number, changes: Record<string, unknown>) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`UPDATE tax_filings SET ${sql.update(changes)}
    WHERE company_id = ${company} AND id = ${id} RETURNING *`.pipe(Effect.orDie)
  return rows[0]!
})

export const list = Effect.fn("FilingStore.list")(function*(company: string, year: number | undefined, query: Pagination.PageRequest) {
  const sql = yield* SqlClient.SqlClient
  const select = (after: number | null, limitPlusOne: number) =>
    sql<Record<string, unknown>>`SELECT * FROM tax_filings WHERE company_id = ${company}
    ${year === undefined ? sql`` : sql`AND year = ${year}`} ${after === null ? sql`` : sql`AND id < ${after}`}
    ORDER BY id DESC LIMIT ${limitPlusOne}`.pipe(Effect.orDie)
  return yield* Pagination.listPage(query, select, (row) => Row.int(row.id), filing)
})

/** The IRS's answer statuses: the filing was sent. */
export const sent = (status: unknown): boolean => status === "submitted" || status === "accepted" || status === "partially_accepted" || status === "rejected_by_irs"

/**
 * A filing whose file has left Ledger's hands or may now: sent, or an approved `gov_csv` filing a
 * person uploads to the IRS portal (ADR 2006). Its filed copy can be downloaded and its answer
 * recorded with `ack`.
 */
export const released = (status: unknown): boolean => status === "approved" || sent(status)

/** `gov_csv` is uploaded by a person to the IRS portal; every other provider files electronically through the port. */
export const uploadedByHand = (row: Record<string, unknown>): boolean => row.provider === "gov_csv"

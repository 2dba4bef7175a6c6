import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, type Receipts } from "@ledger/api"
import { Entropy } from "../ports/Entropy.ts"
import * as Row from "../kernel/Row.ts"

/**
 * SQL of the receipt inbox. A company's inbox row is made on first use with a private token; a
 * rotated token is kept in `receipt_inbox_retired` so mail to it is refused and listed.
 */

const hex = (bytes: Uint8Array) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("")

export const newToken = Effect.gen(function*() {
  const entropy = yield* Entropy
  return hex(yield* entropy.bytes(10))
})

export const ensure = Effect.fn("InboxStore.ensure")(function*(company: string, now: string, lock = false) {
  const sql = yield* SqlClient.SqlClient
  const token = yield* newToken
  yield* sql`INSERT INTO receipt_inboxes (company_id, token, created_at, updated_at) VALUES (${company}, ${token}, ${now}, ${now})
    ON CONFLICT (company_id) DO NOTHING`.pipe(Effect.orDie)
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM receipt_inboxes WHERE company_id = ${company}
    ${lock ? sql`FOR UPDATE` : sql``}`.pipe(Effect.orDie)
  return rows[0]!
})

export const update = Effect.fn("InboxStore.update")(function*(company: string, values: Record<string, unknown>) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`UPDATE receipt_inboxes SET ${sql.update(values)} WHERE company_id = ${company} RETURNING *`
    .pipe(Effect.orDie)
  return rows[0]!
})

/** Who holds a slug, now or as a name still forwarding; null when nobody. */
export const slugHolder = Effect.fn("InboxStore.slugHolder")(function*(slug: string, now: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ company_id: string }>`SELECT company_id FROM receipt_inboxes
    WHERE slug = ${slug} OR (previous_slug = ${slug} AND previous_slug_until > ${now})`.pipe(Effect.orDie)
  return rows[0]?.company_id ?? null
})

/** Every slug in use (held or forwarding), for the lookalike check. */
export const slugsInUse = Effect.fn("InboxStore.slugsInUse")(function*(now: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ slug: string; company_id: string }>`SELECT slug, company_id FROM receipt_inboxes WHERE slug IS NOT NULL
    UNION ALL SELECT previous_slug, company_id FROM receipt_inboxes WHERE previous_slug IS NOT NULL AND previous_slug_until > ${now}`
    .pipe(Effect.orDie)
  return rows
})

/** Releases forwarding names whose 30 days are over (first come, first served again). */
export const releaseExpired = Effect.fn("InboxStore.releaseExpired")(function*(now: string) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`UPDATE receipt_inboxes SET previous_slug = NULL, previous_slug_until = NULL
    WHERE previous_slug IS NOT NULL AND previous_slug_until <= ${now}`.pipe(Effect.orDie)
})

export const refusals = Effect.fn("InboxStore.refusals")(function*(company: string) {
  const sql = yield* SqlClient.SqlClient
  return yield* sql<Record<string, unknown>>`SELECT address, sender, refused_at FROM receipt_inbox_refusals
    WHERE company_id = ${company} ORDER BY id DESC LIMIT 50`.pipe(Effect.orDie)
})

export const presentMessage = (row: Record<string, unknown>): Receipts.Inbox.InboxMessage => ({
  id: Row.int(row.id),
  status: row.status as Receipts.Inbox.InboxMessage["status"],
  from: String(row.sender),
  to: String(row.recipient),
  subject: (row.subject as string | null) ?? null,
  message_id: (row.message_id as string | null) ?? null,
  authentication: { spf: String(row.spf), dkim: String(row.dkim), dmarc: String(row.dmarc) },
  reasons: Row.json<Array<string>>(row.reasons),
  attachments: Row.json<Receipts.Inbox.InboxMessage["attachments"]>(row.attachments),
  received_at: Row.iso(row.received_at),
  decided_at: row.decided_at === null || row.decided_at === undefined ? null : Row.iso(row.decided_at),
  decision_reason: (row.decision_reason as string | null) ?? null
})

export const loadMessage = Effect.fn("InboxStore.loadMessage")(function*(company: string, id: number) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM receipt_inbox_messages WHERE company_id = ${company} AND id = ${id} FOR UPDATE`
    .pipe(Effect.orDie)
  if (rows[0] === undefined) return yield* Effect.fail(ApiError.notFound("message"))
  return rows[0]
})

export const listMessages = Effect.fn("InboxStore.listMessages")(function*(company: string, status: string | undefined, after: number | null, limit: number) {
  const sql = yield* SqlClient.SqlClient
  return yield* sql<Record<string, unknown>>`SELECT * FROM receipt_inbox_messages WHERE company_id = ${company}
    ${status === undefined ? sql`` : sql`AND status = ${status}`}
    ${after === null ? sql`` : sql`AND id < ${after}`}
    ORDER BY id DESC LIMIT ${limit + 1}`.pipe(Effect.orDie)
})

export const updateMessage = Effect.fn("InboxStore.updateMessage")(function*(company: string, id: number, values: Record<string, unknown>) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`UPDATE receipt_inbox_messages SET ${sql.update(values)}
    WHERE company_id = ${company} AND id = ${id} RETURNING *`.pipe(Effect.orDie)
  return rows[0]!
})

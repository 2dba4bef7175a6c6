import { Clock, Effect } from "effect"
import { SqlClient } from "effect/sql"
import { Receipts } from "@ledger/api"
import * as Row from "../kernel/Row.ts"
import { BlobStore } from "../ports/BlobStore.ts"
import { Entropy } from "../ports/Entropy.ts"
import { InboxSettings, type ReceiptReader } from "../ports/ReceiptReader.ts"
import * as FileRules from "./FileRules.ts"
import * as InboxRules from "./InboxRules.ts"
import * as Reading from "./Reading.ts"

/**
 * Mail into the receipt inbox. The server's adapter (server/mail/InboundMail.ts) parses a
 * MIME message and calls `receive`; each recipient address is resolved to a company (its private
 * `r-<token>` address, its custom name, or a name still forwarding), and the message is decided
 * by InboxRules.decide in that company's own transaction: `processed` stores its files as
 * receipts, `review` holds them encrypted until a person releases or discards the message.
 */

const limits = Receipts.Shared.limits

export interface InboundAttachment {
  readonly fileName: string
  readonly bytes: Uint8Array
}

export interface InboundMessage {
  readonly recipients: ReadonlyArray<string>
  readonly from: string
  readonly subject: string | null
  readonly messageId: string | null
  readonly authentication: InboxRules.Authentication
  readonly sizeBytes: number
  readonly attachments: ReadonlyArray<InboundAttachment>
  /** The HTML body: a message with no attachment but an HTML body is an HTML receipt. */
  readonly html?: string | null | undefined
}

export type Delivery =
  | { readonly recipient: string; readonly outcome: "accepted"; readonly messageRecordId: number; readonly status: string }
  | { readonly recipient: string; readonly outcome: "refused" | "unknown"; readonly reason: string }

type Attachment = { file_name: string; media_type: string | null; size_bytes: number; receipt_id: number | null; refused: string | null; held?: boolean }

const heldKey = (messageId: number, index: number) => `inbox/${messageId}/${index}`

export const retireToken = Effect.fn("Intake.retireToken")(function*(company: string, token: string, now: string) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`INSERT INTO receipt_inbox_retired (token, company_id, retired_at) VALUES (${token}, ${company}, ${now})
    ON CONFLICT (token) DO NOTHING`.pipe(Effect.orDie)
})

export const allowSender = Effect.fn("Intake.allowSender")(function*(company: string, sender: string, now: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ allowed_senders: unknown }>`SELECT allowed_senders FROM receipt_inboxes WHERE company_id = ${company} FOR UPDATE`.pipe(Effect.orDie)
  const allowed = Row.json<Array<string>>(rows[0]?.allowed_senders ?? "[]")
  const address = sender.toLowerCase()
  if (allowed.includes(address) || allowed.length >= limits.allowedSendersMax) return
  yield* sql`UPDATE receipt_inboxes SET allowed_senders = ${JSON.stringify([...allowed, address])}, updated_at = ${now}
    WHERE company_id = ${company}`.pipe(Effect.orDie)
})

const attachmentsOf = (row: Record<string, unknown>) => Row.json<Array<Attachment>>(row.attachments)

/** Stores a released message's held files as receipts; answers the attachments with their receipt ids. */
export const releaseHeld = Effect.fn("Intake.releaseHeld")(function*(company: string, row: Record<string, unknown>, now: string) {
  const blobs = yield* Reading.requireStorage
  const id = Row.int(row.id)
  const out: Array<Attachment> = []
  for (const [index, attachment] of attachmentsOf(row).entries()) {
    const bytes = attachment.held === true ? yield* blobs.get({ companyId: company, key: heldKey(id, index) }) : null
    if (bytes === null) {
      out.push({ ...attachment, held: false })
      continue
    }
    const stored = yield* Reading.store({
      company, bytes, fileName: attachment.file_name, source: "email", note: null, inboxMessageId: id, now, html: attachment.media_type === "text/html"
    })
    yield* blobs.remove({ companyId: company, key: heldKey(id, index) })
    out.push({ ...attachment, held: false, receipt_id: Row.int(stored.row.id) })
  }
  return out
})

export const dropHeld = Effect.fn("Intake.dropHeld")(function*(company: string, row: Record<string, unknown>) {
  if (!(yield* BlobStore).configured) return
  const blobs = yield* Reading.requireStorage
  for (const [index, attachment] of attachmentsOf(row).entries()) {
    if (attachment.held === true) yield* blobs.remove({ companyId: company, key: heldKey(Row.int(row.id), index) })
  }
})

/** Messages left in review past `reviewDays` become `expired`, and their held files are deleted. */
export const expireReview = Effect.fn("Intake.expireReview")(function*(company: string, now: string) {
  const sql = yield* SqlClient.SqlClient
  const before = new Date(Date.parse(now) - limits.reviewDays * 86_400_000).toISOString()
  const rows = yield* sql<Record<string, unknown>>`UPDATE receipt_inbox_messages SET status = 'expired', decided_at = ${now}
    WHERE company_id = ${company} AND status = 'review' AND received_at < ${before} RETURNING *`.pipe(Effect.orDie)
  // Inside a delivery: an object store that cannot be reached fails the delivery (the SMTP listener answers 451, the sender retries).
  for (const row of rows) yield* Effect.orDie(dropHeld(company, row))
})

/** Whether a message in review has waited past `reviewDays` (it can no longer be released). */
export const reviewLapsed = (row: Record<string, unknown>, now: string): boolean =>
  Date.parse(now) - Date.parse(Row.iso(row.received_at)) > limits.reviewDays * 86_400_000

/** The company an address reaches, or why it reaches none. */
const resolve = Effect.fn("Intake.resolve")(function*(recipient: string, now: string) {
  const sql = yield* SqlClient.SqlClient
  const settings = yield* InboxSettings
  const address = InboxRules.addressOf(recipient) ?? ""
  const at = address.lastIndexOf("@")
  if (at < 0 || address.slice(at + 1) !== settings.domain) return { _tag: "unknown" as const }
  const local = address.slice(0, at)
  if (local.startsWith("r-")) {
    const token = local.slice(2)
    const live = yield* sql<Record<string, unknown>>`SELECT * FROM receipt_inboxes WHERE token = ${token}`.pipe(Effect.orDie)
    if (live[0] !== undefined) return { _tag: "inbox" as const, row: live[0] }
    const retired = yield* sql<{ company_id: string }>`SELECT company_id FROM receipt_inbox_retired WHERE token = ${token}`.pipe(Effect.orDie)
    return retired[0] === undefined ? { _tag: "unknown" as const } : { _tag: "retired" as const, company: retired[0].company_id, address }
  }
  const named = yield* sql<Record<string, unknown>>`SELECT * FROM receipt_inboxes
    WHERE slug = ${local} OR (previous_slug = ${local} AND previous_slug_until > ${now}) ORDER BY (slug = ${local}) DESC LIMIT 1`.pipe(Effect.orDie)
  return named[0] === undefined ? { _tag: "unknown" as const } : { _tag: "inbox" as const, row: named[0] }
})

export type Needs = SqlClient.SqlClient | BlobStore | ReceiptReader | InboxSettings

const recordRefusal = (company: string, address: string, sender: string, now: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql`INSERT INTO receipt_inbox_refusals (company_id, address, sender, refused_at)
      VALUES (${company}, ${address}, ${(InboxRules.addressOf(sender) ?? sender).slice(0, 320)}, ${now})`.pipe(Effect.orDie)
  })

/**
 * Whether an SMTP listener takes a recipient (at RCPT, before the message): `accepted` for a live
 * inbox address, `refused` for a rotated one (recorded at once, as `refused_after_rotation`
 * lists it), `unknown` otherwise, `over_quota` past the day's messages and `storage_unavailable`
 * where receipts cannot be stored (both deferred). Nothing else is accepted, so the listener relays
 * for nobody.
 */
export const screen = (
  recipient: string,
  sender: string
): Effect.Effect<"accepted" | "refused" | "unknown" | "over_quota" | "storage_unavailable", never, Needs> =>
  Effect.gen(function*() {
    const now = new Date(yield* Clock.currentTimeMillis).toISOString()
    const target = yield* resolve(recipient, now)
    if (target._tag === "retired") yield* recordRefusal(target.company, target.address, sender, now)
    if (target._tag !== "inbox") return target._tag === "retired" ? "refused" as const : "unknown" as const
    // A deployment without receipt storage (no master key) could keep the message but not its
    // files: the sender is asked to retry, and nothing is lost while the operator sets it up.
    if (!(yield* BlobStore).configured) return "storage_unavailable" as const
    return (yield* overDailyQuota(String(target.row.company_id), now)) ? "over_quota" as const : "accepted" as const
  })

/**
 * Whether the company's inbox has taken its day's messages (`limits.inboxMessagesPerDayMax` in
 * the last 24 hours): mail past it is deferred at RCPT, before any byte of it is read.
 */
export const overDailyQuota = Effect.fn("Intake.overDailyQuota")(function*(company: string, now: string) {
  const sql = yield* SqlClient.SqlClient
  const since = new Date(Date.parse(now) - 86_400_000).toISOString()
  // Counting stops at the quota: the answer never costs more than that many index entries.
  const rows = yield* sql<{ count: unknown }>`SELECT count(*) AS count FROM (SELECT 1 FROM receipt_inbox_messages
    WHERE company_id = ${company} AND received_at > ${since} LIMIT ${limits.inboxMessagesPerDayMax}) AS recent`.pipe(Effect.orDie)
  return Number(rows[0]?.count ?? 0) >= limits.inboxMessagesPerDayMax
})

/** One company's copy of a message, decided and stored. */
const deliver = (inbox: Record<string, unknown>, recipient: string, message: InboundMessage, now: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const company = String(inbox.company_id)
    const blobs = yield* BlobStore
    yield* expireReview(company, now)
    const sender = InboxRules.addressOf(message.from) ?? message.from.toLowerCase()
    const duplicate = message.messageId === null ? [] : yield* sql`SELECT id FROM receipt_inbox_messages
      WHERE company_id = ${company} AND message_id = ${message.messageId} AND status <> 'duplicate'`.pipe(Effect.orDie)
    const attachments: Array<Attachment & { bytes: Uint8Array; ok: boolean }> = []
    const html = message.attachments.length === 0 && (message.html ?? "").trim() !== "" ? new TextEncoder().encode(message.html!) : null
    if (html !== null) {
      const ok = html.byteLength <= limits.fileBytesMax
      attachments.push({ file_name: `${(message.subject ?? "message").slice(0, 100)}.html`, media_type: "text/html", size_bytes: html.byteLength, receipt_id: null, refused: ok ? null : "too_large", bytes: html, ok })
    }
    for (const file of message.attachments.slice(0, limits.attachmentsPerMessageMax + 1)) {
      const mediaType = yield* FileRules.sniff(file.bytes)
      const refused = mediaType === null ? "not_a_receipt_file" : file.bytes.byteLength > limits.fileBytesMax ? "too_large" : null
      attachments.push({ file_name: file.fileName.slice(0, limits.fileNameLengthMax), media_type: mediaType, size_bytes: file.bytes.byteLength, receipt_id: null, refused, bytes: file.bytes, ok: refused === null })
    }
    const decision = InboxRules.decide({
      enabled: inbox.enabled === true && blobs.configured,
      duplicate: duplicate.length > 0,
      sizeBytes: message.sizeBytes,
      attachmentCount: Math.max(message.attachments.length, attachments.length),
      acceptableCount: attachments.filter((file) => file.ok).length,
      allowed: InboxRules.senderAllowed(sender, Row.json<Array<string>>(inbox.allowed_senders)),
      authenticated: InboxRules.authenticated(message.authentication)
    }, { messageBytesMax: limits.messageBytesMax, attachmentsPerMessageMax: limits.attachmentsPerMessageMax })
    const rows = yield* sql<{ id: unknown }>`INSERT INTO receipt_inbox_messages ${sql.insert({
      company_id: company, status: decision.status, sender, recipient: recipient.toLowerCase(), subject: message.subject?.slice(0, 500) ?? null,
      message_id: message.messageId, ...message.authentication,
      reasons: JSON.stringify(decision.reasons), received_at: now
    })} RETURNING id`.pipe(Effect.orDie)
    const id = Row.int(rows[0]!.id)
    const kept: Array<Attachment> = []
    for (const [index, file] of attachments.entries()) {
      const { bytes, ok, ...record } = file
      if (ok && decision.status === "processed") {
        const stored = yield* Effect.orDie(Reading.store({
          company, bytes, fileName: file.file_name, source: "email", note: null, inboxMessageId: id, now, html: file.media_type === "text/html"
        }))
        kept.push({ ...record, receipt_id: Row.int(stored.row.id) })
      } else if (ok && decision.status === "review") {
        yield* Effect.orDie(blobs.put({ companyId: company, key: heldKey(id, index) }, bytes))
        kept.push({ ...record, held: true })
      } else kept.push(record)
    }
    yield* sql`UPDATE receipt_inbox_messages SET attachments = ${JSON.stringify(kept)} WHERE company_id = ${company} AND id = ${id}`.pipe(Effect.orDie)
    return { recipient, outcome: "accepted" as const, messageRecordId: id, status: decision.status }
  }).pipe(Effect.provide(Entropy.layer))

/** Receives one inbound message for each of its recipients; never fails for a recipient's sake. */
export const receive = (message: InboundMessage): Effect.Effect<ReadonlyArray<Delivery>, never, Needs> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const now = new Date(yield* Clock.currentTimeMillis).toISOString()
    const out: Array<Delivery> = []
    for (const recipient of message.recipients.slice(0, 20)) {
      const target = yield* resolve(recipient, now)
      if (target._tag === "unknown") out.push({ recipient, outcome: "unknown", reason: "no_such_inbox" })
      else if (target._tag === "retired") {
        yield* recordRefusal(target.company, target.address, message.from, now)
        out.push({ recipient, outcome: "refused", reason: "address_rotated" })
      } else out.push(yield* sql.withTransaction(deliver(target.row, recipient, message, now)).pipe(Effect.orDie))
    }
    return out
  })

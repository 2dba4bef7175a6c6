import { Clock, Effect, Result } from "effect"
import { SqlClient } from "effect/sql"
import { Limits } from "@ledger/api"
import * as Row from "../../kernel/Row.ts"
import * as DocumentPdf from "../documents/DocumentPdf.ts"
import * as DocumentStore from "../documents/DocumentStore.ts"
import * as EstimateStore from "../estimates/EstimateStore.ts"
import { Mail, MailError, type OutgoingMessage } from "../../ports/Mail.ts"

/**
 * Sends one queued email through the mail port (run by the `email.send` job). The row moves
 * queued -> sending -> sent, or to failed (permanent refusal, or attempts spent), or to
 * suppressed (the address bounced before); a transient failure puts it back to queued and the
 * job is tried again later. A crash while `sending` leaves the job's lease to run out, and the
 * retry sends again: delivery is at least once, and the Message-ID header lets receivers dedupe.
 */

/** The job that delivers one queued email (`payload.email_id`). */
export const jobKind = "email.send"
export type Delivery =
  | { readonly _tag: "Sent"; readonly messageId: string }
  | { readonly _tag: "Skipped"; readonly status: string }
  | { readonly _tag: "Failed"; readonly error: string }
  | { readonly _tag: "Retry"; readonly error: string }

const nowIso = Effect.map(Clock.currentTimeMillis, (milliseconds) => new Date(milliseconds).toISOString())

const attachmentOf = Effect.fn("EmailDelivery.attachment")(function*(company: string, row: Record<string, unknown>, now: string) {
  const today = now.slice(0, 10)
  if (row.document_id !== null) {
    const document = yield* Effect.orDie(DocumentStore.load(company, Row.int(row.document_id), today))
    return yield* DocumentPdf.forDocument(company, document, now)
  }
  const estimate = EstimateStore.toWire(yield* Effect.orDie(EstimateStore.loadRow(company, Row.int(row.estimate_id))), today)
  return yield* DocumentPdf.forEstimate(company, estimate, now)
})

/** A failed attempt: back to the queue, or failed for good (a permanent refusal, or attempts spent); a bounce suppresses the address. */
const requeue = Effect.fn("EmailDelivery.requeue")(function*(company: string, emailId: number, row: Record<string, unknown>, error: MailError) {
  const sql = yield* SqlClient.SqlClient
  const attempts = Row.int(row.attempts)
  const later = yield* nowIso
  const giveUp = error.permanent || attempts >= Limits.emailDeliveryAttemptsMax
  yield* sql.withTransaction(Effect.gen(function*() {
    yield* sql`UPDATE emails SET status = ${giveUp ? "failed" : "queued"}, last_error = ${error.message.slice(0, 2000)},
      updated_at = ${later} WHERE company_id = ${company} AND id = ${emailId}`
    if (error.bounce) {
      yield* sql`INSERT INTO email_suppressions ${sql.insert({
        company_id: company,
        address: String(row.to_address).toLowerCase(),
        reason: `bounce: ${error.message}`.slice(0, 500),
        email_id: emailId,
        created_at: later
      })} ON CONFLICT DO NOTHING`
    }
  })).pipe(Effect.orDie)
  return (giveUp ? { _tag: "Failed", error: error.message } : { _tag: "Retry", error: error.message }) satisfies Delivery
})

export const deliver = Effect.fn("EmailDelivery.deliver")(function*(company: string, emailId: number) {
  const sql = yield* SqlClient.SqlClient
  const mail = yield* Mail
  const now = yield* nowIso
  const claimed = yield* sql.withTransaction(Effect.gen(function*() {
    const rows = yield* sql<Record<string, unknown>>`SELECT * FROM emails WHERE company_id = ${company} AND id = ${emailId} FOR UPDATE`
    const row = rows[0]
    if (row === undefined || !["queued", "sending"].includes(String(row.status))) {
      return { _tag: "Skipped" as const, status: row === undefined ? "missing" : String(row.status) }
    }
    const suppressed = yield* sql`SELECT 1 FROM email_suppressions WHERE company_id = ${company} AND address = ${String(row.to_address).toLowerCase()}`
    if (suppressed.length > 0) {
      yield* sql`UPDATE emails SET status = 'suppressed', updated_at = ${now} WHERE company_id = ${company} AND id = ${emailId}`
      return { _tag: "Skipped" as const, status: "suppressed" }
    }
    const updated = yield* sql<Record<string, unknown>>`UPDATE emails SET status = 'sending', attempts = attempts + 1, updated_at = ${now}
      WHERE company_id = ${company} AND id = ${emailId} RETURNING *`
    return { _tag: "Claimed" as const, row: updated[0]! }
  })).pipe(Effect.orDie)
  if (claimed._tag === "Skipped") return claimed satisfies Delivery

  const row = claimed.row
  const settings = (yield* sql<Record<string, unknown>>`SELECT * FROM email_settings WHERE company_id = ${company}`.pipe(Effect.orDie))[0]
  const companies = yield* sql<{ name: string }>`SELECT name FROM companies WHERE company_id = ${company}`.pipe(Effect.orDie)
  // A PDF the heavy-work pool could not render now (ADR 2320) fails this attempt as a temporary
  // mail failure would: the email goes back to the queue and is tried again.
  const attachment = yield* Effect.result(attachmentOf(company, row, now).pipe(
    Effect.mapError((error) => new MailError({ message: `The PDF could not be rendered: ${error.message}`, permanent: false, bounce: false }))
  ))
  if (Result.isFailure(attachment)) return yield* requeue(company, emailId, row, attachment.failure)
  const message: OutgoingMessage = {
    from: { name: (settings?.display_name as string | null | undefined) ?? companies[0]?.name ?? null, address: null },
    replyTo: (settings?.reply_to as string | null | undefined) ?? null,
    to: { name: (row.to_name as string | null) ?? null, address: String(row.to_address) },
    cc: Row.json<Array<string>>(row.cc),
    subject: String(row.subject),
    text: String(row.message ?? ""),
    attachments: [{ filename: attachment.success.filename, contentType: "application/pdf", content: attachment.success.bytes }],
    headers: { "X-Ledger-Email-Id": String(emailId) }
  }
  const sent = yield* Effect.result(mail.send(message))
  if (Result.isFailure(sent)) return yield* requeue(company, emailId, row, sent.failure)
  const later = yield* nowIso
  yield* sql`UPDATE emails SET status = 'sent', sent_at = ${later}, provider_message_id = ${sent.success.messageId},
    last_error = NULL, updated_at = ${later} WHERE company_id = ${company} AND id = ${emailId}`.pipe(Effect.orDie)
  return { _tag: "Sent", messageId: sent.success.messageId } satisfies Delivery
})

/**
 * The delivery job itself failed for good (not an SMTP refusal: a fault while preparing the
 * message): the email must not stay `queued` or `sending` forever, so it is `failed` with the
 * reason, and an admin may retry it.
 */
export const giveUp = Effect.fn("EmailDelivery.giveUp")(function*(company: string, emailId: number, error: string) {
  const sql = yield* SqlClient.SqlClient
  const now = yield* nowIso
  yield* sql`UPDATE emails SET status = 'failed', last_error = ${error.slice(0, 2000)}, updated_at = ${now}
    WHERE company_id = ${company} AND id = ${emailId} AND status IN ('queued', 'sending')`.pipe(Effect.orDie)
})

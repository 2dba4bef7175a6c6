import { Clock, Effect } from "effect"
import { SqlClient } from "effect/sql"
import { Mail } from "../ports/Mail.ts"
import type { JobKind, JobOutcome } from "../pipeline/Area.ts"
import * as Row from "../kernel/Row.ts"
import * as Jobs from "../store/Jobs.ts"

/**
 * Sign-in mail: codes, address verification and security notices. Queued in the change's
 * transaction (`auth_mails` and a job), delivered by the workers through the mail port; the body
 * (which may hold a code) is erased once sent, and a code is useless after 15 minutes anyway.
 */

export const jobKind = "auth.mail"

export interface Queued {
  readonly companyId: string | null
  readonly kind: "email_code" | "security_notice" | "verify_email"
  readonly to: string
  readonly subject: string
  readonly body: string
}

export const queue = Effect.fn("AuthMail.queue")(function*(mail: Queued, now: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ id: unknown }>`INSERT INTO auth_mails ${sql.insert({
    company_id: mail.companyId,
    kind: mail.kind,
    to_address: mail.to,
    subject: mail.subject,
    body: mail.body,
    created_at: now
  })} RETURNING id`.pipe(Effect.orDie)
  const id = Row.int(rows[0]!.id)
  yield* Jobs.enqueue({ kind: jobKind, companyId: mail.companyId, payload: { mail_id: id }, uniqueKey: `${jobKind}:${id}` })
})

/** A security notice to a person's address, when they have one. */
export const notice = (companyId: string | null, to: string | null, what: string, now: string) =>
  to === null ? Effect.void : queue({
    companyId,
    kind: "security_notice",
    to,
    subject: `Ledger security notice: ${what}`,
    body: `${what} on your Ledger account at ${now} (UTC).\n\nIf this was not you, sign in and revoke your other sessions, then change your sign-in settings.`
  }, now)

const deliver = Effect.fn("AuthMail.deliver")(function*(id: number) {
  const sql = yield* SqlClient.SqlClient
  const mail = yield* Mail
  const row = (yield* sql<Record<string, unknown>>`SELECT * FROM auth_mails WHERE id = ${id}`.pipe(Effect.orDie))[0]
  if (row === undefined || row.status !== "queued" || row.body === null) return { _tag: "Done" } as JobOutcome
  const sent = yield* Effect.result(mail.send({
    from: { name: "Ledger", address: null },
    replyTo: null,
    to: { name: null, address: String(row.to_address) },
    cc: [],
    subject: String(row.subject),
    text: String(row.body),
    attachments: [],
    headers: { "X-Ledger-Mail": `auth-${id}` }
  }))
  const now = new Date(yield* Clock.currentTimeMillis).toISOString()
  if (sent._tag === "Failure") {
    if (!sent.failure.permanent) return { _tag: "Retry", error: sent.failure.message } as JobOutcome
    yield* sql`UPDATE auth_mails SET status = 'failed', body = NULL WHERE id = ${id}`.pipe(Effect.orDie)
    return { _tag: "Done" } as JobOutcome
  }
  yield* sql`UPDATE auth_mails SET status = 'sent', sent_at = ${now}, body = NULL WHERE id = ${id}`.pipe(Effect.orDie)
  return { _tag: "Done" } as JobOutcome
})

export const job: JobKind = {
  run: (job) => deliver(Number(job.payload.mail_id)),
  gaveUp: (job) => Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql`UPDATE auth_mails SET status = 'failed', body = NULL WHERE id = ${Number(job.payload.mail_id)}`.pipe(Effect.orDie)
  })
}

import { Clock, Effect } from "effect"
import { SqlClient } from "effect/sql"
import { Mail } from "../../ports/Mail.ts"
import type { JobKind, JobOutcome } from "../../pipeline/Area.ts"
import * as Row from "../../kernel/Row.ts"
import { RequestContext } from "../../kernel/RequestContext.ts"
import * as Jobs from "../../store/Jobs.ts"
import { auditPublic, personActor } from "./Guard.ts"
import * as SessionStore from "./SessionStore.ts"
import { parsePerson } from "./SignInRules.ts"

/**
 * Sign-in mail: codes, address verification and security notices. Queued in the change's
 * transaction (`auth_mails` and a job), delivered by the workers through the mail port; the body
 * (which may hold a code) is erased once sent, and a code is useless after 15 minutes anyway.
 */

export const jobKind = "auth.mail"

export interface Queued {
  readonly companyId: string | null
  /**
   * Whom an email code is for (their person key); null for an address that names nobody, whose
   * row is written `void` (no body, never sent) so the request does the same work either way.
   */
  readonly person?: string | null
  readonly kind: "email_code" | "security_notice" | "verify_email"
  readonly to: string
  readonly subject: string
  readonly body: string
}

export const queue = Effect.fn("AuthMail.queue")(function*(mail: Queued, now: string) {
  const sql = yield* SqlClient.SqlClient
  const unknown = mail.kind === "email_code" && (mail.person === undefined || mail.person === null)
  const rows = yield* sql<{ id: unknown }>`INSERT INTO auth_mails ${sql.insert({
    company_id: mail.companyId,
    person: mail.person ?? null,
    kind: mail.kind,
    to_address: mail.to,
    subject: unknown ? "" : mail.subject,
    body: unknown ? null : mail.body,
    status: unknown ? "void" : "queued",
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

/**
 * The link request of a known person, in their log: written by the worker, not the request, so
 * the request does no more for a known address than for an unknown one. Recorded at the
 * request's time, once (a retried delivery finds it there).
 */
const auditRequest = Effect.fn("AuthMail.auditRequest")(function*(key: string, requestedAt: string) {
  const sql = yield* SqlClient.SqlClient
  const person = parsePerson(key)
  if (person === null) return
  const info = yield* SessionStore.loadPerson(person)
  if (info === null) return
  const already = person.type === "user"
    ? yield* sql`SELECT 1 FROM audit_events WHERE company_id = ${person.companyId} AND action = 'requestEmailLink'
      AND occurred_at = ${requestedAt} AND principal_type = 'user' AND principal_id = ${String(person.id)}`.pipe(Effect.orDie)
    : yield* sql`SELECT 1 FROM firm_audit_events WHERE firm_id = ${person.firmId} AND action = 'requestEmailLink'
      AND occurred_at = ${requestedAt} AND principal_type = 'firm_member' AND principal_id = ${String(person.id)}`.pipe(Effect.orDie)
  if (already.length > 0) return
  const actor = personActor(person, info.name)
  yield* auditPublic(person, info.name, { ok: true, status: 202 }).pipe(Effect.provideService(RequestContext, {
    actor,
    companyId: actor.companyId,
    operationId: "requestEmailLink",
    via: "http",
    now: requestedAt,
    today: requestedAt.slice(0, 10),
    agentModel: null,
    agentRunId: null,
    idempotencyKey: null
  }))
})

const deliver = Effect.fn("AuthMail.deliver")(function*(id: number) {
  const sql = yield* SqlClient.SqlClient
  const mail = yield* Mail
  const row = (yield* sql<Record<string, unknown>>`SELECT * FROM auth_mails WHERE id = ${id}`.pipe(Effect.orDie))[0]
  if (row === undefined || row.status !== "queued" || row.body === null) return { _tag: "Done" } as JobOutcome
  if (row.kind === "email_code" && row.person !== null) yield* auditRequest(String(row.person), Row.iso(row.created_at))
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

import { Effect, Result } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Scope, Sales } from "@ledger/api"
import { reference } from "../../kernel/Actor.ts"
import { Base64Url } from "effect/encoding"
import * as Handler from "../../kernel/Handler.ts"
import * as Pagination from "../../kernel/Pagination.ts"
import { RequestContext } from "../../kernel/RequestContext.ts"
import { requireCompanyId } from "../../kernel/CompanyContext.ts"
import * as Row from "../../kernel/Row.ts"
import * as EmailRules from "./EmailRules.ts"
import * as EmailStore from "./EmailStore.ts"
import * as DocumentResolution from "../documents/DocumentResolution.ts"
import * as DocumentStore from "../documents/DocumentStore.ts"
import * as EstimateStore from "../estimates/EstimateStore.ts"
import type { PostingKind } from "../documents/DocumentPosting.ts"
import { money } from "../common/Pdf.ts"

interface Subject {
  readonly kind: "document" | "estimate"
  readonly id: number
  readonly title: string
  readonly number: string
  readonly contactId: number
  readonly amountCents: number
  readonly void: boolean
}

/** Queues (or holds for approval) an email of a document or estimate with its PDF. */
const send = (subject: Subject, body: Sales.Email.EmailBody) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const request = yield* RequestContext
    const company = yield* requireCompanyId
    if (subject.void) {
      return yield* Effect.fail(ApiError.validationFailed(`A void ${subject.title.toLowerCase()} is not sent.`, [{ path: ["path", "id"], message: "Void" }]))
    }
    const contacts = yield* sql<{ name: string; email: string | null }>`SELECT name, email FROM contacts
      WHERE company_id = ${company} AND id = ${subject.contactId}`.pipe(Effect.orDie)
    const contact = contacts[0]!
    const to = body.to ?? contact.email
    if (to === null) {
      return yield* Effect.fail(ApiError.validationFailed("The contact has no email on file: give `to`.", [{ path: ["body", "to"], message: "Required" }]))
    }
    const cc = body.cc ?? []
    const policy = EmailRules.decide({
      isPerson: request.actor.isPerson,
      postingThresholdCents: request.actor.postingThresholdCents,
      to,
      cc,
      addressOnFile: contact.email,
      amountCents: subject.amountCents
    })
    const settings = yield* sql<{ display_name: string | null }>`SELECT display_name FROM email_settings WHERE company_id = ${company}`
      .pipe(Effect.orDie)
    const companies = yield* sql<{ name: string }>`SELECT name FROM companies WHERE company_id = ${company}`.pipe(Effect.orDie)
    const from = settings[0]?.display_name ?? companies[0]?.name ?? "Ledger"
    const status = policy.verdict === "send" ? "queued" : "pending_approval"
    const row = {
      company_id: company,
      kind: subject.kind,
      status,
      document_id: subject.kind === "document" ? subject.id : null,
      estimate_id: subject.kind === "estimate" ? subject.id : null,
      to_address: to,
      to_name: body.to_name ?? (body.to === undefined ? contact.name : null),
      cc: JSON.stringify(cc),
      subject: `${subject.title} ${subject.number} from ${from}`,
      message: body.message ?? `Please find ${subject.title.toLowerCase()} ${subject.number} for ${money(subject.amountCents)} attached.`,
      attachment_name: `${subject.number}.pdf`,
      policy_verdict: policy.verdict,
      policy_reasons: JSON.stringify(policy.reasons),
      requested_by: reference(request.actor),
      created_at: request.now,
      updated_at: request.now
    }
    if (body.dry_run === true) {
      return { status: 200, body: { dry_run: true, status, email: EmailStore.toWire({ ...row, id: 0, attempts: 0 }) } }
    }
    const rows = yield* sql<Record<string, unknown>>`INSERT INTO emails ${sql.insert(row)} RETURNING *`.pipe(Effect.orDie)
    const email = EmailStore.toWire(rows[0]!)
    if (status === "queued") yield* EmailStore.enqueueDelivery(company, email.id)
    return { body: email, audit: { targetType: "email", targetId: email.id, details: { status, reasons: policy.reasons } } }
  })

/** Moves one email between outbox states, checking who may. */
const decide = (
  id: number,
  allowedFrom: ReadonlyArray<Sales.Email.EmailStatus>,
  to: Sales.Email.EmailStatus,
  reason: string | null,
  check: (row: Record<string, unknown>) => Effect.Effect<void, ApiError.LedgerError, RequestContext>
) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const request = yield* RequestContext
    const company = yield* requireCompanyId
    const row = yield* EmailStore.loadRow(company, id, true)
    const from = String(row.status) as Sales.Email.EmailStatus
    if (!allowedFrom.includes(from)) {
      return yield* Effect.fail(ApiError.fail("invalid_transition", `An email that is ${from} cannot become ${to}.`, { from, to }))
    }
    yield* check(row)
    const rows = yield* sql<Record<string, unknown>>`UPDATE emails SET status = ${to}, decided_by = ${reference(request.actor)},
      decision_reason = ${reason}, updated_at = ${request.now}
      ${to === "queued" && from === "failed" ? sql`, attempts = 0, last_error = NULL` : sql``}
      WHERE company_id = ${company} AND id = ${id} RETURNING *`.pipe(Effect.orDie)
    if (to === "queued") yield* EmailStore.enqueueDelivery(company, id)
    return { body: EmailStore.toWire(rows[0]!), audit: { targetType: "email", targetId: id, reason, details: { from, to } } }
  })

/**
 * Deciding a waiting email needs the approve scope (checked by the operation) and never the
 * requester (spec 3.8, 4.10). It is not people-only: the spec marks those where it means them, so
 * another approve-scoped agent may decide (DECISIONS "People-only and signed-in operations").
 */
const notRequester = (row: Record<string, unknown>) =>
  Effect.gen(function*() {
    const request = yield* RequestContext
    if (String(row.requested_by) === reference(request.actor)) {
      return yield* Effect.fail(ApiError.fail("self_approval_refused", "An email is never approved by the one who asked to send it."))
    }
  })

const encodeCursor = (address: string) => Base64Url.encodePadded(address)
const decodeCursor = (cursor: string): string | null => {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Result.getOrThrow(Base64Url.decode(cursor)))
  } catch {
    return null
  }
}

const settingsOf = (row: Record<string, unknown> | undefined): typeof Sales.Email.EmailSettings.Type => ({
  reply_to: (row?.reply_to as string | null | undefined) ?? null,
  display_name: (row?.display_name as string | null | undefined) ?? null,
  security_notices_to: (row?.security_notices_to as string | null | undefined) ?? null,
  reminders_enabled: row?.reminders_enabled === true,
  reminder_days: row === undefined ? [] : Row.json<Array<number>>(row.reminder_days),
  updated_at: row === undefined ? null : Row.isoOrNull(row.updated_at)
})

export const handlers = [
  Handler.make(Sales.Email.emailDocument, ({ path, body }) =>
    Effect.gen(function*() {
      const request = yield* RequestContext
      const company = yield* requireCompanyId
      const document = yield* DocumentStore.load(company, path.id, request.today)
      return yield* send({
        kind: "document",
        id: document.id,
        title: DocumentResolution.titles[document.kind as PostingKind],
        number: document.number,
        contactId: document.contact_id,
        amountCents: document.total_cents,
        void: document.status === "void"
      }, body)
    })),

  Handler.make(Sales.Email.emailEstimate, ({ path, body }) =>
    Effect.gen(function*() {
      const request = yield* RequestContext
      const company = yield* requireCompanyId
      const estimate = EstimateStore.toWire(yield* EstimateStore.loadRow(company, path.id), request.today)
      return yield* send({
        kind: "estimate",
        id: estimate.id,
        title: "Estimate",
        number: estimate.number,
        contactId: estimate.contact_id,
        amountCents: estimate.total_cents,
        void: estimate.status === "void"
      }, body)
    })),

  Handler.make(Sales.Email.listOutbox, ({ query }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const company = yield* requireCompanyId
      const select = (after: number | null, limitPlusOne: number) =>
        sql<Record<string, unknown>>`SELECT * FROM emails WHERE company_id = ${company}
        ${query.status === undefined ? sql`` : sql`AND status = ${query.status}`}
        ${after === null ? sql`` : sql`AND id < ${after}`} ORDER BY id DESC LIMIT ${limitPlusOne}`.pipe(Effect.orDie)
      return { body: yield* Pagination.listPage(query, select, (row) => Row.int(row.id), EmailStore.toWire) }
    })),

  Handler.make(Sales.Email.getOutboxEmail, ({ path }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      return { body: EmailStore.toWire(yield* EmailStore.loadRow(company, path.id)) }
    })),

  Handler.make(Sales.Email.approveEmail, ({ path, body }) => decide(path.id, ["pending_approval"], "queued", body.reason ?? null, notRequester)),
  Handler.make(Sales.Email.rejectEmail, ({ path, body }) => decide(path.id, ["pending_approval"], "rejected", body.reason, notRequester)),
  Handler.make(Sales.Email.cancelEmail, ({ path, body }) =>
    decide(path.id, ["pending_approval", "queued", "failed"], "cancelled", body.reason ?? null, (row) =>
      Effect.gen(function*() {
        const request = yield* RequestContext
        if (String(row.requested_by) !== reference(request.actor) && !Scope.satisfies(request.actor.scopes, "admin")) {
          return yield* Effect.fail(ApiError.fail("insufficient_scope", "Only the requester or an admin cancels an email."))
        }
      }))),
  Handler.make(Sales.Email.retryEmail, ({ path, body }) => decide(path.id, ["failed"], "queued", body.reason ?? null, () => Effect.void)),

  Handler.make(Sales.Email.getEmailSettings, () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const company = yield* requireCompanyId
      const rows = yield* sql<Record<string, unknown>>`SELECT * FROM email_settings WHERE company_id = ${company}`.pipe(Effect.orDie)
      return { body: settingsOf(rows[0]) }
    })),

  Handler.make(Sales.Email.setEmailSettings, ({ body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const company = yield* requireCompanyId
      const current = settingsOf((yield* sql<Record<string, unknown>>`SELECT * FROM email_settings WHERE company_id = ${company}`.pipe(Effect.orDie))[0])
      const next = {
        reply_to: body.reply_to === undefined ? current.reply_to : body.reply_to,
        display_name: body.display_name === undefined ? current.display_name : body.display_name,
        security_notices_to: body.security_notices_to === undefined ? current.security_notices_to : body.security_notices_to,
        reminders_enabled: body.reminders_enabled ?? current.reminders_enabled,
        reminder_days: JSON.stringify(Array.from(new Set<number>(body.reminder_days ?? current.reminder_days)).sort((a, b) => a - b)),
        updated_at: request.now
      }
      const rows = yield* sql<Record<string, unknown>>`INSERT INTO email_settings ${sql.insert({ company_id: company, ...next })}
        ON CONFLICT (company_id) DO UPDATE SET reply_to = EXCLUDED.reply_to, display_name = EXCLUDED.display_name,
          security_notices_to = EXCLUDED.security_notices_to, reminders_enabled = EXCLUDED.reminders_enabled,
          reminder_days = EXCLUDED.reminder_days, updated_at = EXCLUDED.updated_at
        RETURNING *`.pipe(Effect.orDie)
      return { body: settingsOf(rows[0]), audit: { targetType: "email_settings", details: { changed: Object.keys(body) } } }
    })),

  Handler.make(Sales.Email.listSuppressions, ({ query }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const company = yield* requireCompanyId
      const limit = Pagination.limitOf(query)
      // Suppressions are keyed by address: pages go in address order, the cursor is the last address.
      const after = query.cursor === undefined ? null : decodeCursor(query.cursor)
      const rows = yield* sql<Record<string, unknown>>`SELECT * FROM email_suppressions WHERE company_id = ${company}
        ${after === null ? sql`` : sql`AND address > ${after}`} ORDER BY address LIMIT ${limit + 1}`.pipe(Effect.orDie)
      const shown = rows.slice(0, limit)
      return {
        body: {
          data: shown.map((row) => ({
            address: String(row.address),
            reason: String(row.reason),
            email_id: Row.intOrNull(row.email_id),
            created_at: Row.iso(row.created_at)
          })),
          has_more: rows.length > limit,
          next_cursor: rows.length > limit ? encodeCursor(String(shown[shown.length - 1]!.address)) : null
        }
      }
    }))
]

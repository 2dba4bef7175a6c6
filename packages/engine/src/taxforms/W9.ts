import { Clock, Effect } from "effect"
import { Base64Url } from "effect/encoding"
import { SqlClient } from "effect/sql"
import { ApiError, TaxForms } from "@ledger/api"
import { reference } from "../kernel/Actor.ts"
import { requireCompanyId } from "../kernel/CompanyContext.ts"
import * as Handler from "../kernel/Handler.ts"
import * as Pagination from "../kernel/Pagination.ts"
import * as Row from "../kernel/Row.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Secret from "../kernel/Secret.ts"
import type { JobKind, JobOutcome } from "../pipeline/Area.ts"
import { Entropy } from "../ports/Entropy.ts"
import { Mail } from "../ports/Mail.ts"
import { RelyingParty } from "../ports/RelyingParty.ts"
import * as Jobs from "../store/Jobs.ts"
import * as BooksStore from "./BooksStore.ts"
import * as FormsStore from "./FormsStore.ts"
import * as TinRules from "./TinRules.ts"

/**
 * W-9 requests: a single-use secure link emailed to the vendor (the `w9.request_email` job sends
 * it through the mail port and then wipes the link from the job), the public form submission
 * that becomes the vendor's tax profile (ADR 1310), and cancelling. Only the link's SHA-256 is
 * stored with the request; an expired request's link answers 409 like a used one.
 *
 * The mailed link is absolute, on the web app's origin (LEDGER_APP_URL, default the server's
 * LEDGER_BASE_URL, provided as the RelyingParty port): `<origin>/w9/<token>`, the page that posts
 * the form to `POST /v1/w9/{token}`. A deployment that knows no address cannot mail a working
 * link and refuses the request (503, as passkeys do) rather than mail a relative one.
 */

/** The link mailed to the vendor: the W-9 page on the web app's origin. */
export const linkOf = (origin: string, token: string): string => `${origin.replace(/\/+$/u, "")}/w9/${token}`

export const jobKind = "w9.request_email"

const request = (row: Record<string, unknown>, now: string): TaxForms.W9.W9Request => {
  const expired = row.status === "sent" && Row.iso(row.expires_at) <= now
  return {
    id: Row.int(row.id),
    contact_id: Row.int(row.contact_id),
    email: String(row.email),
    status: expired ? "expired" : row.status as "sent",
    message: (row.message as string | null) ?? null,
    expires_at: Row.iso(row.expires_at),
    completed_at: Row.isoOrNull(row.completed_at),
    cancel_reason: (row.cancel_reason as string | null) ?? null,
    created_by: String(row.created_by),
    created_at: Row.iso(row.created_at)
  }
}

const companyName = Effect.fn("W9.companyName")(function*(company: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ name: string }>`SELECT name FROM companies WHERE company_id = ${company}`.pipe(Effect.orDie)
  return rows[0]?.name ?? "Ledger"
})

const byToken = Effect.fn("W9.byToken")(function*(token: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM tax_w9_requests WHERE token_hash = ${Secret.sha256Hex(token)} FOR UPDATE`.pipe(Effect.orDie)
  if (rows[0] === undefined) return yield* Effect.fail(ApiError.notFound("W-9 request"))
  return rows[0]
})

/** Sends the request's email, then removes the link from the job's payload. */
export const job: JobKind = {
  run: (job) =>
    Effect.gen(function*() {
      const mail = yield* Mail
      const sql = yield* SqlClient.SqlClient
      const payload = job.payload as { request_id: number; email: string; link: string; company: string; message: string | null }
      if (payload.link === "") return { _tag: "Done" } as JobOutcome
      const sent = yield* mail.send({
        from: { name: payload.company, address: null },
        replyTo: null,
        to: { name: null, address: payload.email },
        cc: [],
        subject: `${payload.company} asks for your Form W-9`,
        text: [
          `${payload.company} needs your taxpayer details (Form W-9) for its 1099 reporting.`,
          ...(payload.message === null ? [] : ["", payload.message]),
          "",
          `Fill in the form here (the link works once): ${payload.link}`
        ].join("\n"),
        attachments: [],
        headers: { "X-Ledger-W9-Request": String(payload.request_id) }
      }).pipe(Effect.result)
      if (sent._tag === "Failure") return { _tag: sent.failure.permanent ? "GiveUp" : "Retry", error: sent.failure.message } as JobOutcome
      yield* sql`UPDATE jobs SET payload = ${JSON.stringify({ request_id: payload.request_id, link: "" })} WHERE id = ${job.id}`.pipe(Effect.orDie)
      return { _tag: "Done" } as JobOutcome
    })
}

export const handlers = [
  Handler.make(TaxForms.W9.listW9Requests, ({ query }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const context = yield* RequestContext
      const company = yield* requireCompanyId
      const select = (after: number | null, limitPlusOne: number) =>
        sql<Record<string, unknown>>`SELECT * FROM tax_w9_requests WHERE company_id = ${company}
        ${query.contact_id === undefined ? sql`` : sql`AND contact_id = ${query.contact_id}`}
        ${after === null ? sql`` : sql`AND id < ${after}`} ORDER BY id DESC LIMIT ${limitPlusOne}`.pipe(Effect.orDie)
      return { body: yield* Pagination.listPage(query, select, (row) => Row.int(row.id), (row) => request(row, context.now)) }
    })),

  Handler.make(TaxForms.W9.createW9Request, ({ body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const context = yield* RequestContext
      const entropy = yield* Entropy
      const company = yield* requireCompanyId
      const vendor = yield* BooksStore.vendor(company, body.contact_id)
      const rp = yield* Effect.serviceOption(RelyingParty)
      if (rp._tag === "None") {
        return yield* Effect.fail(ApiError.fail("service_unavailable", "W-9 links need the web app's address (LEDGER_APP_URL).", { configure: "LEDGER_APP_URL" }))
      }
      const email = body.email ?? vendor.email
      if (email === null) {
        return yield* Effect.fail(ApiError.validationFailed("The vendor has no email address: give one.", [{ path: ["body", "email"], message: "Required: the contact has none" }]))
      }
      const token = `w9_${Base64Url.encode(yield* entropy.bytes(32))}`
      const expires = new Date(Date.parse(context.now) + (body.expires_days ?? 30) * 86_400_000).toISOString()
      const rows = yield* sql<Record<string, unknown>>`INSERT INTO tax_w9_requests ${sql.insert({
        company_id: company,
        contact_id: vendor.id,
        email,
        token_hash: Secret.sha256Hex(token),
        status: "sent",
        message: body.message ?? null,
        expires_at: expires,
        created_by: reference(context.actor),
        created_at: context.now
      })} RETURNING *`.pipe(Effect.orDie)
      const created = request(rows[0]!, context.now)
      yield* Jobs.enqueue({
        kind: jobKind,
        companyId: company,
        payload: { request_id: created.id, email, link: linkOf(rp.value.origin, token), company: yield* companyName(company), message: body.message ?? null }
      })
      return { body: created, audit: { targetType: "contact", targetId: vendor.id, details: { w9_request_id: created.id } } }
    })),

  Handler.make(TaxForms.W9.cancelW9Request, ({ path, body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const context = yield* RequestContext
      const company = yield* requireCompanyId
      const rows = yield* sql<Record<string, unknown>>`SELECT * FROM tax_w9_requests WHERE company_id = ${company} AND id = ${path.id} FOR UPDATE`.pipe(Effect.orDie)
      if (rows[0] === undefined) return yield* Effect.fail(ApiError.notFound("W-9 request"))
      if (request(rows[0], context.now).status !== "sent") return yield* Effect.fail(ApiError.fail("w9_request_closed", `The request is ${request(rows[0], context.now).status}.`))
      const updated = yield* sql<Record<string, unknown>>`UPDATE tax_w9_requests SET status = 'cancelled', cancel_reason = ${body.reason}
        WHERE company_id = ${company} AND id = ${path.id} RETURNING *`.pipe(Effect.orDie)
      return { body: request(updated[0]!, context.now), audit: { targetType: "w9_request", targetId: path.id, reason: body.reason } }
    })),

  Handler.make(TaxForms.W9.submitW9, ({ path, body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const now = new Date(yield* Clock.currentTimeMillis).toISOString()
      const row = yield* byToken(path.token)
      const company = String(row.company_id)
      const status = request(row, now).status
      if (status !== "sent") return yield* Effect.fail(ApiError.fail("w9_request_closed", `This W-9 link is ${status === "completed" ? "used" : status}.`))
      const { certify: _certify, ...input } = body
      const contactId = Row.int(row.contact_id)
      yield* FormsStore.insertProfile(company, contactId, input, "w9", `w9_request:${Row.int(row.id)}`, now)
      yield* sql`UPDATE tax_w9_requests SET status = 'completed', completed_at = ${now} WHERE company_id = ${company} AND id = ${Row.int(row.id)}`.pipe(Effect.orDie)
      return {
        status: 201,
        body: { received: true, requester: yield* companyName(company), tin_masked: TinRules.mask(body.tin_type, TinRules.lastFour(body.tin)) },
        audit: { companyId: company, targetType: "contact", targetId: contactId, details: { w9_request_id: Row.int(row.id) } }
      }
    }))
]

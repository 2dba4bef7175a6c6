import { Effect } from "effect"
import { ApiError, Receipts } from "@ledger/api"
import * as Actor from "../kernel/Actor.ts"
import { requireCompanyId } from "../kernel/CompanyContext.ts"
import * as Handler from "../kernel/Handler.ts"
import * as Pagination from "../kernel/Pagination.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Row from "../kernel/Row.ts"
import { addDaysToInstant } from "../kernel/values/Calendar.ts"
import { InboxSettings } from "../ports/ReceiptReader.ts"
import * as InboxRules from "./InboxRules.ts"
import * as InboxStore from "./InboxStore.ts"
import * as Intake from "./Intake.ts"

const Ops = Receipts.Inbox
const limits = Receipts.Shared.limits

/** The inbox as the API shows it. */
const present = Effect.fn("Inbox.present")(function*(company: string, row: Record<string, unknown>) {
  const settings = yield* InboxSettings
  const at = (name: string | null) => name === null ? null : `${name}@${settings.domain}`
  const slug = (row.slug as string | null) ?? null
  const previous = (row.previous_slug as string | null) ?? null
  const refusals = yield* InboxStore.refusals(company)
  return {
    enabled: row.enabled === true,
    address: at(`r-${String(row.token)}`)!,
    custom_address: at(slug),
    slug,
    previous_slug: previous === null ? null : { slug: previous, address: at(previous)!, forwards_until: Row.iso(row.previous_slug_until) },
    allowed_senders: Row.json<Array<string>>(row.allowed_senders),
    listener: { configured: settings.smtpPort !== null, domain: settings.domain, port: settings.smtpPort },
    limits: {
      message_bytes_max: limits.messageBytesMax,
      attachments_per_message_max: limits.attachmentsPerMessageMax,
      attachment_bytes_max: limits.fileBytesMax,
      allowed_senders_max: limits.allowedSendersMax
    },
    refused_after_rotation: refusals.map((refusal) => ({ address: String(refusal.address), from: String(refusal.sender), at: Row.iso(refusal.refused_at) })),
    rotated_at: row.rotated_at === null || row.rotated_at === undefined ? null : Row.iso(row.rotated_at)
  } satisfies Receipts.Inbox.Inbox
})

/** Whether a slug is free for this company, and if not why. */
const availability = Effect.fn("Inbox.availability")(function*(company: string, slug: string, now: string) {
  const verdict = InboxRules.judgeSlug(slug)
  if (verdict !== null) return verdict
  yield* InboxStore.releaseExpired(now)
  const holder = yield* InboxStore.slugHolder(slug, now)
  if (holder === company) return "yours" as const
  if (holder !== null) return "taken" as const
  const shape = InboxRules.skeleton(slug)
  const inUse = yield* InboxStore.slugsInUse(now)
  return inUse.some((used) => used.company_id !== company && InboxRules.skeleton(used.slug) === shape) ? "lookalike" as const : null
})

/** The current name starts forwarding for 30 days (the inbox keeps it as previous_slug). */
const retireSlug = (row: Record<string, unknown>, now: string) =>
  row.slug === null || row.slug === undefined
    ? {}
    : { previous_slug: row.slug, previous_slug_until: addDaysToInstant(now, limits.slugForwardDays) }

const withCompany = <A>(body: (company: string, now: string) => Effect.Effect<A, ApiError.LedgerError, Handler.Services>) =>
  Effect.gen(function*() {
    const company = yield* requireCompanyId
    const request = yield* RequestContext
    return yield* body(company, request.now)
  })

export const handlers = [
  Handler.make(Ops.getReceiptInbox, () =>
    withCompany((company, now) => Effect.gen(function*() {
      return { body: yield* present(company, yield* InboxStore.ensure(company, now)) }
    }))),

  Handler.make(Ops.updateReceiptInbox, ({ body }) =>
    withCompany((company, now) => Effect.gen(function*() {
      yield* InboxStore.ensure(company, now, true)
      const senders = body.allowed_senders === undefined ? {} : { allowed_senders: JSON.stringify(Array.from(new Set(body.allowed_senders.map((s) => s.toLowerCase())))) }
      const row = yield* InboxStore.update(company, { ...(body.enabled === undefined ? {} : { enabled: body.enabled }), ...senders, updated_at: now })
      return { body: yield* present(company, row), audit: { targetType: "receipt_inbox", details: { changed: Object.keys(body) } } }
    }))),

  Handler.make(Ops.rotateReceiptInbox, ({ body }) =>
    withCompany((company, now) => Effect.gen(function*() {
      const current = yield* InboxStore.ensure(company, now, true)
      yield* Intake.retireToken(company, String(current.token), now)
      const row = yield* InboxStore.update(company, { token: yield* InboxStore.newToken, rotated_at: now, updated_at: now })
      return { body: yield* present(company, row), audit: { targetType: "receipt_inbox", reason: body.reason ?? null } }
    }))),

  Handler.make(Ops.checkReceiptInboxSlug, ({ query }) =>
    withCompany((company, now) => Effect.gen(function*() {
      const slug = query.slug.toLowerCase()
      const reason = yield* availability(company, slug, now)
      return { body: { slug, available: reason === null || reason === "yours", reason } }
    }))),

  Handler.make(Ops.setReceiptInboxSlug, ({ body }) =>
    withCompany((company, now) => Effect.gen(function*() {
      const current = yield* InboxStore.ensure(company, now, true)
      const reason = yield* availability(company, body.slug, now)
      if (reason === "yours" && current.slug === body.slug) return { body: yield* present(company, current) }
      if (reason !== null && !(reason === "yours" && current.previous_slug === body.slug)) {
        return yield* Effect.fail(ApiError.fail("slug_unavailable", `The name ${body.slug} is not available (${reason}).`, { reason }))
      }
      const taking = current.previous_slug === body.slug ? { previous_slug: null, previous_slug_until: null } : retireSlug(current, now)
      const row = yield* InboxStore.update(company, { ...taking, slug: body.slug, updated_at: now })
      return { body: yield* present(company, row), audit: { targetType: "receipt_inbox", details: { slug: body.slug, previous: current.slug ?? null } } }
    }))),

  Handler.make(Ops.clearReceiptInboxSlug, ({ body }) =>
    withCompany((company, now) => Effect.gen(function*() {
      const current = yield* InboxStore.ensure(company, now, true)
      const row = current.slug === null ? current : yield* InboxStore.update(company, { ...retireSlug(current, now), slug: null, updated_at: now })
      return { body: yield* present(company, row), audit: { targetType: "receipt_inbox", reason: body.reason ?? null } }
    }))),

  Handler.make(Ops.listReceiptInboxMessages, ({ query }) =>
    withCompany((company) => Effect.gen(function*() {
      const limit = Pagination.limitOf(query)
      const after = yield* Pagination.afterId(query)
      const rows = yield* InboxStore.listMessages(company, query.status, after, limit)
      return { body: Pagination.page(rows, limit, (row) => Row.int(row.id), InboxStore.presentMessage) }
    }))),

  Handler.make(Ops.releaseReceiptInboxMessage, ({ path, body }) =>
    withCompany((company, now) => Effect.gen(function*() {
      const request = yield* RequestContext
      const row = yield* InboxStore.loadMessage(company, path.id)
      if (row.status !== "review") return yield* Effect.fail(ApiError.fail("message_state", `The message is ${String(row.status)}, not in review.`, { status: row.status }))
      if (Intake.reviewLapsed(row, now)) {
        return yield* Effect.fail(ApiError.fail("message_state", `The message waited in review over ${Receipts.Shared.limits.reviewDays} days and has expired.`, { status: "expired" }))
      }
      const attachments = yield* Intake.releaseHeld(company, row, now)
      if (body.allow_sender === true) yield* Intake.allowSender(company, String(row.sender), now)
      const updated = yield* InboxStore.updateMessage(company, path.id, {
        status: "released", attachments: JSON.stringify(attachments), decided_at: now, decided_by: Actor.reference(request.actor)
      })
      return { body: InboxStore.presentMessage(updated), audit: { targetType: "receipt_inbox_message", targetId: path.id, details: { allow_sender: body.allow_sender === true } } }
    }))),

  Handler.make(Ops.discardReceiptInboxMessage, ({ path, body }) =>
    withCompany((company, now) => Effect.gen(function*() {
      const request = yield* RequestContext
      const row = yield* InboxStore.loadMessage(company, path.id)
      if (row.status !== "review") return yield* Effect.fail(ApiError.fail("message_state", `The message is ${String(row.status)}, not in review.`, { status: row.status }))
      yield* Intake.dropHeld(company, row)
      const updated = yield* InboxStore.updateMessage(company, path.id, {
        status: "discarded", decided_at: now, decided_by: Actor.reference(request.actor), decision_reason: body.reason
      })
      return { body: InboxStore.presentMessage(updated), audit: { targetType: "receipt_inbox_message", targetId: path.id, reason: body.reason } }
    })))
]

import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Sales } from "@ledger/api"
import * as BodyReference from "../../kernel/BodyReference.ts"
import * as Handler from "../../kernel/Handler.ts"
import { proposalKind } from "../../kernel/Registry.ts"
import { Governed, JournalEntryRules, JournalEntryStore } from "../../ledger/index.ts"
import * as Pagination from "../../kernel/Pagination.ts"
import { RequestContext } from "../../kernel/RequestContext.ts"
import { requireCompanyId } from "../../kernel/CompanyContext.ts"
import * as Row from "../../kernel/Row.ts"
import * as Applications from "../documents/Applications.ts"
import * as PaymentBankLines from "./PaymentBankLines.ts"
import * as PaymentResolution from "./PaymentResolution.ts"
import * as PaymentProposals from "./PaymentProposals.ts"

/**
 * Writes the payment linked to its entry (and its bank line) and answers with it. The payment
 * takes the id its entry names as `source.id` (reserved before posting), so the entry leads to it.
 */
const persistAndLoad = (payment: PaymentResolution.ResolvedPayment, entry: Governed.PostedEntry) =>
  Effect.gen(function*() {
    const reserved = entry.source.id ?? (yield* Governed.reserveId())
    const id = yield* PaymentResolution.persist(payment, entry.id, reserved)
    if (payment.bankLineId !== null) yield* PaymentBankLines.linkPosted(payment.bankLineId, entry.id)
    return yield* PaymentResolution.load((yield* requireCompanyId), id)
  })

const create = (direction: PaymentResolution.Direction) => ({ body }: { body: Sales.Payments.PaymentBody }) =>
  Effect.gen(function*() {
    const company = yield* requireCompanyId
    const bankLine = body.bank_line_id === undefined ? null : yield* PaymentBankLines.resolve(body.bank_line_id, direction, body.amount_cents).pipe(
      BodyReference.inBody(["body", "bank_line_id"], "bank line")
    )
    const payment = yield* PaymentResolution.resolve(company, direction, body, bankLine)
    return yield* Governed.write({
      kind: direction === "received" ? "payment_received" : "payment_made",
      summary: PaymentResolution.summaryOf(payment),
      entry: PaymentResolution.entryOf(payment),
      request: { payment },
      dryRun: body.dry_run === true,
      softLockOverrideReason: body.soft_lock_override_reason,
      confidence: body.confidence,
      linesPath: ["entry", "lines"],
      reserveSourceId: true,
      preview: { document: PaymentResolution.preview(payment) },
      onPosted: (entry) => persistAndLoad(payment, entry),
      onProposed: (proposal) => payment.bankLineId === null ? Effect.void : PaymentBankLines.hold(payment.bankLineId, proposal.id)
    })
  })

/** A payment's proposal: written on approval, its bank line released on rejection. */
export const paymentProposalKind = proposalKind({
  request: PaymentProposals.PaymentProposal,
  // The payment's id is taken at approval, when it is certain to be written.
  sourceId: () => Governed.reserveId(),
  approved: ({ entry, request }) => persistAndLoad(request.payment, entry),
  rejected: ({ proposal, request }) =>
    request.payment.bankLineId === null ? Effect.void : PaymentBankLines.release(request.payment.bankLineId, proposal.id)
})

/** The void's reversal has posted: the payment is void and its applications end. */
const markVoid = (paymentId: number, entryId: number, voidDate: string, reason: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const request = yield* RequestContext
    const company = yield* requireCompanyId
    const rows = yield* sql<{ voided: boolean }>`SELECT voided FROM payments WHERE company_id = ${company} AND id = ${paymentId} FOR UPDATE`
      .pipe(Effect.orDie)
    if (rows[0]?.voided === true) return yield* Effect.fail(ApiError.fail("already_void", "The payment is already void."))
    const payment = yield* PaymentResolution.load(company, paymentId)
    if (payment.bank_line_id !== null) yield* PaymentBankLines.releaseEntry(payment.entry_id!)
    yield* sql`UPDATE payments SET voided = true, void_entry_id = ${entryId}, void_reason = ${reason}, void_date = ${voidDate},
      voided_at = ${request.now} WHERE company_id = ${company} AND id = ${paymentId}`.pipe(Effect.orDie)
    yield* Applications.voidAll(company, { paymentId }, voidDate)
    return yield* PaymentResolution.load(company, paymentId)
  })

/** A payment void's proposal: the reversal has posted, the payment becomes void. */
export const paymentVoidProposalKind = proposalKind({
  request: PaymentProposals.PaymentVoidProposal,
  sourceId: ({ request }) => Effect.succeed(request.payment_id),
  approved: ({ entry, request }) => markVoid(request.payment_id, entry.id, request.void_date, request.reason),
  rejected: () => Effect.void
})

export const handlers = [
  Handler.make(Sales.Payments.receivePayment, create("received")),
  Handler.make(Sales.Payments.makePayment, create("made")),

  Handler.make(Sales.Payments.listPayments, ({ query }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const company = yield* requireCompanyId
      const select = (after: number | null, limitPlusOne: number) =>
        sql<{ id: unknown }>`SELECT p.id FROM payments p WHERE p.company_id = ${company}
        ${query.kind === undefined ? sql`` : sql`AND p.direction = ${query.kind}`}
        ${query.contact_id === undefined ? sql`` : sql`AND p.contact_id = ${query.contact_id}`}
        ${query.unapplied === true
          ? sql`AND NOT p.voided AND p.amount_cents > coalesce((SELECT sum(a.amount_cents) FROM applications a
              WHERE a.company_id = p.company_id AND a.payment_id = p.id AND a.voided_on IS NULL), 0)`
          : sql``}
        ${after === null ? sql`` : sql`AND p.id < ${after}`}
        ORDER BY p.id DESC LIMIT ${limitPlusOne}`.pipe(Effect.orDie)
      const load = (shown: ReadonlyArray<{ id: unknown }>) =>
        Effect.map(PaymentResolution.loadMany(company, shown.map((row) => Row.int(row.id))), (payments) =>
          shown.map((row) => payments.get(Row.int(row.id))!))
      return { body: yield* Pagination.listPageLoaded(query, select, (row) => Row.int(row.id), load) }
    })),

  Handler.make(Sales.Payments.getPayment, ({ path }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      return { body: yield* PaymentResolution.load(company, path.id) }
    })),

  Handler.make(Sales.Payments.applyPayment, ({ path, body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const company = yield* requireCompanyId
      const dryRun = body.dry_run === true
      if (!dryRun) yield* sql`SELECT 1 FROM payments WHERE company_id = ${company} AND id = ${path.id} FOR UPDATE`.pipe(Effect.orDie)
      const payment = yield* PaymentResolution.load(company, path.id)
      if (payment.status === "void") return yield* Effect.fail(ApiError.fail("already_void", "The payment is void."))
      const source: Applications.Source = {
        paymentId: payment.id,
        creditDocumentId: null,
        contactId: payment.contact_id,
        side: payment.direction === "received" ? "sales" : "purchases",
        controlAccount: payment.control_account,
        date: payment.payment_date,
        availableCents: payment.unapplied_cents
      }
      const appliedOn = body.applied_on ?? request.today
      if (dryRun) {
        yield* Applications.check(company, source, body.applications, appliedOn)
        const applying = body.applications.reduce((sum, application) => sum + application.amount_cents, 0)
        return {
          status: 200,
          body: { ...payment, applied_cents: payment.applied_cents + applying, unapplied_cents: payment.unapplied_cents - applying }
        }
      }
      yield* Applications.apply(company, source, body.applications, appliedOn)
      return {
        body: yield* PaymentResolution.load(company, payment.id),
        audit: { targetType: "payment", targetId: payment.id, details: { applications: body.applications } }
      }
    })),

  Handler.make(Sales.Payments.voidPayment, ({ path, body }) =>
    Effect.gen(function*() {
      const request = yield* RequestContext
      const company = yield* requireCompanyId
      const payment = yield* PaymentResolution.load(company, path.id)
      if (payment.status === "void") return yield* Effect.fail(ApiError.fail("already_void", "The payment is already void."))
      const voidDate = body.void_date ?? request.today
      if (voidDate < payment.payment_date) {
        return yield* Effect.fail(ApiError.validationFailed("A void is dated on or after the payment.", [{ path: ["body", "void_date"], message: `Before ${payment.payment_date}` }]))
      }
      const original = yield* JournalEntryStore.load(payment.entry_id!)
      const written = yield* Governed.write({
        kind: "payment_void",
        summary: `Void payment ${payment.id} (${payment.amount_cents} cents): ${body.reason}`,
        entry: {
          date: voidDate,
          memo: `Void of payment ${payment.id}: ${body.reason}`.slice(0, 1000),
          lines: JournalEntryRules.reversal(original!.lines).map(JournalEntryRules.toDraftLine)
        },
        // The linked reversal of the payment's entry (issue 19 item 3).
        reverses: payment.entry_id!,
        // The reversal leads to the payment it voids, as the original entry does.
        sourceId: payment.id,
        request: { payment_id: payment.id, reason: body.reason, void_date: voidDate },
        dryRun: body.dry_run === true,
        softLockOverrideReason: body.soft_lock_override_reason,
        onPosted: (entry) => markVoid(payment.id, entry.id, voidDate, body.reason)
      })
      return { ...written, status: written.status === 201 ? 200 : written.status ?? 200 }
    }))
]

import { Effect, Schema } from "effect"
import { ApiError, EstimatedTaxes } from "@ledger/api"
import * as Actor from "../kernel/Actor.ts"
import { requireCompanyId } from "../kernel/CompanyContext.ts"
import * as Handler from "../kernel/Handler.ts"
import { proposalKind } from "../kernel/Registry.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import { AccountStore, Governed } from "../ledger/index.ts"
import * as Estimate from "./Estimate.ts"
import * as Store from "./EstimateStore.ts"

const Api = EstimatedTaxes.EstimatedTaxes

const getHandler = Handler.make(Api.getEstimatedTaxes, ({ query }) =>
  Effect.gen(function*() {
    const request = yield* RequestContext
    const company = yield* requireCompanyId
    const year = query.year ?? Number(request.today.slice(0, 4))
    const saved = yield* Store.plan(company, year)
    const inputs = Estimate.inputsOf(saved?.inputs ?? null, {}, yield* Store.profileReturnType(company))
    return { body: yield* Estimate.estimate(company, year, inputs, saved, request.today) }
  }))

const planHandler = Handler.make(Api.saveEstimatedTaxPlan, ({ body }) =>
  Effect.gen(function*() {
    const request = yield* RequestContext
    const company = yield* requireCompanyId
    const { year, dry_run, ...fields } = body
    const saved = yield* Store.plan(company, year)
    const inputs = Estimate.inputsOf(saved?.inputs ?? null, fields, yield* Store.profileReturnType(company))
    const codes = [inputs.payment_account, inputs.pay_from_account].filter((code): code is string => code !== null)
    const known = yield* AccountStore.accountsByCode(company, codes)
    const unknown = codes.filter((code) => !known.has(code))
    if (unknown.length > 0) return yield* Effect.fail(ApiError.fail("unknown_account", `Unknown accounts: ${unknown.join(", ")}.`, { accounts: unknown }))
    if (dry_run !== true) yield* Store.savePlan(company, year, inputs, Actor.reference(request.actor), request.now)
    const estimate = yield* Estimate.estimate(company, year, inputs, dry_run === true ? saved : { savedAt: request.now }, request.today)
    if (dry_run === true) return { body: estimate }
    return { body: estimate, audit: { targetType: "estimated_tax_plan", targetId: year, details: { return_type: inputs.return_type } } }
  }))

const NewPaymentSchema = Schema.Struct({
  tax_year: Schema.Int,
  quarter: Schema.Int,
  paid_on: Schema.String,
  amount_cents: Schema.Int,
  method: Api.Method,
  confirmation: Schema.NullOr(Schema.String),
  note: Schema.NullOr(Schema.String),
  payment_account: Schema.NullOr(Schema.String),
  pay_from_account: Schema.NullOr(Schema.String),
  outside_books: Schema.Boolean,
  created_by: Schema.String
})

/** Writes the payment; one in the books takes the id its entry names as `source.id` (reserved before posting). */
const persist = (input: Store.NewPayment, entry: Governed.PostedEntry | null) =>
  Effect.gen(function*() {
    const request = yield* RequestContext
    const id = entry === null ? null : entry.source.id ?? (yield* Governed.reserveId())
    return yield* Store.insertPayment(yield* requireCompanyId, input, entry?.id ?? null, request.now, id)
  })

/** An agent's payment: recorded when a person approves its entry. */
export const paymentProposalKind = proposalKind({
  request: NewPaymentSchema,
  // The payment's id is taken at approval, when it is certain to be written.
  sourceId: () => Governed.reserveId(),
  approved: ({ entry, request }) => persist(request, entry),
  rejected: () => Effect.void
})

// `reason` is optional so a void queued before it was stored still decodes.
const VoidRequest = Schema.Struct({ payment_id: Schema.Int, reason: Schema.optionalKey(Schema.String) })

/** A payment's void that waited for a person: the reversal has posted, the payment becomes void. */
export const voidProposalKind = proposalKind({
  request: VoidRequest,
  sourceId: ({ request }) => Effect.succeed(request.payment_id),
  approved: ({ proposal, entry, request }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      const payment = yield* Store.loadPayment(company, request.payment_id, true)
      if (payment.status === "void") return yield* Effect.fail(ApiError.fail("already_void", "The payment is already void."))
      return yield* Store.markVoid(company, payment.id, request.reason ?? proposal.summary, entry.id, (yield* RequestContext).now)
    }),
  rejected: () => Effect.void
})

const paymentHandler = Handler.make(Api.recordEstimatedTaxPayment, ({ body }) =>
  Effect.gen(function*() {
    const request = yield* RequestContext
    const company = yield* requireCompanyId
    const outside = body.outside_books === true
    if (outside && !request.actor.isPerson) {
      return yield* Effect.fail(ApiError.fail("insufficient_scope", "Only a person records a payment outside the books."))
    }
    // A payment for a year no estimate covers could be read back nowhere.
    yield* Estimate.checkYear(body.year, request.today)
    const plan = (yield* Store.plan(company, body.year))?.inputs ?? null
    const paymentAccount = body.payment_account ?? plan?.payment_account ?? null
    const payFrom = body.pay_from_account ?? plan?.pay_from_account ?? null
    if (!outside && (paymentAccount === null || payFrom === null)) {
      return yield* Effect.fail(ApiError.fail("payment_account_required", "Name payment_account and pay_from_account (or save them in the plan), or record the payment outside_books."))
    }
    const input: Store.NewPayment = {
      tax_year: body.year,
      quarter: body.quarter,
      paid_on: body.paid_on,
      amount_cents: body.amount_cents,
      method: body.method,
      confirmation: body.confirmation ?? null,
      note: body.note ?? null,
      payment_account: paymentAccount,
      pay_from_account: payFrom,
      outside_books: outside,
      created_by: Actor.reference(request.actor)
    }
    if (outside) {
      if (body.dry_run === true) {
        const preview = { ...input, id: 1, entry_id: null, status: "recorded" as const, void_entry_id: null, void_reason: null, created_at: request.now, voided_at: null }
        return { status: 200, body: { dry_run: true as const, payment: preview } }
      }
      const created = yield* persist(input, null)
      return { body: created, audit: { targetType: "estimated_tax_payment", targetId: created.id, details: { outside_books: true, amount_cents: created.amount_cents } } }
    }
    const memo = `Estimated tax ${body.year} Q${body.quarter} (${body.method}${body.confirmation === undefined ? "" : ` ${body.confirmation}`})`
    return yield* Governed.write({
      kind: "estimated_tax_payment",
      summary: memo,
      entry: {
        date: body.paid_on,
        memo,
        lines: [
          { account: paymentAccount!, debit_cents: body.amount_cents, memo: `Estimated tax ${body.year} Q${body.quarter}` },
          { account: payFrom!, credit_cents: body.amount_cents, memo }
        ]
      },
      request: input,
      dryRun: body.dry_run === true,
      linesPath: ["body"],
      preview: { document: input as unknown as Record<string, unknown> },
      reserveSourceId: true,
      onPosted: (entry) => persist(input, entry)
    })
  }))

const voidHandler = Handler.make(Api.voidEstimatedTaxPayment, ({ path, body }) =>
  Effect.gen(function*() {
    const request = yield* RequestContext
    const company = yield* requireCompanyId
    const existing = yield* Store.loadPayment(company, path.id, true)
    if (existing.status === "void") return yield* Effect.fail(ApiError.fail("already_void", "The payment is already void."))
    if (existing.entry_id === null) {
      return { body: yield* Store.markVoid(company, existing.id, body.reason, null, request.now), audit: { targetType: "estimated_tax_payment", targetId: existing.id, reason: body.reason } }
    }
    const written = yield* Governed.write({
      kind: "estimated_tax_payment_void",
      summary: `Void estimated-tax payment ${existing.id}: ${body.reason}`,
      entry: { date: request.today < existing.paid_on ? existing.paid_on : request.today, memo: `Void of estimated-tax payment ${existing.id}: ${body.reason}`.slice(0, 1000), lines: [] },
      reverses: existing.entry_id,
      // The reversal leads to the payment it voids.
      sourceId: existing.id,
      request: { payment_id: existing.id, reason: body.reason },
      dryRun: false,
      onPosted: (entry) => Store.markVoid(company, existing.id, body.reason, entry.id, request.now)
    })
    // 200 with the void payment when it posted; a queued void stays 202 with its proposal.
    return { ...written, status: written.outcome._tag === "Posted" ? 200 : 202 }
  }))

export const handlers = [getHandler, planHandler, paymentHandler, voidHandler]

import { Effect } from "effect"
import { ApiError, Billing as BillingApi } from "@ledger/api"
import * as Deployment from "../kernel/EngineInfo.ts"
import { requireCompanyId } from "../kernel/CompanyContext.ts"
import * as Handler from "../kernel/Handler.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import { requireStepUp } from "../kernel/StepUp.ts"
import * as Row from "../kernel/Row.ts"
import * as BillingEvents from "./BillingEvents.ts"
import * as BillingRules from "./BillingRules.ts"
import * as BillingStore from "./BillingStore.ts"
import { requireBilling } from "./Entitlements.ts"

const Api = BillingApi.Billing

/** The company's live subscription, else 409 `billing_no_subscription`. */
const live = Effect.fn("Billing.live")(function*(company: string) {
  const row = yield* BillingStore.load(company, true)
  if (row?.subscription_id == null || row.status === "canceled" || row.plan == null) {
    return yield* Effect.fail(ApiError.fail("billing_no_subscription", "The company has no subscription: start one with POST /v1/billing/checkout."))
  }
  const selection: BillingRules.Selection = {
    plan: row.plan as BillingRules.Plan, interval: row.interval as BillingRules.Interval, feedAccounts: Row.int(row.feed_accounts), crypto: row.crypto_addon === true
  }
  return { row, selection, subscriptionId: String(row.subscription_id) }
})

/**
 * An absolute address in the web app for the processor to send the person back to (it refuses
 * relative ones); 503 `billing_not_configured` when the deployment names no address.
 */
const appLink = Effect.fn("Billing.appLink")(function*(path: string) {
  const app = yield* Deployment.appUrl
  if (app === null) {
    return yield* Effect.fail(ApiError.fail("billing_not_configured",
      "Billing needs the web app's address for the processor to send people back to (LEDGER_APP_URL or LEDGER_BASE_URL)."))
  }
  return Deployment.under(app, path)
})

const answer = (company: string, details: Record<string, unknown>) =>
  Effect.map(BillingStore.present(company), (billing) => ({ body: billing, audit: { targetType: "billing", targetId: company, details } }))

/**
 * Asks the processor to change the subscription's items, starting from its items as the processor
 * has them now (changes not yet confirmed by an event are kept); the company's row follows its event.
 */
const changeItems = (change: (current: BillingRules.Selection) => BillingRules.Selection, fallback: BillingRules.Selection, subscriptionId: string, prorate: boolean, key: string) =>
  Effect.gen(function*() {
    const subscription = yield* BillingStore.processor((port) => port.retrieveSubscription(subscriptionId))
    const current = BillingRules.selectionOf(subscription.items) ?? fallback
    // Each change names the item it changes: an item without id would be added beside the old one.
    const items = BillingRules.itemChanges(subscription.items, BillingRules.items(change(current)))
    return yield* BillingStore.processor((port) => port.updateSubscription({ id: subscriptionId, items, prorate, idempotencyKey: key }))
  })

const changePlan = Handler.make(Api.changeBillingPlan, ({ body }) =>
  Effect.gen(function*() {
    const request = yield* RequestContext
    const company = yield* requireCompanyId
    const { row, selection, subscriptionId } = yield* live(company)
    const change = BillingRules.classify(selection, body, row.status === "trialing")
    const key = `ledger-plan-${company}-${body.plan}-${body.interval}-${request.now}`
    let charged = 0
    if (change === "trial") yield* changeItems((current) => ({ ...current, ...body }), selection, subscriptionId, false, key)
    if (change === "downgrade" && body.interval === selection.interval) {
      // The processor's price changes now, without proration: the period already paid is not
      // credited, and the next one is invoiced at the new price. The company keeps its plan until
      // the period ends (the scheduled change below; BillingEvents.refresh applies it then).
      yield* changeItems((current) => ({ ...current, ...body }), selection, subscriptionId, false, key)
    }
    if (change === "none" && row.scheduled_plan != null) {
      // Back to the plan it has: a downgrade already asked of the processor is undone, without proration.
      yield* changeItems((current) => ({ ...current, ...body }), selection, subscriptionId, false, key)
    }
    if (change === "upgrade") {
      const end = Date.parse(Row.iso(row.current_period_end))
      charged = BillingRules.proratedCharge({
        from: selection, to: body, remainingSeconds: Math.floor((end - Date.parse(request.now)) / 1000),
        periodSeconds: (selection.interval === "year" ? 365 : 30) * 86_400
      })
      yield* changeItems((current) => ({ ...current, ...body }), selection, subscriptionId, true, key)
    }
    yield* BillingStore.upsert(company, change === "downgrade" ? { scheduled_plan: body.plan, scheduled_interval: body.interval } : { scheduled_plan: null, scheduled_interval: null })
    const billing = yield* BillingStore.present(company)
    return {
      body: { change, effective: change === "downgrade" ? "period_end" as const : "now" as const, charged_now_cents: charged, billing },
      audit: { targetType: "billing", targetId: company, details: { change, plan: body.plan, interval: body.interval, charged_now_cents: charged } }
    }
  }))

const checkout = Handler.make(Api.startBillingCheckout, ({ body }) =>
  Effect.gen(function*() {
    const company = yield* requireCompanyId
    const row = yield* BillingStore.load(company, true)
    if (row !== undefined && ["trialing", "active", "past_due"].includes(String(row.status))) {
      return yield* Effect.fail(ApiError.fail("billing_state", "The company already has a subscription: change it with POST /v1/billing/plan."))
    }
    const items = BillingRules.items({ plan: body.plan, interval: body.interval, feedAccounts: body.feed_accounts ?? 0, crypto: false })
    const now = (yield* RequestContext).now
    const successUrl = yield* appLink("/settings/billing?session_id={CHECKOUT_SESSION_ID}")
    const cancelUrl = yield* appLink("/settings/billing")
    const session = yield* BillingStore.processor((port) => port.createCheckoutSession({
      mode: "subscription", items, customerId: (row?.customer_id as string | null | undefined) ?? null, reference: company, successUrl, cancelUrl,
      trialDays: row?.subscription_id == null ? BillingRules.trialDays : 0, idempotencyKey: `ledger-checkout-${company}-${body.plan}-${body.interval}-${now}`
    }))
    return { body: { url: session.url, session_id: session.id }, audit: { targetType: "billing", targetId: company, details: { plan: body.plan, interval: body.interval } } }
  }))

/**
 * Billing's writes on a deployment without a processor: 503 `billing_not_configured` before
 * anything else (no `billing_no_subscription`: there is nothing to subscribe to, and every plan
 * feature and add-on is already on; ADR 2000). With one, billing is a sensitive change (concepts
 * 5.5): the signed-in session (the only credential these take, ADR 2001) steps up first.
 */
const configured = <Id extends string>([id, handler]: readonly [Id, Handler.Handler]): readonly [Id, Handler.Handler] =>
  [id, (input) => requireBilling.pipe(Effect.andThen(requireStepUp), Effect.andThen(handler(input)))]

const writes = [
  checkout,
  Handler.make(Api.openBillingPortal, () =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      const row = yield* BillingStore.load(company)
      if (row?.customer_id == null) return yield* Effect.fail(ApiError.fail("billing_no_subscription", "The company has no customer at the processor yet: check out first."))
      const returnUrl = yield* appLink("/settings/billing")
      const portal = yield* BillingStore.processor((port) => port.createPortalSession({ customerId: String(row.customer_id), returnUrl }))
      return { body: { url: portal.url, session_id: null }, audit: { targetType: "billing", targetId: company } }
    })),
  changePlan,
  Handler.make(Api.cancelBilling, ({ body }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      const { subscriptionId } = yield* live(company)
      yield* BillingStore.processor((port) => port.cancelSubscription({ id: subscriptionId, atPeriodEnd: body.cancel }))
      return yield* answer(company, { cancel: body.cancel })
    })),
  Handler.make(Api.setBillingFeedAccounts, ({ body }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      const { selection, subscriptionId } = yield* live(company)
      yield* changeItems((current) => ({ ...current, feedAccounts: body.quantity }), selection, subscriptionId, true, `ledger-feeds-${company}-${body.quantity}-${(yield* RequestContext).now}`)
      return yield* answer(company, { quantity: body.quantity })
    })),
  Handler.make(Api.setBillingCryptoAddon, ({ body }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      const { selection, subscriptionId } = yield* live(company)
      yield* changeItems((current) => ({ ...current, crypto: body.on }), selection, subscriptionId, true, `ledger-crypto-${company}-${body.on}-${(yield* RequestContext).now}`)
      return yield* answer(company, { on: body.on })
    })),
  Handler.make(Api.setBillingOverageCap, ({ body }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      yield* BillingStore.upsert(company, { overage_cap_cents: body.cap_cents })
      return yield* answer(company, { cap_cents: body.cap_cents })
    })),
  Handler.make(Api.syncBilling, ({ body }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      let subscriptionId = ((yield* BillingStore.load(company, true))?.subscription_id as string | null | undefined) ?? null
      if (body.session_id !== undefined) {
        const session = yield* BillingStore.processor((port) => port.retrieveCheckoutSession(body.session_id!))
        if (session.metadata.company_id !== company) return yield* Effect.fail(ApiError.notFound("checkout session"))
        if (session.customerId !== null) yield* BillingStore.upsert(company, { customer_id: session.customerId })
        subscriptionId = session.subscriptionId ?? subscriptionId
      }
      if (subscriptionId !== null) yield* BillingEvents.refresh(company, subscriptionId)
      return yield* answer(company, { session_id: body.session_id ?? null })
    })),
  Handler.make(Api.startLicenseCheckout, () =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      const now = (yield* RequestContext).now
      const successUrl = yield* appLink("/settings/billing?license=done")
      const cancelUrl = yield* appLink("/settings/billing")
      const session = yield* BillingStore.processor((port) => port.createCheckoutSession({
        mode: "subscription", items: [{ price: BillingRules.licensePriceId, quantity: 1 }], customerId: null, reference: company,
        successUrl, cancelUrl, trialDays: 0, idempotencyKey: `ledger-license-${company}-${now}`
      }))
      return { body: { url: session.url, session_id: session.id }, audit: { targetType: "billing", targetId: company, details: { license: true } } }
    }))
]

export const handlers = [
  Handler.make(Api.getBilling, () => Effect.gen(function*() {
    return { body: yield* BillingStore.present(yield* requireCompanyId) }
  })),
  ...writes.map(configured)
]

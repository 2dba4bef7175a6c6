import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Row from "../kernel/Row.ts"
import type { Event } from "../ports/PaymentProcessor.ts"
import * as BillingRules from "./BillingRules.ts"
import * as BillingStore from "./BillingStore.ts"

type Json = Record<string, any>

const companyOf = Effect.fn("BillingEvents.companyOf")(function*(object: Json) {
  const sql = yield* SqlClient.SqlClient
  const bySubscription = object.object === "subscription" ? String(object.id) : object.subscription == null ? null : String(object.subscription)
  if (bySubscription !== null) {
    const rows = yield* sql<{ company_id: string }>`SELECT company_id FROM billing_subscriptions WHERE subscription_id = ${bySubscription}`.pipe(Effect.orDie)
    if (rows[0] !== undefined) return rows[0].company_id
  }
  const named = object.metadata?.company_id ?? object.client_reference_id
  if (typeof named !== "string" || !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(named)) return null
  const known = yield* sql`SELECT 1 FROM companies WHERE company_id = ${named}`.pipe(Effect.orDie)
  return known.length === 0 ? null : named
})

/**
 * Reads the subscription from the processor (so events may come in any order: the latest state
 * wins) and applies it. A downgrade waiting for the period's end was already made at the
 * processor (its price, without proration): until the period turns the company keeps its plan;
 * once it has, the scheduled change is done. A change of interval waits at the processor too
 * (a new interval starts a new period at once there): it is asked for when the period turns.
 */
export const refresh = Effect.fn("BillingEvents.refresh")(function*(company: string, subscriptionId: string) {
  const before = yield* BillingStore.load(company, true)
  let subscription = yield* BillingStore.processor((port) => port.retrieveSubscription(subscriptionId))
  const storedEnd = before?.current_period_end == null ? null : Math.floor(Date.parse(Row.iso(before.current_period_end)) / 1000)
  const turned = storedEnd !== null && subscription.currentPeriodEnd > storedEnd
  const scheduled = before?.scheduled_plan == null ? null : { plan: before.scheduled_plan as BillingRules.Plan, interval: before.scheduled_interval as BillingRules.Interval }
  const current = BillingRules.selectionOf(subscription.items)
  const atProcessor = scheduled !== null && current?.plan === scheduled.plan && current.interval === scheduled.interval
  if (turned && scheduled !== null && subscription.status !== "canceled") {
    if (!atProcessor) {
      const next = { ...scheduled, feedAccounts: current?.feedAccounts ?? 0, crypto: current?.crypto ?? false }
      const items = BillingRules.itemChanges(subscription.items, BillingRules.items(next))
      subscription = yield* BillingStore.processor((port) => port.updateSubscription({
        id: subscriptionId, items, prorate: false, idempotencyKey: `ledger-scheduled-${subscriptionId}-${subscription.currentPeriodEnd}`
      }))
    }
    yield* BillingStore.upsert(company, { scheduled_plan: null, scheduled_interval: null })
    return yield* BillingStore.applySubscription(company, subscription)
  }
  // Before the period turns, the plan already changed at the processor is not yet the company's.
  return yield* BillingStore.applySubscription(company, subscription, atProcessor && !turned)
})

/** A verified platform event (checkout, subscriptions, invoices); answers the company it concerned. */
export const applyEvent = Effect.fn("BillingEvents.applyEvent")(function*(event: Event) {
  const sql = yield* SqlClient.SqlClient
  const request = yield* RequestContext
  const object = event.object as Json
  const company = yield* companyOf(object)
  if (company === null) return null
  const work = Effect.gen(function*() {
    if (event.type === "checkout.session.completed") {
      if (object.customer != null) yield* BillingStore.upsert(company, { customer_id: String(object.customer) })
      if (object.subscription != null) yield* refresh(company, String(object.subscription))
    } else if (event.type.startsWith("customer.subscription.")) {
      yield* refresh(company, String(object.id))
    } else if (event.type === "invoice.paid") {
      yield* sql`INSERT INTO billing_invoices ${sql.insert({
        company_id: company, amount_cents: Number(object.amount_paid ?? 0), description: String(object.description ?? "Subscription"), created_at: request.now
      })}`.pipe(Effect.orDie)
    }
  })
  yield* work.pipe(Effect.provideService(RequestContext, { ...request, companyId: company }))
  return company
})

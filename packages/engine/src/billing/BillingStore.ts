import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, type Billing as BillingApi } from "@ledger/api"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Row from "../kernel/Row.ts"
import { PaymentProcessor, type ProcessorFailure, type Subscription } from "../ports/PaymentProcessor.ts"
import * as BillingRules from "./BillingRules.ts"
import * as Entitlements from "./Entitlements.ts"
import * as ReadOnlyGuard from "./ReadOnlyGuard.ts"

/** A processor failure as the API's refusal. */
export const processor = <A>(call: (port: PaymentProcessor["Service"]) => Effect.Effect<A, ProcessorFailure>) =>
  Effect.gen(function*() {
    const port = yield* PaymentProcessor
    return yield* call(port).pipe(Effect.mapError((failure) =>
      failure.code === "not_configured" ? ApiError.fail("billing_not_configured", "No payment processor is configured on this deployment (LEDGER_PAYMENTS_URL).")
        : failure.code === "invalid_request" ? ApiError.fail("billing_state", `The processor refused: ${failure.message}`)
        : ApiError.fail("processor_unavailable", `The payment processor did not answer: ${failure.message}`)))
  })

export const load = Effect.fn("BillingStore.load")(function*(company: string, lock = false) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM billing_subscriptions WHERE company_id = ${company} ${lock ? sql`FOR UPDATE` : sql``}`.pipe(Effect.orDie)
  return rows[0]
})

export const upsert = Effect.fn("BillingStore.upsert")(function*(company: string, fields: Record<string, unknown>) {
  const sql = yield* SqlClient.SqlClient
  const request = yield* RequestContext
  const all = { ...fields, updated_at: request.now }
  yield* sql`INSERT INTO billing_subscriptions ${sql.insert({ company_id: company, ...all })}
    ON CONFLICT (company_id) DO UPDATE SET ${sql.update(all)}`.pipe(Effect.orDie)
})

const day = (value: unknown) => value == null ? null : Row.iso(value).slice(0, 10)

export const present = Effect.fn("BillingStore.present")(function*(company: string) {
  const sql = yield* SqlClient.SqlClient
  const request = yield* RequestContext
  const row = yield* load(company)
  const invoices = yield* sql<Record<string, unknown>>`SELECT * FROM billing_invoices WHERE company_id = ${company} ORDER BY id DESC LIMIT 24`.pipe(Effect.orDie)
  const feeds = yield* sql<{ n: unknown }>`SELECT count(*) AS n FROM bank_feeds WHERE company_id = ${company}`.pipe(Effect.orDie)
  const plan = (row?.plan ?? null) as BillingRules.Plan | null
  const status = String(row?.status ?? "none") === "incomplete" ? "none" : String(row?.status ?? "none")
  const periodEnd = row?.current_period_end == null ? null : Date.parse(Row.iso(row.current_period_end))
  const included = plan === null ? null : BillingRules.includedFeedAccounts(plan)
  // AI transactions: the writes agents, AI apps and firm agents made that succeeded, in the
  // period (the audit log records each write once; dry runs and refusals are not counted).
  const [from, to] = BillingRules.usagePeriod(periodEnd, (row?.interval ?? null) as BillingRules.Interval | null, Date.parse(request.now))
  const aiWrites = yield* sql<{ n: unknown }>`SELECT count(*) AS n FROM audit_events WHERE company_id = ${company} AND outcome = 'ok'
    AND principal_type IN ${sql.in([...BillingRules.aiPrincipalTypes])} AND occurred_at >= ${new Date(from).toISOString()} AND occurred_at < ${new Date(to).toISOString()}`
    .pipe(Effect.orDie)
  // Without a processor billing does not apply: every feature and add-on on, never read-only (ADR 2000).
  const applies = yield* Entitlements.applies
  const billing: BillingApi.Billing.Billing = {
    billing: applies ? "configured" : "not_configured",
    plan,
    interval: (row?.interval ?? null) as BillingRules.Interval | null,
    status: status as BillingApi.Billing.Billing["status"],
    payment_method: row?.customer_id != null,
    trial_ends_on: day(row?.trial_ends_at),
    current_period_ends_on: day(row?.current_period_end),
    grace_ends_on: status === "past_due" && periodEnd !== null ? new Date(periodEnd + BillingRules.graceDays * 86_400_000).toISOString().slice(0, 10) : null,
    cancel_at_period_end: row?.cancel_at_period_end === true,
    scheduled_change: row?.scheduled_plan == null ? null : {
      plan: row.scheduled_plan as BillingRules.Plan, interval: row.scheduled_interval as BillingRules.Interval, effective_on: day(row.current_period_end) ?? request.today
    },
    read_only: applies && BillingRules.readOnly(status, periodEnd, Date.parse(request.now), row?.cancel_at_period_end === true),
    feed_accounts: Row.int(row?.feed_accounts ?? 0),
    crypto_addon: !applies || row?.crypto_addon === true,
    overage_cap_cents: Row.int(row?.overage_cap_cents ?? 0),
    usage: {
      feed_accounts_included: applies ? included : null,
      feed_accounts_extra: applies ? Math.max(0, Row.int(feeds[0]?.n ?? 0) - (included ?? Infinity)) : 0,
      ai_transactions_this_period: Row.int(aiWrites[0]?.n ?? 0)
    },
    invoices: invoices.map((invoice) => ({ amount_cents: Row.int(invoice.amount_cents), description: String(invoice.description), created_at: Row.iso(invoice.created_at) })),
    prices: BillingRules.prices()
  }
  return billing
})

const planOf = (row: Record<string, unknown> | undefined): Partial<BillingRules.Selection> =>
  row?.plan == null ? {} : { plan: row.plan as BillingRules.Plan, interval: row.interval as BillingRules.Interval }

/**
 * The subscription as the processor has it now, in the company's row and its plan: the only way a
 * company's plan changes besides the operator (a verified event or a read from the processor).
 */
export const applySubscription = Effect.fn("BillingStore.applySubscription")(function*(company: string, subscription: Subscription, keepPlan = false) {
  const sql = yield* SqlClient.SqlClient
  const processorSelection = BillingRules.selectionOf(subscription.items)
  // `keepPlan`: a downgrade made at the processor before the period's end; the company keeps its
  // plan and interval until then, and takes the rest (add-ons, feed accounts) at once.
  const selection = processorSelection === null || !keepPlan ? processorSelection : { ...processorSelection, ...planOf(yield* load(company)) }
  const iso = (seconds: number | null) => seconds === null ? null : new Date(seconds * 1000).toISOString()
  yield* upsert(company, {
    subscription_id: subscription.id,
    customer_id: subscription.customerId,
    status: subscription.status,
    current_period_end: iso(subscription.currentPeriodEnd),
    trial_ends_at: subscription.status === "trialing" ? iso(subscription.trialEnd) : null,
    cancel_at_period_end: subscription.cancelAtPeriodEnd,
    ...(selection === null ? {} : { plan: selection.plan, interval: selection.interval, feed_accounts: selection.feedAccounts, crypto_addon: selection.crypto })
  })
  if (selection !== null && subscription.status !== "canceled") {
    yield* sql`UPDATE companies SET plan = ${selection.plan} WHERE company_id = ${company}`.pipe(Effect.orDie)
  }
  // The write guard of this engine asks afresh (other engines within ReadOnlyGuard.rememberMs).
  ReadOnlyGuard.forget(company)
  return selection
})

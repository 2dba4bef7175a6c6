import { Schema } from "effect"
import { DateString, Timestamp } from "../Common.ts"
import * as Operation from "../Operation.ts"
import { NoFields } from "../online-payments/Settings.ts"

const area = "4.13 Billing"

export const Plan = Schema.Literals(["solo", "business", "advanced"])
export type Plan = typeof Plan.Type
export const Interval = Schema.Literals(["month", "year"])
export type Interval = typeof Interval.Type

const groupErrors = ["billing_not_configured", "billing_state", "processor_unavailable"] as const

export const Price = Schema.Struct({ item: Schema.String, interval: Schema.NullOr(Interval), unit_amount_cents: Schema.Int })

export const Billing = Schema.Struct({
  billing: Schema.Literals(["configured", "not_configured"]).annotate({
    description: "`not_configured`: no billing processor on this deployment (self-hosted, embedded): every plan feature and add-on is on, the books are never read-only, and billing's writes answer 503 `billing_not_configured`."
  }),
  plan: Schema.NullOr(Plan),
  interval: Schema.NullOr(Interval),
  status: Schema.Literals(["none", "trialing", "active", "past_due", "canceled"]),
  payment_method: Schema.Boolean.annotate({ description: "Whether the processor holds a payment method (a customer exists)." }),
  trial_ends_on: Schema.NullOr(DateString),
  current_period_ends_on: Schema.NullOr(DateString),
  grace_ends_on: Schema.NullOr(DateString),
  cancel_at_period_end: Schema.Boolean,
  scheduled_change: Schema.NullOr(Schema.Struct({ plan: Plan, interval: Interval, effective_on: DateString })),
  read_only: Schema.Boolean,
  feed_accounts: Schema.Int,
  crypto_addon: Schema.Boolean,
  overage_cap_cents: Schema.Int,
  usage: Schema.Struct({ feed_accounts_included: Schema.NullOr(Schema.Int), feed_accounts_extra: Schema.Int, ai_transactions_this_period: Schema.Int }),
  invoices: Schema.Array(Schema.Struct({ amount_cents: Schema.Int, description: Schema.String, created_at: Timestamp })),
  prices: Schema.Array(Price)
}).annotate({ identifier: "Billing" })
export type Billing = typeof Billing.Type

const write = <const Id extends string, B extends Schema.Top, S extends Schema.Top>(id: Id, path: string, summary: string, body: B, success: S, errors: ReadonlyArray<string> = []) =>
  Operation.make({
    id,
    method: "POST",
    path,
    area,
    summary,
    description: "For the company's own owner or CPA signed in, with a step-up within 10 minutes (agents, AI apps and firm members refused; any API key refused `session_required`); not an MCP tool. On a deployment without a billing processor, 503 `billing_not_configured`.",
    scope: "admin",
    mode: "-",
    peopleOnly: true,
    signedIn: true,
    mcpTool: false,
    body,
    success,
    errors: [...groupErrors, "step_up_required", ...(errors as ReadonlyArray<never>)]
  })

export const getBilling = Operation.make({
  id: "getBilling",
  method: "GET",
  path: "/v1/billing",
  area,
  summary: "The plan, payment method, trial and grace dates, read-only flag, usage, invoices and prices.",
  scope: "read",
  mode: "R",
  success: Billing
})

const Hosted = Schema.Struct({ url: Schema.String, session_id: Schema.NullOr(Schema.String) })

export const startBillingCheckout = write("startBillingCheckout", "/v1/billing/checkout", "A hosted checkout at the processor for a plan (14-day trial the first time). The plan starts when the processor confirms.",
  Schema.Struct({ plan: Plan, interval: Interval, feed_accounts: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 500 }))) }), Hosted)

export const openBillingPortal = write("openBillingPortal", "/v1/billing/portal", "The processor's hosted portal: payment method and receipts.", NoFields, Hosted, ["billing_no_subscription"])

export const PlanChange = Schema.Struct({
  change: Schema.Literals(["trial", "upgrade", "downgrade", "none"]),
  effective: Schema.Literals(["now", "period_end"]),
  charged_now_cents: Schema.Int.annotate({ description: "The prorated difference the processor charges now (upgrades)." }),
  billing: Billing
})

export const changeBillingPlan = write("changeBillingPlan", "/v1/billing/plan",
  "Upgrades and monthly to annual at once with the difference charged; downgrades and annual to monthly at period end; during a trial at once and free.",
  Schema.Struct({ plan: Plan, interval: Interval }), PlanChange, ["billing_no_subscription"])

export const cancelBilling = write("cancelBilling", "/v1/billing/cancel", "Cancel at period end (true) or keep (false). After the period the books are read-only; exports always work.",
  Schema.Struct({ cancel: Schema.Boolean }), Billing, ["billing_no_subscription"])

export const setBillingFeedAccounts = write("setBillingFeedAccounts", "/v1/billing/feed-accounts", "Bank-feed accounts paid for beyond the plan's ($2 a month each).",
  Schema.Struct({ quantity: Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 500 })) }), Billing, ["billing_no_subscription"])

export const setBillingCryptoAddon = write("setBillingCryptoAddon", "/v1/billing/crypto-addon", "The crypto add-on ($12 a month) on or off. Without billing (`billing: \"not_configured\"`) it is always on and this answers 503 `billing_not_configured`.",
  Schema.Struct({ on: Schema.Boolean }), Billing, ["billing_no_subscription"])

export const setBillingOverageCap = write("setBillingOverageCap", "/v1/billing/overage-cap", "The most AI-transaction overage a period may bill ($0.01 each); 0: none beyond the quota.",
  Schema.Struct({ cap_cents: Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 100_000_00 })) }), Billing)

export const syncBilling = write("syncBilling", "/v1/billing/sync", "Read a finished checkout (or the subscription) from the processor now, without waiting for its event.",
  Schema.Struct({ session_id: Schema.optionalKey(Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200))) }), Billing)

export const startLicenseCheckout = write("startLicenseCheckout", "/v1/billing/license/checkout", "A hosted checkout for the self-host license ($399 a year per company).", NoFields, Hosted)

export const operations = [getBilling, startBillingCheckout, openBillingPortal, changeBillingPlan, cancelBilling, setBillingFeedAccounts,
  setBillingCryptoAddon, setBillingOverageCap, syncBilling, startLicenseCheckout] as const

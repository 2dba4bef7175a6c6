import { Effect, Option } from "effect"
import { ApiError } from "@ledger/api"
import { PaymentProcessor } from "../ports/PaymentProcessor.ts"

/**
 * What a company may use besides its plan (DECISIONS "Deployments without billing", ADR 2000):
 * billing applies only where a payment processor is configured. A deployment without one (a
 * self-hosted server, an embedded engine, the testkit without the fake processor) has every plan
 * feature and add-on on for every company: the crypto add-on, unlimited bank-feed accounts, no
 * AI-transaction quota. Other areas ask here rather than read the plan's limits themselves, so
 * nothing is locked behind a processor that is not there.
 */

/** Whether billing applies on this deployment (a payment processor is configured). */
export const applies: Effect.Effect<boolean> = Effect.map(
  Effect.serviceOption(PaymentProcessor),
  (port) => Option.isSome(port) && port.value.configured
)

/** Whether the company has the crypto add-on: always without billing, else its plan or add-on. */
export const cryptoAddon = Effect.fn("Entitlements.cryptoAddon")(function*(stored: { readonly plan: string | undefined; readonly addon: boolean }) {
  if (!(yield* applies)) return true
  return stored.plan === "owned" || stored.addon
})

/** The plan's linked bank-feed accounts at once; null (no limit) without billing. */
export const feedAccountsLimit = Effect.fn("Entitlements.feedAccountsLimit")(function*(planLimit: number | null) {
  return (yield* applies) ? planLimit : null
})

/** Billing's writes without a processor: 503 `billing_not_configured` before anything else. */
export const requireBilling: Effect.Effect<void, ApiError.LedgerError> = Effect.gen(function*() {
  if (yield* applies) return
  return yield* Effect.fail(ApiError.fail(
    "billing_not_configured",
    "Billing is not configured on this deployment (no payment processor, LEDGER_PAYMENTS_URL): every plan feature and add-on is already on.",
    { billing: "not_configured" }
  ))
})

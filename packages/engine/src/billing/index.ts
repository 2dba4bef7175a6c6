import { Billing as BillingApi } from "@ledger/api"
import * as Area from "../pipeline/Area.ts"
import * as BillingHandlers from "./Billing.ts"
import * as ReadOnlyGuard from "./ReadOnlyGuard.ts"

/**
 * Billing of the service's own subscriptions (spec 3-endpoints-b 4.13, docs/billing.md): plans
 * and add-ons bought through the payment processor's hosted checkout, changed through it, and
 * applied to the company only from the processor's verified events or reads.
 */
export const area = Area.make({
  name: "billing",
  operations: BillingApi.operations,
  handlers: BillingHandlers.handlers,
  // A cancelled company's books are read-only (ADR 1805): refused before any handler.
  writeGuards: [ReadOnlyGuard.guard]
})

/**
 * What other areas use: the online-payments event receiver hands platform events here
 * (`Billing.applyEvent`); the read-only check is this area's write guard (`ReadOnlyGuard`).
 */
export * as Billing from "./BillingEvents.ts"
export * as BillingRules from "./BillingRules.ts"
/** What a company may use: everything where billing does not apply (ADR 2000). */
export * as Entitlements from "./Entitlements.ts"

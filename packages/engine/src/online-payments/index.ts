import { OnlinePayments } from "@ledger/api"
import * as Area from "../pipeline/Area.ts"
import * as Charges from "./Charges.ts"
import * as Events from "./Events.ts"
import * as PayPage from "./PayPage.ts"
import * as Payouts from "./Payouts.ts"
import * as Settings from "./Settings.ts"

/**
 * Online payments of invoices (spec 3-endpoints-b 4.12, docs/online-payments.md): the processor
 * account and its onboarding, pay links and the public pay page, charges booked as the invoice's
 * payment with the fee, refunds, disputes, payouts reconciled to their bank line, and the
 * processor's signed events, each applied once.
 */
export const area = Area.make({
  name: "online-payments",
  operations: OnlinePayments.operations,
  handlers: [...Settings.handlers, ...Charges.handlers, ...Payouts.handlers, ...PayPage.handlers, ...Events.handlers]
})

/** The pure rules, for tests and other packages. */
export * as PaymentRules from "./PaymentRules.ts"

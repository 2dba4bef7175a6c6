import * as Charges from "./Charges.ts"
import * as PayPage from "./PayPage.ts"
import * as Payouts from "./Payouts.ts"
import * as Settings from "./Settings.ts"

/** Online payments of invoices (spec 3-endpoints-b 4.12): settings, onboarding, sync, charges, refunds, payouts, pay links and pages, processor events. */
export * as Charges from "./Charges.ts"
export * as PayPage from "./PayPage.ts"
export * as Payouts from "./Payouts.ts"
export * as Settings from "./Settings.ts"

export const operations = [...Settings.operations, ...Charges.operations, ...Payouts.operations, ...PayPage.operations] as const

import * as Billing from "./Billing.ts"

/** Billing of the service's own subscriptions (spec 3-endpoints-b 4.13). */
export * as Billing from "./Billing.ts"

export const operations = Billing.operations

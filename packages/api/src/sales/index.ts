import * as Aging from "./Aging.ts"
import * as Contacts from "./Contacts.ts"
import * as Documents from "./Documents.ts"
import * as Email from "./Email.ts"
import * as Estimates from "./Estimates.ts"
import * as Items from "./Items.ts"
import * as Payments from "./Payments.ts"
import * as Recurring from "./Recurring.ts"
import * as SalesTax from "./SalesTax.ts"

export * as Aging from "./Aging.ts"
export * as Contacts from "./Contacts.ts"
export * as Documents from "./Documents.ts"
export * as Email from "./Email.ts"
export * as Estimates from "./Estimates.ts"
export * as Items from "./Items.ts"
export * as Payments from "./Payments.ts"
export * as Recurring from "./Recurring.ts"
export * as SalesTax from "./SalesTax.ts"
export * as Shared from "./Shared.ts"

/** The sales area's operations, added to the catalog. */
export const operations = [
  ...Contacts.operations,
  ...Items.operations,
  ...Documents.operations,
  ...Payments.operations,
  ...Estimates.operations,
  ...Recurring.operations,
  ...Email.operations,
  ...SalesTax.operations,
  ...Aging.operations
] as const

/** The events the area emits (ADR 2010), gathered by `Events.ts`. */
export { events } from "./Events.ts"

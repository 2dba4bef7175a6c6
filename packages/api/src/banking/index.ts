import * as BankAccounts from "./BankAccounts.ts"
import * as BankFeeds from "./BankFeeds.ts"
import * as BankLines from "./BankLines.ts"
import * as Reconciliations from "./Reconciliations.ts"

export * as BankAccounts from "./BankAccounts.ts"
export * as BankFeeds from "./BankFeeds.ts"
export * as BankLines from "./BankLines.ts"
export * as Reconciliations from "./Reconciliations.ts"
export * as Records from "./Records.ts"

/** The banking area's operations (spec 4.5 and 4.6), added to the catalog. */
export const operations = [
  ...BankAccounts.operations,
  ...BankLines.operations,
  ...BankFeeds.operations,
  ...Reconciliations.operations
] as const

/** The events the area emits (ADR 2010), gathered by `Events.ts`. */
export { events } from "./Events.ts"

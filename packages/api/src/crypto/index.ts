import * as Lots from "./Lots.ts"
import * as Receipts from "./Receipts.ts"
import * as Settings from "./Settings.ts"
import * as Valuations from "./Valuations.ts"
import * as Wallets from "./Wallets.ts"

export * as Limits from "./Limits.ts"
export * as Lots from "./Lots.ts"
export * as Receipts from "./Receipts.ts"
export * as Settings from "./Settings.ts"
export * as Shared from "./Shared.ts"
export * as Valuations from "./Valuations.ts"
export * as Wallets from "./Wallets.ts"

/** Crypto receipts (spec 3-endpoints-b 4.11): 20 operations and two the spec leaves "not shown" (a quote and its read). */
export const operations = [
  ...Settings.operations,
  ...Wallets.operations,
  ...Lots.operations,
  ...Receipts.operations,
  ...Valuations.operations
] as const

/** The events the area emits (ADR 2010), gathered by `Events.ts`. */
export { events } from "./Events.ts"

/** Estimated taxes (spec 3-endpoints-b 4.10): the quarterly plan, payments and their voids. */
import * as EstimatedTaxes from "./EstimatedTaxes.ts"

export * as EstimatedTaxes from "./EstimatedTaxes.ts"
export const operations = [...EstimatedTaxes.operations] as const

/** The events the area emits (ADR 2010), gathered by `Events.ts`. */
export { events } from "./Events.ts"

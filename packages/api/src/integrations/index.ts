import * as Connections from "./Connections.ts"
import * as Mappings from "./Mappings.ts"

export * as Connections from "./Connections.ts"
export * as Mappings from "./Mappings.ts"

/** Integrations (spec 3-endpoints-b 4.2): sales flowing in from the tools a business already uses. */
export const operations = [...Connections.operations, ...Mappings.operations] as const

/** The events the area emits (ADR 2010), gathered by `Events.ts`. */
export { events } from "./Events.ts"

import * as Deliveries from "./Deliveries.ts"
import * as Endpoints from "./Endpoints.ts"

/** Webhooks (spec 3-endpoints-b 4.15): endpoints, deliveries and the event feed. */
export * as Deliveries from "./Deliveries.ts"
export * as Endpoints from "./Endpoints.ts"
export * as Shared from "./Shared.ts"

export const operations = [...Endpoints.operations, ...Deliveries.operations] as const

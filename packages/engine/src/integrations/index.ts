import { Integrations } from "@ledger/api"
import * as Area from "../pipeline/Area.ts"
import * as Connections from "./Connections.ts"
import * as Mappings from "./Mappings.ts"
import * as Sync from "./Sync.ts"

/**
 * Integrations (spec 3-endpoints-b 4.2): sales flowing in from payment processors and storefronts.
 * Connections by OAuth 2.0 with PKCE, each with its own agent, clearing account and mapping; sync
 * runs write every synced object once through the governed path (docs/integrations.md).
 */
export const area = Area.make({
  name: "integrations",
  operations: Integrations.operations,
  handlers: [...Connections.handlers, ...Mappings.handlers, ...Sync.handlers],
  proposalKinds: { integration_sale: Sync.proposal },
  jobKinds: Sync.jobKinds,
  events: Integrations.events
})

export * as MappingRules from "./MappingRules.ts"

import { Integrations } from "@ledger/api"
import * as Area from "../pipeline/Area.ts"

/** Integrations (spec 3-endpoints-b 4.2): a handler for every operation the api's integrations area declares. */
export const area = Area.make({
  name: "integrations",
  operations: Integrations.operations,
  handlers: []
})

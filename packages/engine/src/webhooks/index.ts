import { Webhooks } from "@ledger/api"
import * as Area from "../pipeline/Area.ts"

/** Webhooks (spec 3-endpoints-b 4.15): a handler for every operation the api's webhooks area declares. */
export const area = Area.make({
  name: "webhooks",
  operations: Webhooks.operations,
  handlers: []
})

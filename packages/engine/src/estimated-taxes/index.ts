import { EstimatedTaxes } from "@ledger/api"
import * as Area from "../pipeline/Area.ts"

/** Estimated taxes (spec 3-endpoints-b 4.10): a handler for every operation the api's estimated-taxes area declares. */
export const area = Area.make({
  name: "estimated-taxes",
  operations: EstimatedTaxes.operations,
  handlers: []
})

import { Tax } from "@ledger/api"
import * as Area from "../pipeline/Area.ts"

/** Tax returns: mapping and export (spec 3-endpoints-b 4.6): a handler for every operation the api's tax area declares. */
export const area = Area.make({
  name: "tax",
  operations: Tax.operations,
  handlers: []
})

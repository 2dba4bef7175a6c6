import { TaxForms } from "@ledger/api"
import * as Area from "../pipeline/Area.ts"

/** Information returns, 1099 forms (spec 3-endpoints-b 4.7): a handler for every operation the api's taxforms area declares. */
export const area = Area.make({
  name: "taxforms",
  operations: TaxForms.operations,
  handlers: []
})

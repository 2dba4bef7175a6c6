import { Receipts } from "@ledger/api"
import * as Area from "../pipeline/Area.ts"

/** Receipts and the receipt inbox (spec 3-endpoints-b 4.1): a handler for every operation the api's receipts area declares. */
export const area = Area.make({
  name: "receipts",
  operations: Receipts.operations,
  handlers: []
})

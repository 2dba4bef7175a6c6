import { Crypto } from "@ledger/api"
import * as Area from "../pipeline/Area.ts"

/** Crypto receipts (spec 3-endpoints-b 4.11): a handler for every operation the api's crypto area declares. */
export const area = Area.make({
  name: "crypto",
  operations: Crypto.operations,
  handlers: []
})

import { Mileage } from "@ledger/api"
import * as Area from "../pipeline/Area.ts"

/** Mileage (spec 3-endpoints-b 4.9): a handler for every operation the api's mileage area declares. */
export const area = Area.make({
  name: "mileage",
  operations: Mileage.operations,
  handlers: []
})

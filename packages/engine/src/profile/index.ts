import { Profile } from "@ledger/api"
import * as Area from "../pipeline/Area.ts"

/** The company profile (spec 3-endpoints-b 4.5): a handler for every operation the api's profile area declares. */
export const area = Area.make({
  name: "profile",
  operations: Profile.operations,
  handlers: []
})

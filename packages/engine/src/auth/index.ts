import { Auth } from "@ledger/api"
import * as Area from "../pipeline/Area.ts"

/** Sign-in and security (spec 3-endpoints-b 4.14): a handler for every operation the api's auth area declares. */
export const area = Area.make({
  name: "auth",
  operations: Auth.operations,
  handlers: []
})

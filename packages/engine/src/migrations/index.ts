import { Migrations } from "@ledger/api"
import * as Area from "../pipeline/Area.ts"

/** Migrations from other bookkeeping products (spec 3-endpoints-b 4.16): a handler for every operation the api's migrations area declares. */
export const area = Area.make({
  name: "migrations",
  operations: Migrations.operations,
  handlers: []
})

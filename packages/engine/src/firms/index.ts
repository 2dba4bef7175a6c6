import { Firms } from "@ledger/api"
import * as Area from "../pipeline/Area.ts"

/**
 * Firms (spec 4.3): accounting firms that keep the books of many companies. Empty for now: each
 * operation the api's firms area declares fails the type check here until its handler is added.
 */
export const area = Area.make({
  name: "firms",
  operations: Firms.operations,
  handlers: []
})

import { Migrations } from "@ledger/api"
import * as Area from "../pipeline/Area.ts"
import * as Desktop from "./Desktop.ts"
import * as Imports from "./Imports.ts"
import * as Online from "./Online.ts"

/**
 * Migrations (spec 3-endpoints-b 4.16): whole books from the desktop edition (its Web Connector
 * and qbXML, WebConnector.ts) and the online edition (its REST API, the OnlineBooks port), each
 * extraction tied out before and after import (docs/migrations.md).
 */
export const area = Area.make({
  name: "migrations",
  operations: Migrations.operations,
  handlers: [...Desktop.handlers, ...Imports.handlers, ...Online.handlers]
})

export * as Qbxml from "./Qbxml.ts"
export * as Staging from "./Staging.ts"
export * as TieoutRules from "./TieoutRules.ts"
export * as WebConnector from "./WebConnector.ts"

import { Administration } from "@ledger/api"
import * as Area from "../pipeline/Area.ts"
import * as ApiKeys from "./ApiKeys.ts"
import * as AuditLog from "./AuditLog.ts"
import * as Companies from "./Companies.ts"
import * as Meta from "./Meta.ts"
import * as People from "./People.ts"

/** Companies, their people and agents, API keys, the audit log, and the server's meta operations. */
export const area = Area.make({
  name: "administration",
  operations: Administration.operations,
  handlers: [...Meta.handlers, ...Companies.handlers, ...People.handlers, ...ApiKeys.handlers, ...AuditLog.handlers],
  servedByTheServer: ["getOpenApi", "postMcp"]
})

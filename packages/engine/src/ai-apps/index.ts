import { AiApps } from "@ledger/api"
import * as Area from "../pipeline/Area.ts"
import * as Connections from "./Connections.ts"

/** AI apps: OAuth connections of MCP clients (spec 3-endpoints-b 4.3): a handler for every operation the api's ai-apps area declares. */
export const area = Area.make({
  name: "ai-apps",
  operations: AiApps.operations,
  handlers: [...Connections.handlers]
})

export * as OAuth from "./OAuth.ts"
export * as ConnectionRules from "./ConnectionRules.ts"

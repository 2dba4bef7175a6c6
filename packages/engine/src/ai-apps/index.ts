import { AiApps } from "@ledger/api"
import * as Area from "../pipeline/Area.ts"
import * as AccessToken from "./AccessToken.ts"
import * as Connections from "./Connections.ts"
import * as PostingLimits from "./PostingLimits.ts"

/** AI apps: OAuth connections of MCP clients (spec 3-endpoints-b 4.3): a handler for every operation the api's ai-apps area declares. */
export const area = Area.make({
  name: "ai-apps",
  operations: AiApps.operations,
  handlers: [...Connections.handlers],
  // A `post` app's daily cap and allowed accounts, in the posting's transaction (ADR 1702).
  postingLimits: [PostingLimits.limit],
  // An AI app's access token, on the company door (AccessToken.ts).
  credentialStrategies: [AccessToken.strategy]
})

export * as OAuth from "./OAuth.ts"
export * as ConnectionRules from "./ConnectionRules.ts"
export * as ClientDocuments from "./ClientDocuments.ts"

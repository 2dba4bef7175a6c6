import { Schema } from "effect"
import { CompanyId, Id, NonNegativeCents, Page, PageQuery, Reason, Timestamp } from "../Common.ts"
import * as Operation from "../Operation.ts"

/** AI app connections (spec 3-endpoints-b 4.3, concepts 5.6): a person's approval of an MCP client's OAuth request. */

const area = "4.3 AI apps"
const IdPath = Schema.Struct({ id: Id })

export const Level = Schema.Literals(["read", "suggest", "post"]).annotate({
  description: "read: reads only; suggest: every write becomes a proposal; post: posts within the caps, otherwise proposes."
})
export type Level = typeof Level.Type

const AccountCode = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(20))
const AccountCodes = Schema.Array(AccountCode).check(Schema.isMaxLength(200)).annotate({
  description: "The accounts the app may post to (omitted: any); an entry touching another account is refused."
})
const Text = (max: number) => Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(max))

export const AiConnection = Schema.Struct({
  id: Id,
  kind: Schema.Literals(["company", "firm"]),
  company_id: Schema.NullOr(Schema.String),
  firm_id: Schema.NullOr(Schema.Int),
  company_ids: Schema.Array(Schema.String),
  client_id: Schema.String,
  client_name: Schema.NullOr(Schema.String),
  agent_id: Schema.NullOr(Schema.Int),
  level: Level,
  per_entry_cap_cents: Schema.NullOr(Schema.Int),
  daily_cap_cents: Schema.NullOr(Schema.Int),
  account_codes: Schema.NullOr(Schema.Array(Schema.String)),
  resource: Schema.String,
  scopes: Schema.Array(Schema.String),
  status: Schema.Literals(["active", "disconnected"]),
  created_at: Timestamp,
  level_changed_at: Schema.NullOr(Timestamp),
  disconnected_at: Schema.NullOr(Timestamp),
  disconnect_reason: Schema.NullOr(Schema.String)
}).annotate({ identifier: "AiConnection" })
export type AiConnection = typeof AiConnection.Type

const levelFields = {
  per_entry_cap_cents: Schema.optionalKey(NonNegativeCents),
  daily_cap_cents: Schema.optionalKey(NonNegativeCents),
  account_codes: Schema.optionalKey(AccountCodes)
}

export const ConnectBody = Schema.Struct({
  client_id: Text(2000),
  redirect_uri: Text(2000),
  code_challenge: Schema.String.check(Schema.isMinLength(43), Schema.isMaxLength(128)),
  code_challenge_method: Schema.String,
  resource: Schema.optionalKey(Text(2000)),
  scope: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(500))),
  state: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(500))),
  level: Schema.optionalKey(Level),
  ...levelFields
})

export const Approval = Schema.Struct({
  connection: AiConnection,
  code: Schema.String,
  redirect_to: Schema.String.annotate({ description: "The redirect URI with code (and state) to send the browser to." }),
  expires_at: Timestamp
}).annotate({ identifier: "AiConnectionApproval" })

const connectErrors = ["invalid_client", "invalid_redirect_uri", "invalid_code_challenge", "equity_account_refused", "step_up_required"] as const

export const createAiConnection = Operation.make({
  id: "createAiConnection",
  method: "POST",
  path: "/v1/ai-connections",
  area,
  summary: "Approve an AI app's authorization request (the consent screen): creates its agent and connection, returns the code.",
  scope: "admin",
  mode: "K",
  peopleOnly: true,
  browserSessionOnly: true,
  mcpTool: false,
  body: ConnectBody,
  success: Approval,
  errors: [...connectErrors]
})

export const listAiConnections = Operation.make({
  id: "listAiConnections",
  method: "GET",
  path: "/v1/ai-connections",
  area,
  summary: "The company's AI app connections and the firm connections reaching it.",
  scope: "read",
  mode: "R",
  peopleOnly: true,
  query: Schema.Struct({ include_ended: Schema.optionalKey(Schema.Boolean), ...PageQuery }),
  success: Page(AiConnection)
})

export const getAiConnection = Operation.make({
  id: "getAiConnection",
  method: "GET",
  path: "/v1/ai-connections/{id}",
  area,
  summary: "One AI app connection.",
  scope: "read",
  mode: "R",
  peopleOnly: true,
  pathParams: IdPath,
  success: AiConnection
})

const LevelBody = Schema.Struct({ level: Level, ...levelFields })

export const changeAiConnectionLevel = Operation.make({
  id: "changeAiConnectionLevel",
  method: "POST",
  path: "/v1/ai-connections/{id}/level",
  area,
  summary: "Change an app's level and caps; its live access tokens end, so the next refresh carries the new level.",
  scope: "admin",
  mode: "K",
  status: 200,
  peopleOnly: true,
  pathParams: IdPath,
  body: LevelBody,
  success: AiConnection,
  errors: ["connection_ended", "equity_account_refused", "step_up_required"]
})

const DisconnectBody = Schema.Struct({ reason: Reason })

export const disconnectAiConnection = Operation.make({
  id: "disconnectAiConnection",
  method: "POST",
  path: "/v1/ai-connections/{id}/disconnect",
  area,
  summary: "Disconnect an app, finally: its agent, access and refresh tokens end at once.",
  scope: "admin",
  mode: "K",
  status: 200,
  peopleOnly: true,
  pathParams: IdPath,
  body: DisconnectBody,
  success: AiConnection,
  errors: ["connection_ended"]
})

export const createFirmAiConnection = Operation.make({
  id: "createFirmAiConnection",
  method: "POST",
  path: "/v1/firm/ai-connections",
  area,
  summary: "A firm admin approves an AI app for listed clients: one agent per client at the level.",
  credential: "firm",
  scope: "admin",
  mode: "K",
  peopleOnly: true,
  browserSessionOnly: true,
  mcpTool: false,
  body: Schema.Struct({ ...ConnectBody.fields, company_ids: Schema.Array(CompanyId).check(Schema.isMinLength(1), Schema.isMaxLength(100)) }),
  success: Approval,
  errors: [...connectErrors, "firm_access_required"]
})

export const listFirmAiConnections = Operation.make({
  id: "listFirmAiConnections",
  method: "GET",
  path: "/v1/firm/ai-connections",
  area,
  summary: "The firm's AI app connections.",
  credential: "firm",
  scope: "read",
  mode: "R",
  peopleOnly: true,
  query: Schema.Struct({ include_ended: Schema.optionalKey(Schema.Boolean), ...PageQuery }),
  success: Page(AiConnection)
})

export const changeFirmAiConnectionLevel = Operation.make({
  id: "changeFirmAiConnectionLevel",
  method: "POST",
  path: "/v1/firm/ai-connections/{id}/level",
  area,
  summary: "Change a firm app's level and caps in every client.",
  credential: "firm",
  scope: "admin",
  mode: "K",
  status: 200,
  peopleOnly: true,
  pathParams: IdPath,
  body: LevelBody,
  success: AiConnection,
  errors: ["connection_ended", "equity_account_refused", "step_up_required"]
})

export const disconnectFirmAiConnection = Operation.make({
  id: "disconnectFirmAiConnection",
  method: "POST",
  path: "/v1/firm/ai-connections/{id}/disconnect",
  area,
  summary: "Disconnect a firm app, finally, in every client.",
  credential: "firm",
  scope: "admin",
  mode: "K",
  status: 200,
  peopleOnly: true,
  pathParams: IdPath,
  body: DisconnectBody,
  success: AiConnection,
  errors: ["connection_ended"]
})

import { Schema } from "effect"
import { Id, Page, PageQuery, Reason, Timestamp } from "../Common.ts"
import * as Operation from "../Operation.ts"
import { area, Consent, ProviderInfo, providers, Text } from "./Consents.ts"

/** The section 7216 requirement, the provider registry, agents' AI providers and the 7216 log (spec 4.4). */

const IdPath = Schema.Struct({ id: Id })

export const listAiProviders = Operation.make({
  id: "listAiProviders",
  method: "GET",
  path: "/v1/ai-providers",
  area,
  summary: "The AI provider registry, with location and data-handling notes.",
  scope: "read",
  mode: "R",
  peopleOnly: true,
  success: Schema.Struct({ providers: Schema.Array(ProviderInfo) })
})

export const Agent7216 = Schema.Struct({
  agent_id: Id,
  name: Schema.String,
  kind: Schema.Literals(["agent", "ai_app"]),
  ai_provider: Schema.NullOr(Schema.String),
  ai_provider_name: Schema.NullOr(Schema.String),
  ai_model_family: Schema.NullOr(Schema.String),
  can_read: Schema.Boolean,
  covered: Schema.Boolean
})

export const Settings7216 = Schema.Struct({
  required: Schema.Boolean,
  firm_required: Schema.NullOr(Schema.Boolean),
  effective_required: Schema.Boolean,
  firms: Schema.Array(Schema.Struct({ firm_id: Schema.Int, firm_required: Schema.NullOr(Schema.Boolean) })),
  agents: Schema.Array(Agent7216),
  consents: Schema.Array(Consent),
  registry: Schema.Array(ProviderInfo),
  updated_at: Schema.NullOr(Timestamp)
}).annotate({ identifier: "Ai7216" })

export const getAi7216 = Operation.make({
  id: "getAi7216",
  method: "GET",
  path: "/v1/company/ai-7216",
  area,
  summary: "Section 7216 requirement state, each agent and app with its provider, consents and the registry.",
  scope: "read",
  mode: "R",
  peopleOnly: true,
  success: Settings7216
})

export const setAi7216 = Operation.make({
  id: "setAi7216",
  method: "POST",
  path: "/v1/company/ai-7216",
  area,
  summary: "Turn the company's 7216 consent requirement on or off (off in a browser session needs a recent step-up).",
  scope: "admin",
  mode: "-",
  status: 200,
  peopleOnly: true,
  body: Schema.Struct({
    required: Schema.Boolean.annotate({ description: "Require a signed consent before agents and AI apps read tax data." }),
    firm_required: Schema.optionalKey(Schema.NullOr(Schema.Boolean).annotate({ description: "The requirement for firms' agents; null follows the firm-wide setting." })),
    reason: Schema.optionalKey(Reason)
  }),
  success: Settings7216,
  errors: ["step_up_required"]
})

export const LogEntry = Schema.Struct({
  id: Id,
  at: Timestamp,
  event: Schema.String,
  consent_id: Schema.NullOr(Schema.Int),
  agent_id: Schema.NullOr(Schema.Int),
  actor: Schema.String,
  detail: Schema.Unknown
}).annotate({ identifier: "Ai7216LogEntry" })

export const getAi7216Log = Operation.make({
  id: "getAi7216Log",
  method: "GET",
  path: "/v1/company/ai-7216-log",
  area,
  summary: "The section 7216 log, oldest first.",
  scope: "read",
  mode: "R",
  peopleOnly: true,
  query: Schema.Struct({ ...PageQuery }),
  success: Page(LogEntry)
})

export const AgentProviderBody = Schema.Struct({
  ai_provider: Schema.Literals([...providers, "self_hosted", "none"]).annotate({ description: "Whose AI the agent sends data to: a registry provider, self_hosted, or none." }),
  ai_provider_name: Schema.optionalKey(Text(200).annotate({ description: "The provider's name, for other or self_hosted." })),
  ai_model_family: Schema.optionalKey(Text(200).annotate({ description: "The model family the agent uses (for the 7216 log)." }))
})

export const setAgentAiProvider = Operation.make({
  id: "setAgentAiProvider",
  method: "POST",
  path: "/v1/agents/{id}/ai-provider",
  area,
  summary: "Declare the AI provider behind an agent. With a consent requirement on, an undeclared agent is kept out.",
  scope: "admin",
  mode: "-",
  status: 200,
  peopleOnly: true,
  pathParams: IdPath,
  body: AgentProviderBody,
  success: Agent7216
})

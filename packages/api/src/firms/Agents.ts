import { Schema } from "effect"
import { CompanyId, Name, Page, PageQuery, Reason } from "../Common.ts"
import * as Operation from "../Operation.ts"
import { area, Assignment, FirmAgent, FirmScopes, IdPath, PostingThresholdCents } from "./Records.ts"

/** Firm agents and their per-client assignments (spec 4.3). */

export const createFirmAgent = Operation.make({
  id: "createFirmAgent",
  method: "POST",
  path: "/v1/firm/agents",
  area,
  summary: "Add a firm agent. It acts in a client only once assigned there, within the client's grant.",
  credential: "firm",
  scope: "admin",
  mode: "K",
  body: Schema.Struct({ name: Name, scopes: FirmScopes }),
  success: FirmAgent
})

export const listFirmAgents = Operation.make({
  id: "listFirmAgents",
  method: "GET",
  path: "/v1/firm/agents",
  area,
  summary: "Firm agents with their client assignments and per-client posting thresholds.",
  credential: "firm",
  scope: "read",
  mode: "R",
  query: Schema.Struct({ include_revoked: Schema.optionalKey(Schema.Boolean), ...PageQuery }),
  success: Page(FirmAgent)
})

export const AssignmentResult = Schema.Struct({
  agent: FirmAgent,
  assignment: Assignment,
  previous_threshold_cents: Schema.NullOr(Schema.Int)
}).annotate({ identifier: "FirmAgentAssigned" })

export const assignFirmAgent = Operation.make({
  id: "assignFirmAgent",
  method: "POST",
  path: "/v1/firm/agents/{id}/assign",
  area,
  summary: "Assign a firm agent to a client (upsert) with its posting threshold there; audited in the client's log.",
  description: "The client must have granted the firm access. The assignment's scopes, when given, narrow the agent's " +
    "scopes in that client; the grant stays the ceiling.",
  credential: "firm",
  scope: "admin",
  mode: "K",
  status: 200,
  pathParams: IdPath,
  body: Schema.Struct({
    company_id: CompanyId,
    posting_threshold_cents: PostingThresholdCents,
    scopes: Schema.optionalKey(FirmScopes)
  }),
  success: AssignmentResult,
  errors: ["firm_access_required", "conflict"]
})

export const unassignFirmAgent = Operation.make({
  id: "unassignFirmAgent",
  method: "POST",
  path: "/v1/firm/agents/{id}/unassign",
  area,
  summary: "Take a firm agent off a client; audited in the client's log.",
  credential: "firm",
  scope: "admin",
  mode: "K",
  status: 200,
  pathParams: IdPath,
  body: Schema.Struct({ company_id: CompanyId, reason: Reason }),
  success: FirmAgent
})

export const revokeFirmAgent = Operation.make({
  id: "revokeFirmAgent",
  method: "POST",
  path: "/v1/firm/agents/{id}/revoke",
  area,
  summary: "Revoke a firm agent: final; its keys end and its assignments go, on the next request.",
  credential: "firm",
  scope: "admin",
  mode: "K",
  status: 200,
  pathParams: IdPath,
  body: Schema.Struct({ reason: Reason }),
  success: FirmAgent,
  errors: ["conflict"]
})

export const operations = [createFirmAgent, listFirmAgents, assignFirmAgent, unassignFirmAgent, revokeFirmAgent] as const

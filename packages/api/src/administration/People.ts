import { Schema } from "effect"
import { Id, Name, Page, PageQuery, Reason, Timestamp } from "../Common.ts"
import * as Operation from "../Operation.ts"
import { Scope } from "../Scope.ts"
import * as Limits from "../Limits.ts"

const area = "4.2 Administration and keys"
const IdPath = Schema.Struct({ id: Id })

export const userRoles = ["owner", "cpa", "accountant", "staff"] as const
export const UserRole = Schema.Literals(userRoles).annotate({
  description: "The company role: owner, cpa, accountant or staff; it sets the most a key of the person may hold."
})
export type UserRole = typeof UserRole.Type

/**
 * A firm's member as the client's people list shows them (spec 4.3: a firm member "appears in
 * every granting client"): read-only, managed by the firm, present while the grant is live.
 */
export const FirmSeat = Schema.Struct({
  firm_id: Id,
  firm_name: Name,
  grant_id: Id,
  read_only: Schema.Literal(true)
}).annotate({ identifier: "FirmSeat" })

export const User = Schema.Struct({
  id: Id,
  name: Name,
  role: Schema.Literals([...userRoles, "admin", "bookkeeper"]).annotate({
    description: "The company role; for a firm's member (`firm` set) the member's firm role: admin, cpa or bookkeeper."
  }),
  scopes: Schema.Array(Scope).annotate({ description: "The most a key of this person may hold (a firm's member: within the grant)." }),
  email: Schema.optionalKey(Schema.NullOr(Schema.String)).annotate({ description: "The person's sign-in address (DECISIONS.md), if any." }),
  firm: Schema.optionalKey(FirmSeat).annotate({ description: "Set for a member of a firm the company granted access: not editable here." }),
  created_at: Timestamp
}).annotate({ identifier: "User" })
export type User = typeof User.Type

export const Scopes = Schema.Array(Scope).check(
  Schema.isMinLength(1),
  Schema.isMaxLength(Limits.scopesCountMax)
).annotate({ description: "What the holder may do: read, propose, approve, admin (each a separate grant)." })

export const PostingThresholdCents = Schema.Int.check(
  Schema.isBetween({ minimum: 0, maximum: Limits.postingThresholdCentsMax })
).annotate({ description: "An agent posts entries at or under this amount; larger ones become proposals." })

export const Agent = Schema.Struct({
  id: Id,
  name: Name,
  scopes: Schema.Array(Scope),
  posting_threshold_cents: Schema.Int,
  owner_user_id: Schema.NullOr(Id),
  status: Schema.Literals(["active", "revoked"]),
  revoked_at: Schema.NullOr(Timestamp),
  revoked_reason: Schema.NullOr(Schema.String),
  ai_provider: Schema.NullOr(Schema.String),
  ai_provider_name: Schema.NullOr(Schema.String),
  ai_model_family: Schema.NullOr(Schema.String),
  created_at: Timestamp
}).annotate({ identifier: "Agent" })
export type Agent = typeof Agent.Type

export const principalTypes = ["user", "agent", "operator", "firm_member", "firm_agent", "ai_app"] as const
export const PrincipalType = Schema.Literals(principalTypes)
export type PrincipalType = typeof PrincipalType.Type

export const createUser = Operation.make({
  id: "createUser",
  method: "POST",
  path: "/v1/users",
  area,
  summary: "Add a person to the company.",
  scope: "admin",
  mode: "K",
  body: Schema.Struct({
    name: Name,
    role: UserRole,
    /** The person's sign-in address (DECISIONS.md: verified by their first email-link sign-in). */
    email: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(254), Schema.isPattern(/^[^\s@]+@[^\s@]+\.[^\s@]+$/u)).annotate({
      description: "The person's sign-in address; verified by their first email-link sign-in."
    }))
  }),
  success: User
})

export const listUsers = Operation.make({
  id: "listUsers",
  method: "GET",
  path: "/v1/users",
  area,
  summary: "The company's people.",
  scope: "read",
  mode: "R",
  query: Schema.Struct({ ...PageQuery }),
  success: Page(User)
})

export const createAgent = Operation.make({
  id: "createAgent",
  method: "POST",
  path: "/v1/agents",
  area,
  summary: "Add an agent: software with scopes and a posting threshold.",
  scope: "admin",
  mode: "K",
  body: Schema.Struct({
    name: Name,
    scopes: Scopes,
    posting_threshold_cents: PostingThresholdCents,
    owner_user_id: Schema.optionalKey(Schema.NullOr(Id))
  }),
  success: Agent
})

export const listAgents = Operation.make({
  id: "listAgents",
  method: "GET",
  path: "/v1/agents",
  area,
  summary: "The company's agents, revoked ones included.",
  scope: "read",
  mode: "R",
  query: Schema.Struct({ ...PageQuery }),
  success: Page(Agent)
})

export const revokeAgent = Operation.make({
  id: "revokeAgent",
  method: "POST",
  path: "/v1/agents/{id}/revoke",
  area,
  summary: "Revoke an agent. Final; all its keys stop on the next request.",
  scope: "admin",
  mode: "K",
  status: 200,
  pathParams: IdPath,
  body: Schema.Struct({ reason: Reason }),
  success: Agent
})

export const operations = [
  createUser,
  listUsers,
  createAgent,
  listAgents,
  revokeAgent
] as const

import { Schema } from "effect"
import { Id, Name, Timestamp } from "../Common.ts"
import { Scope } from "../Scope.ts"
import * as Limits from "../Limits.ts"

export const userRoles = ["owner", "cpa", "accountant", "staff"] as const
export const UserRole = Schema.Literals(userRoles)
export type UserRole = typeof UserRole.Type

export const User = Schema.Struct({
  id: Id,
  name: Name,
  role: UserRole,
  scopes: Schema.Array(Scope).annotate({ description: "The most a key of this person may hold." }),
  created_at: Timestamp
}).annotate({ identifier: "User" })
export type User = typeof User.Type

export const Scopes = Schema.Array(Scope).check(
  Schema.isMinLength(1),
  Schema.isMaxLength(Limits.scopesCountMax)
)

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


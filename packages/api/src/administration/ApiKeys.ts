import { Schema } from "effect"
import { Id, Page, PageQuery, Reason, Timestamp } from "../Common.ts"
import * as Limits from "../Limits.ts"
import * as Operation from "../Operation.ts"
import { Scope } from "../Scope.ts"
import { Scopes } from "./People.ts"

const area = "4.2 Administration and keys"
const IdPath = Schema.Struct({ id: Id })

export const RateLimit = Schema.NullOr(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 100_000 }))).annotate({
  description: "Requests a minute; null means the plan's limit."
})

export const keyStatuses = ["active", "rotating", "revoked", "expired", "rotated"] as const

export const ApiKey = Schema.Struct({
  id: Id,
  prefix: Schema.String.annotate({ description: "The first characters of the secret, to recognise it by." }),
  principal_type: Schema.Literals(["user", "agent"]),
  user_id: Schema.NullOr(Id),
  agent_id: Schema.NullOr(Id),
  scopes: Schema.Array(Scope),
  status: Schema.Literals(keyStatuses),
  expires_at: Timestamp,
  last_used_at: Schema.NullOr(Timestamp),
  rate_limit_rpm: Schema.NullOr(Schema.Int),
  rotated_from_key_id: Schema.NullOr(Id),
  rotated_to_key_id: Schema.NullOr(Id),
  overlap_ends_at: Schema.NullOr(Timestamp).annotate({
    description: "After a rotation: when this (old) key stops working."
  }),
  revoked_at: Schema.NullOr(Timestamp),
  revoked_reason: Schema.NullOr(Schema.String),
  created_at: Timestamp
}).annotate({ identifier: "ApiKey" })
export type ApiKey = typeof ApiKey.Type

/** A key and its secret, returned once (DECISIONS.md: `secret` beside the record). */
export const NewApiKey = Schema.Struct({
  key: ApiKey,
  secret: Schema.String.annotate({ description: "`ldg_` + 43 characters. Shown once; only a hash is stored." })
}).annotate({ identifier: "NewApiKey" })
export type NewApiKey = typeof NewApiKey.Type

export const KeyDays = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: Limits.personKeyDaysMax })).annotate({
  description: `Days until the key expires: default ${Limits.personKeyDaysDefault} for a person, ${Limits.agentKeyDaysDefault} for an agent (at most ${Limits.agentKeyDaysMax}).`
})

export const createKey = Operation.make({
  id: "createKey",
  method: "POST",
  path: "/v1/keys",
  area,
  summary: "Issue an API key for a person or an agent. The secret is shown once.",
  scope: "admin",
  mode: "K",
  body: Schema.Struct({
    principal_type: Schema.Literals(["user", "agent"]).annotate({ description: "Whose key: a person's (user_id) or an agent's (agent_id)." }),
    user_id: Schema.optionalKey(Id),
    agent_id: Schema.optionalKey(Id),
    scopes: Scopes,
    expires_in_days: Schema.optionalKey(KeyDays),
    rate_limit_rpm: Schema.optionalKey(RateLimit)
  }),
  success: NewApiKey
})

export const listKeys = Operation.make({
  id: "listKeys",
  method: "GET",
  path: "/v1/keys",
  area,
  summary: "API keys: admins see every key of the company, others their own. Never secrets.",
  scope: "read",
  mode: "R",
  query: Schema.Struct({
    include_ended: Schema.optionalKey(Schema.Boolean),
    user_id: Schema.optionalKey(Id),
    agent_id: Schema.optionalKey(Id),
    ...PageQuery
  }),
  success: Page(ApiKey)
})

export const getKey = Operation.make({
  id: "getKey",
  method: "GET",
  path: "/v1/keys/{id}",
  area,
  summary: "One API key: admins any key, others their own.",
  scope: "read",
  mode: "R",
  pathParams: IdPath,
  success: ApiKey
})

export const rotateKey = Operation.make({
  id: "rotateKey",
  method: "POST",
  path: "/v1/keys/{id}/rotate",
  area,
  summary: "Rotate a key: a successor with the same holder and scopes; the old secret works until the overlap ends.",
  scope: "read",
  mode: "K",
  pathParams: IdPath,
  body: Schema.Struct({
    overlap_seconds: Schema.optionalKey(
      Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: Limits.rotationOverlapSecondsMax })).annotate({
        description: "How long the old secret keeps working: default 24 hours, at most 7 days, 0 = at once."
      })
    ),
    expires_in_days: Schema.optionalKey(KeyDays),
    rate_limit_rpm: Schema.optionalKey(RateLimit),
    reason: Schema.optionalKey(Reason)
  }),
  success: NewApiKey
})

export const revokeKey = Operation.make({
  id: "revokeKey",
  method: "POST",
  path: "/v1/keys/{id}/revoke",
  area,
  summary: "Revoke a key. Effective on the next request.",
  scope: "admin",
  mode: "K",
  status: 200,
  pathParams: IdPath,
  body: Schema.Struct({ reason: Reason }),
  success: ApiKey
})

export const claimOwnerInvite = Operation.make({
  id: "claimOwnerInvite",
  method: "POST",
  path: "/v1/owner-invites/claim",
  area,
  summary: "Claim an owner invitation (the invitation is the Bearer token) and receive the owner's key once.",
  credential: "invitation",
  scope: "read",
  mode: "K",
  body: Schema.Struct({ expires_in_days: Schema.optionalKey(KeyDays) }),
  success: NewApiKey,
  errors: ["conflict"]
})

export const operations = [
  createKey,
  listKeys,
  getKey,
  rotateKey,
  revokeKey,
  claimOwnerInvite
] as const

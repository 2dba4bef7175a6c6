import { Schema } from "effect"
import { Id, Timestamp } from "../Common.ts"
import { Scope } from "../Scope.ts"

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

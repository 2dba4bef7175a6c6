import { Schema } from "effect"
import { CompanyId, Id, Name, Timestamp } from "../Common.ts"
import { Scope } from "../Scope.ts"
import { PostingThresholdCents } from "../administration/People.ts"
import * as Limits from "./FirmLimits.ts"

/** The records of the firms area (spec 2 "Firm", "Firm grant"; 4.3). */

export const area = "4.3 Firms and firm access"
export const IdPath = Schema.Struct({ id: Id })
export const CompanyPath = Schema.Struct({ id: CompanyId })

export const memberRoles = ["admin", "cpa", "bookkeeper"] as const
export const MemberRole = Schema.Literals(memberRoles).annotate({ description: "The member's firm role: admin, cpa or bookkeeper." })
export type MemberRole = typeof MemberRole.Type

export const Email = Schema.String.check(Schema.isMinLength(3), Schema.isMaxLength(Limits.emailLengthMax), Schema.isPattern(/^[^\s@]+@[^\s@]+$/u))
  .annotate({ description: "The person's sign-in email address." })

export const FirmScopes = Schema.Array(Scope).check(Schema.isMinLength(1), Schema.isMaxLength(4)).annotate({
  description: "What the holder may do in a client: read, propose, approve, admin; the client's grant stays the ceiling."
})

export const Firm = Schema.Struct({
  id: Id,
  name: Name,
  rate_limit_rpm: Schema.NullOr(Schema.Int),
  kill_switch_suspended: Schema.Boolean,
  kill_switch_reason: Schema.NullOr(Schema.String),
  created_at: Timestamp
}).annotate({ identifier: "Firm" })

export const FirmMember = Schema.Struct({
  id: Id,
  firm_id: Id,
  name: Name,
  email: Schema.NullOr(Schema.String),
  role: MemberRole,
  scopes: Schema.Array(Scope).annotate({ description: "What the role holds in a client, before the grant's ceiling." }),
  status: Schema.Literals(["active", "removed"]),
  removed_at: Schema.NullOr(Timestamp),
  removed_reason: Schema.NullOr(Schema.String),
  created_at: Timestamp
}).annotate({ identifier: "FirmMember" })

export const FirmKeyStatus = Schema.Literals(["active", "rotating", "revoked", "expired", "rotated"])

export const FirmKey = Schema.Struct({
  id: Id,
  firm_id: Id,
  prefix: Schema.String,
  principal_type: Schema.Literals(["member", "agent"]),
  member_id: Schema.NullOr(Id),
  firm_agent_id: Schema.NullOr(Id),
  scopes: Schema.Array(Scope),
  status: FirmKeyStatus,
  expires_at: Timestamp,
  last_used_at: Schema.NullOr(Timestamp),
  rate_limit_rpm: Schema.NullOr(Schema.Int),
  rotated_from_key_id: Schema.NullOr(Id),
  rotated_to_key_id: Schema.NullOr(Id),
  overlap_ends_at: Schema.NullOr(Timestamp),
  revoked_at: Schema.NullOr(Timestamp),
  revoked_reason: Schema.NullOr(Schema.String),
  created_at: Timestamp
}).annotate({ identifier: "FirmKey" })

export const NewFirmKey = Schema.Struct({
  key: FirmKey,
  secret: Schema.String.annotate({ description: "`ldg_` + 43 characters. Shown once; only a hash is stored." })
}).annotate({ identifier: "NewFirmKey" })

export const Assignment = Schema.Struct({
  company_id: CompanyId,
  company_name: Schema.String,
  posting_threshold_cents: Schema.Int,
  scopes: Schema.NullOr(Schema.Array(Scope)),
  updated_at: Timestamp
}).annotate({ identifier: "FirmAgentAssignment" })

export const FirmAgent = Schema.Struct({
  id: Id,
  firm_id: Id,
  name: Name,
  scopes: Schema.Array(Scope),
  status: Schema.Literals(["active", "revoked"]),
  revoked_at: Schema.NullOr(Timestamp),
  revoked_reason: Schema.NullOr(Schema.String),
  assignments: Schema.Array(Assignment),
  created_at: Timestamp
}).annotate({ identifier: "FirmAgent" })

export const Billing = Schema.Literals(["firm", "client"]).annotate({ description: "Who pays for the client's plan: the firm or the client (recorded only)." })

export const Grant = Schema.Struct({
  id: Id,
  company_id: CompanyId,
  firm_id: Id,
  firm_name: Schema.String,
  scopes: Schema.Array(Scope),
  billing: Billing,
  reason: Schema.NullOr(Schema.String),
  status: Schema.Literals(["live", "revoked"]),
  granted_by: Schema.String,
  created_at: Timestamp,
  revoked_at: Schema.NullOr(Timestamp),
  revoked_reason: Schema.NullOr(Schema.String),
  revoked_by: Schema.NullOr(Schema.String)
}).annotate({ identifier: "FirmGrant" })

export const Invitation = Schema.Struct({
  id: Id,
  company_id: CompanyId,
  status: Schema.Literals(["pending", "claimed", "replaced", "void"]),
  expires_at: Timestamp,
  created_at: Timestamp
}).annotate({ identifier: "OwnerInvitation" })

export const NewInvitation = Schema.Struct({
  invitation: Invitation,
  secret: Schema.String.annotate({ description: "`ldgi_` + 43 characters: the owner claims with it as Bearer. Shown once." })
}).annotate({ identifier: "NewOwnerInvitation" })

export const FirmSession = Schema.Struct({
  id: Id,
  kind: Schema.Literal("firm"),
  member_id: Id,
  key_id: Schema.NullOr(Id),
  scopes: Schema.Array(Scope),
  via: Schema.Literals(["key", "sign_in"]),
  last_seen_at: Timestamp,
  idle_expires_at: Timestamp,
  expires_at: Timestamp,
  revoked_at: Schema.NullOr(Timestamp),
  created_at: Timestamp
}).annotate({ identifier: "FirmSession" })

export const FirmAuditEvent = Schema.Struct({
  firm_id: Id,
  seq: Schema.Int,
  occurred_at: Timestamp,
  action: Schema.String,
  principal_type: Schema.String,
  principal_id: Schema.NullOr(Schema.String),
  principal_name: Schema.NullOr(Schema.String),
  key_id: Schema.NullOr(Schema.Int),
  company_id: Schema.NullOr(Schema.String),
  target_type: Schema.NullOr(Schema.String),
  target_id: Schema.NullOr(Schema.String),
  reason: Schema.NullOr(Schema.String),
  via: Schema.String,
  details: Schema.Record(Schema.String, Schema.Unknown),
  prev_hash: Schema.String,
  hash: Schema.String
}).annotate({ identifier: "FirmAuditEvent" })

export { PostingThresholdCents }

/** One item's outcome in a batch across clients: its answer, or its refusal, never both. */
export const BatchItemResult = Schema.Struct({
  company_id: Schema.String,
  proposal_id: Schema.optionalKey(Schema.Int),
  ok: Schema.Boolean,
  status: Schema.Int,
  result: Schema.optionalKey(Schema.Unknown),
  error: Schema.optionalKey(Schema.Unknown)
}).annotate({ identifier: "FirmBatchItemResult" })

export const BatchResult = Schema.Struct({
  dry_run: Schema.Boolean,
  succeeded: Schema.Int,
  failed: Schema.Int,
  results: Schema.Array(BatchItemResult)
}).annotate({ identifier: "FirmBatchResult" })

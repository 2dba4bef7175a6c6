import { Schema } from "effect"
import { CompanyId, Id, Page, PageQuery, Timestamp } from "../Common.ts"
import * as Operation from "../Operation.ts"

export const AuditEvent = Schema.Struct({
  id: Id,
  occurred_at: Timestamp,
  action: Schema.String.annotate({ description: "The operation id, or a named change such as `key.used_after_revocation`." }),
  outcome: Schema.Literals(["ok", "refused"]),
  status: Schema.Int,
  error_type: Schema.NullOr(Schema.String),
  principal_type: Schema.String,
  principal_id: Schema.NullOr(Schema.String),
  principal_name: Schema.NullOr(Schema.String),
  key_id: Schema.NullOr(Id),
  agent_model: Schema.NullOr(Schema.String),
  agent_run_id: Schema.NullOr(Schema.String),
  target_type: Schema.NullOr(Schema.String),
  target_id: Schema.NullOr(Schema.String),
  reason: Schema.NullOr(Schema.String),
  via: Schema.Literals(["http", "mcp", "engine"]),
  details: Schema.Record(Schema.String, Schema.Unknown)
}).annotate({ identifier: "AuditEvent" })
export type AuditEvent = typeof AuditEvent.Type

export const listAuditEvents = Operation.make({
  id: "listAuditEvents",
  method: "GET",
  path: "/v1/audit/events",
  area: "Audit",
  summary: "The company's audit log, newest first.",
  scope: "read",
  mode: "R",
  query: Schema.Struct({
    before: Schema.optionalKey(Id).annotate({ description: "Only events older than this event id." }),
    ...PageQuery
  }),
  success: Page(AuditEvent)
})

/** A SHA-256 in lower-case hexadecimal, as the chain stores it. */
export const AuditHash = Schema.String.check(Schema.isPattern(/^[0-9a-f]{64}$/u))

/** What a hash chain's check answers: the company log's here, the firm log's (firms/Audit.ts) the same. */
export const auditVerdictFields = {
  valid: Schema.Boolean,
  events_checked: Schema.Int,
  head_seq: Schema.Int,
  head_hash: Schema.String,
  first_broken_seq: Schema.NullOr(Schema.Int),
  problem: Schema.NullOr(Schema.Literals(["hash_mismatch", "link_broken", "sequence_gap", "head_mismatch", "anchor_mismatch"])),
  message: Schema.String
}

/** A head recorded outside the database (`ledger audit-head`, `ledger firm-audit-head`): both or neither. */
export const auditAnchorQuery = Schema.Struct({
  anchor_seq: Schema.optionalKey(Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)).annotate({
    description: "The seq of a head recorded earlier outside the database; the chain must pass through it."
  })),
  anchor_hash: Schema.optionalKey(AuditHash.annotate({ description: "The hash recorded with `anchor_seq`." }))
})

/** The company log's hash chain (docs/decisions/2310-company-audit-hash-chain.md), verified as the firm log's is. */
export const AuditChainVerdict = Schema.Struct(auditVerdictFields).annotate({ identifier: "AuditChainVerdict" })

export const verifyAuditLog = Operation.make({
  id: "verifyAuditLog",
  method: "GET",
  path: "/v1/audit/verify",
  area: "Audit",
  summary: "Recompute the company log's hash chain; the verdict names the first broken sequence number.",
  scope: "read",
  mode: "R",
  query: auditAnchorQuery,
  success: AuditChainVerdict
})

/** The company log's head, for an operator to record outside the database. */
export const CompanyAuditHead = Schema.Struct({
  company_id: CompanyId,
  head_seq: Schema.Int,
  head_hash: Schema.String,
  as_of: Timestamp
}).annotate({ identifier: "CompanyAuditHead" })

export const getCompanyAuditHead = Operation.make({
  id: "getCompanyAuditHead",
  method: "GET",
  path: "/v1/operator/companies/{id}/audit-head",
  area: "Audit",
  summary: "The company log's head (operator token), to record outside the database and verify against later.",
  credential: "operator",
  scope: "admin",
  mode: "R",
  pathParams: Schema.Struct({ id: CompanyId }),
  success: CompanyAuditHead
})

export const operations = [
  listAuditEvents,
  verifyAuditLog,
  getCompanyAuditHead
] as const

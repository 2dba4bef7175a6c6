import { Schema } from "effect"
import { Id, PageQuery, Timestamp } from "../Common.ts"
import { auditAnchorQuery, auditVerdictFields } from "../administration/AuditLog.ts"
import * as Operation from "../Operation.ts"
import { area, FirmAuditEvent, IdPath } from "./Records.ts"

/** The firm's hash-chained audit log (docs/decisions/0901-firm-audit-hash-chain.md). */

export const AuditVerdict = Schema.Struct(auditVerdictFields).annotate({ identifier: "FirmAuditVerdict" })

export const verifyFirmAudit = Operation.make({
  id: "verifyFirmAudit",
  method: "GET",
  path: "/v1/firm/audit/verify",
  area,
  summary: "Recompute the firm log's hash chain; the verdict names the first broken sequence number.",
  credential: "firm",
  scope: "read",
  mode: "R",
  /** A head recorded outside the database (`ledger firm-audit-head`, ADR 0903): both or neither. */
  query: auditAnchorQuery,
  success: AuditVerdict
})

/** The firm log's head, for an operator to record outside the database (ADR 0903). */
export const FirmAuditHead = Schema.Struct({
  firm_id: Id,
  head_seq: Schema.Int,
  head_hash: Schema.String,
  as_of: Timestamp
}).annotate({ identifier: "FirmAuditHead" })

export const getFirmAuditHead = Operation.make({
  id: "getFirmAuditHead",
  method: "GET",
  path: "/v1/operator/firms/{id}/audit-head",
  area,
  summary: "The firm log's head (operator token), to record outside the database and verify against later.",
  credential: "operator",
  scope: "admin",
  mode: "R",
  pathParams: IdPath,
  success: FirmAuditHead
})

export const listFirmAuditEvents = Operation.make({
  id: "listFirmAuditEvents",
  method: "GET",
  path: "/v1/firm/audit/events",
  area,
  summary: "The firm's audit log, newest first, each event with its hash and its predecessor's.",
  credential: "firm",
  scope: "read",
  mode: "R",
  query: Schema.Struct({
    before_seq: Schema.optionalKey(Schema.Int.check(Schema.isGreaterThanOrEqualTo(1)).annotate({ description: "Only events before this sequence number (newest first)." })),
    ...PageQuery
  }),
  success: Schema.Struct({
    data: Schema.Array(FirmAuditEvent),
    has_more: Schema.Boolean,
    next_cursor: Schema.NullOr(Schema.String),
    next_before_seq: Schema.NullOr(Schema.Int).annotate({ description: "The `before_seq` of the next page (the cursor says the same)." })
  })
})

export const operations = [verifyFirmAudit, listFirmAuditEvents, getFirmAuditHead] as const

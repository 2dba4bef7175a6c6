import { Schema } from "effect"
import { Id, PageQuery, Timestamp } from "../Common.ts"
import * as Operation from "../Operation.ts"
import { area, FirmAuditEvent, IdPath } from "./Records.ts"

/** The firm's hash-chained audit log (docs/decisions/0901-firm-audit-hash-chain.md). */

/** A SHA-256 in lower-case hexadecimal, as the chain stores it. */
const AuditHash = Schema.String.check(Schema.isPattern(/^[0-9a-f]{64}$/u))

export const AuditVerdict = Schema.Struct({
  valid: Schema.Boolean,
  events_checked: Schema.Int,
  head_seq: Schema.Int,
  head_hash: Schema.String,
  first_broken_seq: Schema.NullOr(Schema.Int),
  problem: Schema.NullOr(Schema.Literals(["hash_mismatch", "link_broken", "sequence_gap", "head_mismatch", "anchor_mismatch"])),
  message: Schema.String
}).annotate({ identifier: "FirmAuditVerdict" })

export const verifyFirmAudit = Operation.make({
  id: "verifyFirmAudit",
  method: "GET",
  path: "/v1/firm/audit/verify",
  area,
  summary: "Recompute the firm log's hash chain; the verdict names the first broken sequence number.",
  credential: "firm",
  scope: "read",
  mode: "R",
  query: Schema.Struct({
    /** A head recorded outside the database (`ledger firm-audit-head`, ADR 0903): both or neither. */
    anchor_seq: Schema.optionalKey(Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)).annotate({
      description: "The seq of a head recorded earlier outside the database; the chain must pass through it."
    })),
    anchor_hash: Schema.optionalKey(AuditHash.annotate({ description: "The hash recorded with `anchor_seq`." }))
  }),
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

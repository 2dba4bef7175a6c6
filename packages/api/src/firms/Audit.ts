import { Schema } from "effect"
import { PageQuery } from "../Common.ts"
import * as Operation from "../Operation.ts"
import { area, FirmAuditEvent } from "./Records.ts"

/** The firm's hash-chained audit log (docs/decisions/0901-firm-audit-hash-chain.md). */

export const AuditVerdict = Schema.Struct({
  valid: Schema.Boolean,
  events_checked: Schema.Int,
  head_seq: Schema.Int,
  head_hash: Schema.String,
  first_broken_seq: Schema.NullOr(Schema.Int),
  problem: Schema.NullOr(Schema.Literals(["hash_mismatch", "link_broken", "sequence_gap", "head_mismatch"])),
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
  success: AuditVerdict
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
    before_seq: Schema.optionalKey(Schema.Int.check(Schema.isGreaterThanOrEqualTo(1))),
    ...PageQuery
  }),
  success: Schema.Struct({
    data: Schema.Array(FirmAuditEvent),
    has_more: Schema.Boolean,
    next_cursor: Schema.NullOr(Schema.String),
    next_before_seq: Schema.NullOr(Schema.Int).annotate({ description: "The `before_seq` of the next page (the cursor says the same)." })
  })
})

export const operations = [verifyFirmAudit, listFirmAuditEvents] as const

import { Schema } from "effect"
import { Id, Page, PageQuery, Timestamp } from "../Common.ts"
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

export const operations = [
  listAuditEvents
] as const

import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { Administration, ApiError } from "@ledger/api"
import * as AuditChain from "./AuditChain.ts"
import * as Handler from "../kernel/Handler.ts"
import * as Pagination from "../kernel/Pagination.ts"
import * as Row from "../kernel/Row.ts"
import { requireCompanyId } from "../kernel/CompanyContext.ts"
import { RequestContext } from "../kernel/RequestContext.ts"

const event = (row: Record<string, unknown>) => ({
  id: Row.int(row.id),
  occurred_at: Row.iso(row.occurred_at),
  action: String(row.action),
  outcome: row.outcome as "ok" | "refused",
  status: Row.int(row.status),
  error_type: row.error_type === null ? null : String(row.error_type),
  principal_type: String(row.principal_type),
  principal_id: row.principal_id === null ? null : String(row.principal_id),
  principal_name: row.principal_name === null ? null : String(row.principal_name),
  key_id: Row.intOrNull(row.key_id),
  agent_model: row.agent_model === null ? null : String(row.agent_model),
  agent_run_id: row.agent_run_id === null ? null : String(row.agent_run_id),
  target_type: row.target_type === null ? null : String(row.target_type),
  target_id: row.target_id === null ? null : String(row.target_id),
  reason: row.reason === null ? null : String(row.reason),
  via: row.via as "http" | "mcp" | "engine",
  details: Row.json<Record<string, unknown>>(row.details)
})

export const handlers = [
  Handler.make(Administration.AuditLog.listAuditEvents, ({ query }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const companyId = yield* requireCompanyId
      const limit = Pagination.limitOf(query)
      const cursor = yield* Pagination.afterId(query)
      const before = cursor ?? query.before ?? null
      const rows = yield* sql<Record<string, unknown>>`SELECT * FROM audit_events WHERE company_id = ${companyId}
        ${before === null ? sql`` : sql`AND id < ${before}`} ORDER BY id DESC LIMIT ${limit + 1}`.pipe(Effect.orDie)
      return { body: Pagination.page(rows, limit, (row) => Row.int(row.id), event) }
    })),

  Handler.make(Administration.AuditLog.verifyAuditLog, ({ query }) =>
    Effect.gen(function*() {
      const companyId = yield* requireCompanyId
      const seq = query.anchor_seq ?? null
      const hash = query.anchor_hash ?? null
      if ((seq === null) !== (hash === null)) {
        const missing = seq === null ? "anchor_seq" : "anchor_hash"
        return yield* Effect.fail(ApiError.invalidRequest([{ path: ["query", missing], message: "anchor_seq and anchor_hash go together" }]))
      }
      return { body: yield* AuditChain.verify(companyId, seq === null || hash === null ? null : { seq, hash }) }
    })),

  Handler.make(Administration.AuditLog.getCompanyAuditHead, ({ path }) =>
    Effect.gen(function*() {
      const request = yield* RequestContext
      const head = yield* AuditChain.companyHead(path.id)
      if (head === null) return yield* Effect.fail(ApiError.notFound("company"))
      return { body: { ...head, as_of: request.now } }
    }))
] as const

import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { Administration } from "@ledger/api"
import * as Handler from "../kernel/Handler.ts"
import * as Pagination from "../kernel/Pagination.ts"
import * as Row from "../kernel/Row.ts"
import { requireCompanyId } from "../kernel/CompanyContext.ts"

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
    }))
] as const

import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Integrations } from "@ledger/api"
import * as Handler from "../kernel/Handler.ts"
import { requireCompanyId } from "../kernel/CompanyContext.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Actor from "../kernel/Actor.ts"
import * as ConnectionStore from "./ConnectionStore.ts"
import * as Common from "./Common.ts"
import * as Pagination from "../kernel/Pagination.ts"
import * as Row from "../kernel/Row.ts"

const api = Integrations.Mappings

const requireUsable = Effect.fn("Mappings.requireUsable")(function*(company: string, code: string | null) {
  if (code === null) return
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ active: boolean }>`SELECT active FROM accounts WHERE company_id = ${company} AND code = ${code}`.pipe(Effect.orDie)
  const issues = [{ path: ["body", "account_code"], message: `No active account ${code}` }]
  if (rows[0] === undefined) return yield* Effect.fail(ApiError.fail("unknown_account", `There is no account ${code}.`, { issues }))
  if (rows[0].active !== true) return yield* Effect.fail(ApiError.fail("inactive_account", `The account ${code} is inactive.`, { issues }))
})

/**
 * A mapping's class must exist when it is set (issue 39 item 8): the sync posts every order with
 * it, and an unknown class would fail each of those postings long after the mapping was approved.
 */
const requireClass = Effect.fn("Mappings.requireClass")(function*(company: string, name: string | null) {
  if (name === null) return
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ id: unknown }>`SELECT id FROM classes WHERE company_id = ${company} AND name = ${name}`.pipe(Effect.orDie)
  if (rows[0] !== undefined) return
  return yield* Effect.fail(ApiError.fail("unknown_class", `There is no class named ${JSON.stringify(name.slice(0, 100))}.`, {
    issues: [{ path: ["body", "class_name"], message: `No class ${name.slice(0, 100)}` }]
  }))
})

const setMapping = Handler.make(api.setMapping, ({ path, body }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const request = yield* RequestContext
    const company = yield* requireCompanyId
    const row = yield* ConnectionStore.load(company, path.id, true)
    yield* ConnectionStore.requireLive(row)
    yield* requireUsable(company, body.account_code)
    yield* requireClass(company, body.class_name ?? null)
    yield* sql`INSERT INTO integration_mappings ${sql.insert({
      company_id: company,
      connection_id: path.id,
      kind: body.kind,
      source_key: body.source_key,
      account_code: body.account_code,
      class_name: body.class_name ?? null,
      project_name: body.project_name ?? null,
      updated_at: request.now
    })} ON CONFLICT (company_id, connection_id, kind, source_key) DO UPDATE SET account_code = EXCLUDED.account_code,
      class_name = EXCLUDED.class_name, project_name = EXCLUDED.project_name, updated_at = EXCLUDED.updated_at`.pipe(Effect.orDie)
    // Any change withdraws the approval: a person looks at the mapping again (spec 4.2).
    const updated = yield* sql<Record<string, unknown>>`UPDATE integration_connections SET mapping_approved_at = NULL,
      mapping_approved_by = NULL WHERE company_id = ${company} AND id = ${path.id} RETURNING *`.pipe(Effect.orDie)
    return {
      body: yield* ConnectionStore.mappingsBody(company, updated[0]!),
      audit: { targetType: "integration_connection", targetId: path.id, details: { kind: body.kind, source_key: body.source_key, account_code: body.account_code } }
    }
  }))

const approve = Handler.make(api.approveMappings, ({ path, body }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const request = yield* RequestContext
    const company = yield* requireCompanyId
    const row = yield* ConnectionStore.load(company, path.id, true)
    yield* ConnectionStore.requireLive(row)
    const gaps = ConnectionStore.gapsOf(row, yield* ConnectionStore.mappings(company, path.id))
    if (gaps.length > 0) {
      return yield* Effect.fail(ApiError.fail("integration_mapping_incomplete", `Map these kinds first: ${gaps.join(", ")}.`, { gaps }))
    }
    const updated = yield* sql<Record<string, unknown>>`UPDATE integration_connections SET ${sql.update({
      mapping_approved_at: request.now,
      mapping_approved_by: Actor.reference(request.actor),
      mapping_note: body.note ?? null
    })} WHERE company_id = ${company} AND id = ${path.id} RETURNING *`.pipe(Effect.orDie)
    return {
      body: yield* ConnectionStore.mappingsBody(company, updated[0]!),
      audit: { targetType: "integration_connection", targetId: path.id, reason: body.note ?? null }
    }
  }))

export const handlers = [
  Handler.make(api.listMappings, ({ path, query }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      const body = yield* ConnectionStore.mappingsBody(company, yield* ConnectionStore.load(company, path.id))
      return { body: { ...body, ...(yield* Common.pageOf(body.data, query)) } }
    })),
  setMapping,
  approve,
  Handler.make(api.listSyncRuns, ({ path, query }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const company = yield* requireCompanyId
      yield* ConnectionStore.load(company, path.id)
      const select = (after: number | null, limitPlusOne: number) =>
        sql<Record<string, unknown>>`SELECT * FROM integration_sync_runs WHERE company_id = ${company}
        AND connection_id = ${path.id} ${after === null ? sql`` : sql`AND id < ${after}`} ORDER BY id DESC LIMIT ${limitPlusOne}`.pipe(Effect.orDie)
      return { body: yield* Pagination.listPage(query, select, (row) => Row.int(row.id), ConnectionStore.syncRun) }
    })),
  Handler.make(api.listObjects, ({ path, query }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const company = yield* requireCompanyId
      const connection = yield* ConnectionStore.load(company, path.id)
      // Objects belong to the provider account: a reconnection sees what earlier connections synced.
      const select = (after: number | null, limitPlusOne: number) =>
        sql<Record<string, unknown>>`SELECT * FROM integration_objects WHERE company_id = ${company}
        AND provider = ${String(connection.provider)} AND external_account_id = ${String(connection.external_account_id)}
        ${query.status === undefined ? sql`` : sql`AND status = ${query.status}`}
        ${after === null ? sql`` : sql`AND id < ${after}`} ORDER BY id DESC LIMIT ${limitPlusOne}`.pipe(Effect.orDie)
      return { body: yield* Pagination.listPage(query, select, (row) => Row.int(row.id), ConnectionStore.syncedObject) }
    }))
]

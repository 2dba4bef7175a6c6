import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Firms as FirmsApi } from "@ledger/api"
import * as Handler from "../kernel/Handler.ts"
import * as Pagination from "../kernel/Pagination.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Row from "../kernel/Row.ts"
import * as FirmAudit from "./audit/FirmAudit.ts"
import * as FirmContext from "./FirmContext.ts"
import * as FirmGrantStore from "./FirmGrantStore.ts"
import * as FirmRows from "./FirmRows.ts"
import * as FirmStore from "./FirmStore.ts"

/** Firm agents and their per-client assignments (spec 4.3): thresholds audited in the client's log. */

const api = FirmsApi.Agents
const { FirmLimits } = FirmsApi

const activeAgent = Effect.fn("FirmAgents.activeAgent")(function*(firmId: number, id: number) {
  const row = yield* FirmStore.loadAgentRow(firmId, id, true)
  if (row.status !== "active") return yield* Effect.fail(ApiError.fail("conflict", "The firm agent is revoked."))
  return row
})

export const handlers = [
  Handler.make(api.createFirmAgent, ({ body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const caller = yield* FirmContext.caller(api.createFirmAgent)
      const counted = yield* sql<{ count: unknown }>`SELECT count(*) AS count FROM firm_agents WHERE firm_id = ${caller.firmId}
        AND status = 'active'`.pipe(Effect.orDie)
      if (Row.int(counted[0]!.count) >= FirmLimits.agentsMax) {
        return yield* Effect.fail(ApiError.validationFailed(`A firm has at most ${FirmLimits.agentsMax} active agents.`))
      }
      const rows = yield* sql<Record<string, unknown>>`INSERT INTO firm_agents ${sql.insert({
        firm_id: caller.firmId,
        name: body.name,
        scopes: JSON.stringify(Array.from(new Set(body.scopes))),
        created_at: request.now
      })} RETURNING *`.pipe(Effect.orDie)
      const agent = FirmRows.agent(rows[0]!, [])
      yield* FirmAudit.append(caller.firmId, { action: "createFirmAgent", targetType: "firm_agent", targetId: agent.id, details: { scopes: agent.scopes } })
      return { body: agent }
    })),

  Handler.make(api.listFirmAgents, ({ query }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const caller = yield* FirmContext.caller(api.listFirmAgents)
      const select = (after: number | null, limitPlusOne: number) =>
        sql<Record<string, unknown>>`SELECT * FROM firm_agents WHERE firm_id = ${caller.firmId}
        ${query.include_revoked === true ? sql`` : sql`AND status = 'active'`}
        ${after === null ? sql`` : sql`AND id > ${after}`} ORDER BY id LIMIT ${limitPlusOne}`.pipe(Effect.orDie)
      const load = (shown: ReadonlyArray<Record<string, unknown>>) =>
        Effect.map(FirmStore.assignmentsOf(caller.firmId, shown.map((row) => Row.int(row.id))), (assignments) =>
          shown.map((row) => FirmRows.agent(row, assignments.filter((assignment) => Row.int(assignment.firm_agent_id) === Row.int(row.id)))))
      return { body: yield* Pagination.listPageLoaded(query, select, (row) => Row.int(row.id), load) }
    })),

  Handler.make(api.assignFirmAgent, ({ path, body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const caller = yield* FirmContext.caller(api.assignFirmAgent)
      yield* activeAgent(caller.firmId, path.id)
      yield* FirmGrantStore.requireLive(body.company_id, caller.firmId)
      const before = yield* sql<Record<string, unknown>>`SELECT * FROM firm_agent_assignments
        WHERE company_id = ${body.company_id} AND firm_agent_id = ${path.id} FOR UPDATE`.pipe(Effect.orDie)
      const previous = before[0] === undefined ? null : Row.int(before[0].posting_threshold_cents)
      const scopes = body.scopes === undefined ? null : JSON.stringify(Array.from(new Set(body.scopes)))
      yield* sql`INSERT INTO firm_agent_assignments ${sql.insert({
        company_id: body.company_id,
        firm_agent_id: path.id,
        firm_id: caller.firmId,
        posting_threshold_cents: body.posting_threshold_cents,
        scopes,
        created_at: request.now,
        updated_at: request.now
      })} ON CONFLICT (company_id, firm_agent_id) DO UPDATE SET posting_threshold_cents = EXCLUDED.posting_threshold_cents,
        scopes = EXCLUDED.scopes, updated_at = EXCLUDED.updated_at`.pipe(Effect.orDie)
      const agent = yield* FirmStore.loadAgent(caller.firmId, path.id)
      const assignment = agent.assignments.find((candidate) => candidate.company_id === body.company_id)!
      const details = { firm_id: caller.firmId, firm_agent_id: path.id, threshold_before_cents: previous, threshold_after_cents: body.posting_threshold_cents, scopes: assignment.scopes }
      yield* FirmAudit.append(caller.firmId, { action: "assignFirmAgent", companyId: body.company_id, targetType: "firm_agent", targetId: path.id, details })
      return {
        body: { agent, assignment, previous_threshold_cents: previous },
        audit: { companyId: body.company_id, targetType: "firm_agent", targetId: path.id, details }
      }
    })),

  Handler.make(api.unassignFirmAgent, ({ path, body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const caller = yield* FirmContext.caller(api.unassignFirmAgent)
      yield* FirmStore.loadAgentRow(caller.firmId, path.id)
      const removed = yield* sql`DELETE FROM firm_agent_assignments WHERE company_id = ${body.company_id}
        AND firm_agent_id = ${path.id} AND firm_id = ${caller.firmId} RETURNING posting_threshold_cents`.pipe(Effect.orDie)
      if (removed.length === 0) return yield* Effect.fail(ApiError.notFound("assignment"))
      const details = { firm_id: caller.firmId, firm_agent_id: path.id }
      yield* FirmAudit.append(caller.firmId, { action: "unassignFirmAgent", companyId: body.company_id, targetType: "firm_agent", targetId: path.id, reason: body.reason, details })
      return {
        body: yield* FirmStore.loadAgent(caller.firmId, path.id),
        audit: { companyId: body.company_id, targetType: "firm_agent", targetId: path.id, reason: body.reason, details }
      }
    })),

  Handler.make(api.revokeFirmAgent, ({ path, body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const caller = yield* FirmContext.caller(api.revokeFirmAgent)
      yield* activeAgent(caller.firmId, path.id)
      yield* sql`UPDATE firm_agents SET status = 'revoked', revoked_at = ${request.now}, revoked_reason = ${body.reason}
        WHERE firm_id = ${caller.firmId} AND id = ${path.id}`.pipe(Effect.orDie)
      const keysEnded = yield* FirmStore.endCredentialsOf(caller.firmId, { agentId: path.id }, body.reason)
      const unassigned = yield* sql<{ company_id: unknown }>`DELETE FROM firm_agent_assignments WHERE firm_id = ${caller.firmId}
        AND firm_agent_id = ${path.id} RETURNING company_id`.pipe(Effect.orDie)
      yield* FirmAudit.append(caller.firmId, {
        action: "revokeFirmAgent",
        targetType: "firm_agent",
        targetId: path.id,
        reason: body.reason,
        details: { keys_ended: keysEnded, unassigned_from: unassigned.map((row) => String(row.company_id)) }
      })
      return { body: yield* FirmStore.loadAgent(caller.firmId, path.id) }
    }))
] as const

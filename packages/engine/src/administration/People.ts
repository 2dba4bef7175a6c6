import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { Administration, ApiError } from "@ledger/api"
import * as Handler from "../kernel/Handler.ts"
import * as Pagination from "../kernel/Pagination.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Row from "../kernel/Row.ts"
import { requireCompanyId } from "../kernel/CompanyContext.ts"
import * as AdministrationRows from "./AdministrationRows.ts"

export const handlers = [
  Handler.make(Administration.People.createUser, ({ body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const companyId = yield* requireCompanyId
      const rows = yield* sql<Record<string, unknown>>`INSERT INTO users ${sql.insert({
        company_id: companyId,
        name: body.name,
        role: body.role,
        email: body.email?.toLowerCase() ?? null,
        created_at: request.now
      })} RETURNING *`.pipe(Effect.orDie)
      const user = AdministrationRows.user(rows[0]!)
      return { body: user, audit: { targetType: "user", targetId: user.id, details: { role: user.role } } }
    })),

  Handler.make(Administration.People.listUsers, ({ query }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const companyId = yield* requireCompanyId
      // The members of every firm with a live grant appear too, read-only (spec 4.3; ADR 0903):
      // ids are drawn from one sequence, so one order pages both.
      const select = (after: number | null, limitPlusOne: number) =>
        sql<Record<string, unknown>>`
        SELECT id, name, role, email, created_at, NULL::bigint AS firm_id, NULL::text AS firm_name,
          NULL::bigint AS grant_id, NULL::jsonb AS grant_scopes
        FROM users WHERE company_id = ${companyId} ${after === null ? sql`` : sql`AND id < ${after}`}
        UNION ALL
        SELECT m.id, m.name, m.role, m.email, m.created_at, f.id, f.name, g.id, g.scopes
        FROM firm_grants g
        JOIN firms f ON f.id = g.firm_id
        JOIN firm_members m ON m.firm_id = g.firm_id AND m.status = 'active' ${after === null ? sql`` : sql`AND m.id < ${after}`}
        WHERE g.company_id = ${companyId} AND g.revoked_at IS NULL
        ORDER BY id DESC LIMIT ${limitPlusOne}`.pipe(Effect.orDie)
      return { body: yield* Pagination.listPage(query, select, (row) => Row.int(row.id), AdministrationRows.person) }
    })),

  Handler.make(Administration.People.createAgent, ({ body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const companyId = yield* requireCompanyId
      const ownerUserId = body.owner_user_id ?? null
      if (ownerUserId !== null) {
        const owners = yield* sql`SELECT 1 FROM users WHERE company_id = ${companyId} AND id = ${ownerUserId}`.pipe(Effect.orDie)
        if (owners.length === 0) {
          return yield* Effect.fail(ApiError.validationFailed("No such user in this company.", [{
            path: ["body", "owner_user_id"],
            message: "Unknown user"
          }]))
        }
      }
      const rows = yield* sql<Record<string, unknown>>`INSERT INTO agents ${sql.insert({
        company_id: companyId,
        name: body.name,
        scopes: JSON.stringify(Array.from(new Set(body.scopes))),
        posting_threshold_cents: body.posting_threshold_cents,
        owner_user_id: ownerUserId,
        created_at: request.now
      })} RETURNING *`.pipe(Effect.orDie)
      const agent = AdministrationRows.agent(rows[0]!)
      return {
        body: agent,
        audit: {
          targetType: "agent",
          targetId: agent.id,
          details: { scopes: agent.scopes, posting_threshold_cents: agent.posting_threshold_cents }
        }
      }
    })),

  Handler.make(Administration.People.listAgents, ({ query }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const companyId = yield* requireCompanyId
      const select = (after: number | null, limitPlusOne: number) =>
        sql<Record<string, unknown>>`SELECT * FROM agents WHERE company_id = ${companyId}
        ${after === null ? sql`` : sql`AND id < ${after}`} ORDER BY id DESC LIMIT ${limitPlusOne}`.pipe(Effect.orDie)
      return { body: yield* Pagination.listPage(query, select, (row) => Row.int(row.id), AdministrationRows.agent) }
    })),

  Handler.make(Administration.People.revokeAgent, ({ path, body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const companyId = yield* requireCompanyId
      const rows = yield* sql<Record<string, unknown>>`SELECT * FROM agents WHERE company_id = ${companyId} AND id = ${path.id}
        FOR UPDATE`.pipe(Effect.orDie)
      const existing = rows[0]
      if (existing === undefined) return yield* Effect.fail(ApiError.notFound("agent"))
      if (existing.status === "revoked") {
        return yield* Effect.fail(ApiError.fail("conflict", "The agent is already revoked."))
      }
      const updated = yield* sql<Record<string, unknown>>`UPDATE agents SET status = 'revoked', revoked_at = ${request.now},
        revoked_reason = ${body.reason} WHERE company_id = ${companyId} AND id = ${path.id} RETURNING *`.pipe(Effect.orDie)
      const keys = yield* sql`UPDATE api_keys SET revoked_at = ${request.now}, revoked_reason = ${"agent revoked: " + body.reason}
        WHERE company_id = ${companyId} AND agent_id = ${path.id} AND revoked_at IS NULL RETURNING id`.pipe(Effect.orDie)
      return {
        body: AdministrationRows.agent(updated[0]!),
        audit: { targetType: "agent", targetId: path.id, reason: body.reason, details: { keys_revoked: keys.length } }
      }
    }))
] as const

import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError } from "@ledger/api"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as FirmRows from "./FirmRows.ts"

/** The SQL of grants: a client's access given to a firm (spec 3.9, 5.4). Every statement names the company. */

const grantColumns = (sql: SqlClient.SqlClient) => sql`g.*, f.name AS firm_name`

/** The firm's live grant in a company, or the refusal a firm without one gets. */
export const requireLive = Effect.fn("FirmGrantStore.requireLive")(function*(companyId: string, firmId: number) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT ${grantColumns(sql)} FROM firm_grants g JOIN firms f ON f.id = g.firm_id
    WHERE g.company_id = ${companyId} AND g.firm_id = ${firmId} AND g.revoked_at IS NULL`.pipe(Effect.orDie)
  if (rows[0] === undefined) {
    return yield* Effect.fail(ApiError.fail("firm_access_required", "The company has not granted this firm access."))
  }
  return FirmRows.grant(rows[0])
})

export const insert = Effect.fn("FirmGrantStore.insert")(function*(input: {
  readonly companyId: string
  readonly firmId: number
  readonly scopes: ReadonlyArray<string>
  readonly billing: "firm" | "client"
  readonly reason: string | null
  readonly grantedBy: string
}) {
  const sql = yield* SqlClient.SqlClient
  const request = yield* RequestContext
  const live = yield* sql`SELECT id FROM firm_grants WHERE company_id = ${input.companyId} AND firm_id = ${input.firmId}
    AND revoked_at IS NULL FOR UPDATE`.pipe(Effect.orDie)
  if (live.length > 0) {
    return yield* Effect.fail(ApiError.fail("conflict", "This firm already has access; revoke it first to grant other scopes."))
  }
  const rows = yield* sql<{ id: unknown }>`INSERT INTO firm_grants ${sql.insert({
    company_id: input.companyId,
    firm_id: input.firmId,
    scopes: JSON.stringify(Array.from(new Set(input.scopes))),
    billing: input.billing,
    reason: input.reason,
    granted_by: input.grantedBy,
    created_at: request.now
  })} RETURNING id`.pipe(Effect.orDie)
  return yield* load(input.companyId, Number(rows[0]!.id))
})

export const load = Effect.fn("FirmGrantStore.load")(function*(companyId: string, id: number, lock = false) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT ${grantColumns(sql)} FROM firm_grants g JOIN firms f ON f.id = g.firm_id
    WHERE g.company_id = ${companyId} AND g.id = ${id} ${lock ? sql`FOR UPDATE OF g` : sql``}`.pipe(Effect.orDie)
  if (rows[0] === undefined) return yield* Effect.fail(ApiError.notFound("firm grant"))
  return FirmRows.grant(rows[0])
})

/** Ends a grant: final; the firm's agents leave the company and its pending owner invitations become void. */
export const revoke = Effect.fn("FirmGrantStore.revoke")(function*(companyId: string, id: number, firmId: number, reason: string, by: string) {
  const sql = yield* SqlClient.SqlClient
  const request = yield* RequestContext
  yield* sql`UPDATE firm_grants SET revoked_at = ${request.now}, revoked_reason = ${reason}, revoked_by = ${by}
    WHERE company_id = ${companyId} AND id = ${id}`.pipe(Effect.orDie)
  const unassigned = yield* sql<{ firm_agent_id: unknown }>`DELETE FROM firm_agent_assignments WHERE company_id = ${companyId}
    AND firm_id = ${firmId} RETURNING firm_agent_id`.pipe(Effect.orDie)
  const voided = yield* sql`UPDATE owner_invitations SET status = 'void', ended_at = ${request.now}
    WHERE company_id = ${companyId} AND firm_id = ${firmId} AND status = 'pending' RETURNING id`.pipe(Effect.orDie)
  return { agentsUnassigned: unassigned.map((row) => Number(row.firm_agent_id)), invitationsVoided: voided.length }
})

import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError } from "@ledger/api"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Secret from "../kernel/Secret.ts"
import { daysLater } from "./FirmContext.ts"
import * as FirmRows from "./FirmRows.ts"

/** The SQL of firms, members, firm agents and firm keys. Every statement names its firm. */

const one = <A>(rows: ReadonlyArray<A>, what: string) =>
  rows[0] === undefined ? Effect.fail(ApiError.notFound(what)) : Effect.succeed(rows[0])

export const loadFirm = Effect.fn("FirmStore.loadFirm")(function*(firmId: number) {
  const sql = yield* SqlClient.SqlClient
  return yield* one(yield* sql<Record<string, unknown>>`SELECT * FROM firms WHERE id = ${firmId}`.pipe(Effect.orDie), "firm")
})

export const loadMember = Effect.fn("FirmStore.loadMember")(function*(firmId: number, id: number, lock = false) {
  const sql = yield* SqlClient.SqlClient
  return yield* one(
    yield* sql<Record<string, unknown>>`SELECT * FROM firm_members WHERE firm_id = ${firmId} AND id = ${id}
      ${lock ? sql`FOR UPDATE` : sql``}`.pipe(Effect.orDie),
    "firm member"
  )
})

export const loadAgentRow = Effect.fn("FirmStore.loadAgentRow")(function*(firmId: number, id: number, lock = false) {
  const sql = yield* SqlClient.SqlClient
  return yield* one(
    yield* sql<Record<string, unknown>>`SELECT * FROM firm_agents WHERE firm_id = ${firmId} AND id = ${id}
      ${lock ? sql`FOR UPDATE` : sql``}`.pipe(Effect.orDie),
    "firm agent"
  )
})

export const assignmentsOf = Effect.fn("FirmStore.assignmentsOf")(function*(firmId: number, agentIds: ReadonlyArray<number>) {
  const sql = yield* SqlClient.SqlClient
  if (agentIds.length === 0) return []
  return yield* sql<Record<string, unknown>>`SELECT s.*, c.name AS company_name FROM firm_agent_assignments s
    JOIN companies c ON c.company_id = s.company_id
    WHERE s.firm_id = ${firmId} AND s.firm_agent_id IN ${sql.in(agentIds)} ORDER BY c.name, s.company_id`.pipe(Effect.orDie)
})

/** A firm agent with its assignments, as the API returns it. */
export const loadAgent = Effect.fn("FirmStore.loadAgent")(function*(firmId: number, id: number) {
  const row = yield* loadAgentRow(firmId, id)
  const assignments = yield* assignmentsOf(firmId, [id])
  return FirmRows.agent(row, assignments)
})

export const loadKey = Effect.fn("FirmStore.loadKey")(function*(firmId: number, id: number, lock = false) {
  const sql = yield* SqlClient.SqlClient
  return yield* one(
    yield* sql<Record<string, unknown>>`SELECT * FROM firm_keys WHERE firm_id = ${firmId} AND id = ${id}
      ${lock ? sql`FOR UPDATE` : sql``}`.pipe(Effect.orDie),
    "firm key"
  )
})

export const insertMember = Effect.fn("FirmStore.insertMember")(function*(
  firmId: number,
  input: { readonly name: string; readonly role: string; readonly email: string | null }
) {
  const sql = yield* SqlClient.SqlClient
  const request = yield* RequestContext
  const rows = yield* sql<Record<string, unknown>>`INSERT INTO firm_members ${sql.insert({
    firm_id: firmId,
    name: input.name,
    role: input.role,
    email: input.email,
    created_at: request.now
  })} RETURNING *`.pipe(Effect.orDie)
  return rows[0]!
})

/** Issues a firm key: its record and its secret, shown once. */
export const issueKey = Effect.fn("FirmStore.issueKey")(function*(input: {
  readonly firmId: number
  readonly principalType: "member" | "agent"
  readonly principalId: number
  readonly scopes: ReadonlyArray<string>
  readonly expiresInDays: number
  readonly rateLimitRpm: number | null
  readonly rotatedFromKeyId?: number
}) {
  const sql = yield* SqlClient.SqlClient
  const request = yield* RequestContext
  const secret = yield* Secret.generate("ldg_")
  const rows = yield* sql<Record<string, unknown>>`INSERT INTO firm_keys ${sql.insert({
    firm_id: input.firmId,
    secret_hash: yield* Secret.hash(secret),
    prefix: Secret.displayPrefix(secret),
    principal_type: input.principalType,
    member_id: input.principalType === "member" ? input.principalId : null,
    firm_agent_id: input.principalType === "agent" ? input.principalId : null,
    scopes: JSON.stringify(Array.from(new Set(input.scopes))),
    expires_at: daysLater(request.now, input.expiresInDays),
    rate_limit_rpm: input.rateLimitRpm,
    rotated_from_key_id: input.rotatedFromKeyId ?? null,
    created_at: request.now
  })} RETURNING *`.pipe(Effect.orDie)
  return { key: FirmRows.key(rows[0]!, request.now), secret }
})

/** Ends every live key of a member or firm agent, and the sessions opened with them or by the member. */
export const endCredentialsOf = Effect.fn("FirmStore.endCredentialsOf")(function*(
  firmId: number,
  holder: { readonly memberId: number } | { readonly agentId: number },
  reason: string
) {
  const sql = yield* SqlClient.SqlClient
  const request = yield* RequestContext
  const which = "memberId" in holder ? sql`member_id = ${holder.memberId}` : sql`firm_agent_id = ${holder.agentId}`
  const keys = yield* sql<{ id: unknown }>`UPDATE firm_keys SET revoked_at = ${request.now}, revoked_reason = ${reason}
    WHERE firm_id = ${firmId} AND ${which} AND revoked_at IS NULL RETURNING id`.pipe(Effect.orDie)
  if ("memberId" in holder) {
    yield* sql`UPDATE firm_sessions SET revoked_at = ${request.now}, revoked_reason = ${reason}
      WHERE firm_id = ${firmId} AND member_id = ${holder.memberId} AND revoked_at IS NULL`.pipe(Effect.orDie)
  }
  return keys.length
})

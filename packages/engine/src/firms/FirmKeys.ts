import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Firms as FirmsApi, Limits, type Scope } from "@ledger/api"
import * as Handler from "../kernel/Handler.ts"
import * as Pagination from "../kernel/Pagination.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Row from "../kernel/Row.ts"
import { capped, memberRoleScopes, type MemberRole } from "../pipeline/authenticate/FirmPrincipal.ts"
import * as FirmAudit from "./audit/FirmAudit.ts"
import * as FirmContext from "./FirmContext.ts"
import * as FirmRows from "./FirmRows.ts"
import * as FirmStore from "./FirmStore.ts"

/** Firm keys: issue, list by prefix, rotate with overlap, revoke (spec 4.3, 3.9). */

const api = FirmsApi.Keys
const { FirmLimits } = FirmsApi

/** The holder of a new key: its scope ceiling and key lifetimes. */
const holderOf = Effect.fn("FirmKeys.holderOf")(function*(firmId: number, type: "member" | "agent", id: number) {
  if (type === "member") {
    const row = yield* Effect.mapError(FirmStore.loadMember(firmId, id), () => ApiError.validationFailed("No such member in this firm."))
    if (row.status !== "active") return yield* Effect.fail(ApiError.validationFailed("The member was removed."))
    return { ceiling: memberRoleScopes[row.role as MemberRole], daysDefault: FirmLimits.memberKeyDaysDefault, daysMax: FirmLimits.memberKeyDaysMax }
  }
  const row = yield* Effect.mapError(FirmStore.loadAgentRow(firmId, id), () => ApiError.validationFailed("No such firm agent in this firm."))
  if (row.status !== "active") return yield* Effect.fail(ApiError.validationFailed("The firm agent is revoked."))
  return { ceiling: Row.textArray<Scope.Scope>(row.scopes), daysDefault: FirmLimits.agentKeyDaysDefault, daysMax: FirmLimits.agentKeyDaysMax }
})

const refuseBeyond = (ceiling: ReadonlyArray<Scope.Scope>, requested: ReadonlyArray<Scope.Scope>) => {
  const allowed = capped(ceiling)
  const beyond = requested.filter((scope) => !allowed.includes(scope))
  return beyond.length === 0 ? Effect.void : Effect.fail(ApiError.validationFailed(`The holder may not have: ${beyond.join(", ")}.`, [{
    path: ["body", "scopes"],
    message: `Beyond the holder's scopes (${allowed.join(", ")})`
  }]))
}

const checkDays = (days: number, max: number) =>
  days > max
    ? Effect.fail(ApiError.validationFailed(`This key may live at most ${max} days.`, [{ path: ["body", "expires_in_days"], message: `At most ${max}` }]))
    : Effect.void

const holds = (actor: { type: string; id: number | null }, row: Record<string, unknown>) =>
  (actor.type === "firm_member" && row.principal_type === "member" && Row.int(row.member_id) === actor.id) ||
  (actor.type === "firm_agent" && row.principal_type === "agent" && Row.int(row.firm_agent_id) === actor.id)

export const handlers = [
  Handler.make(api.createFirmKey, ({ body }) =>
    Effect.gen(function*() {
      const caller = yield* FirmContext.caller(api.createFirmKey)
      const holderId = body.principal_type === "member" ? body.member_id : body.firm_agent_id
      if (holderId === undefined) {
        const field = body.principal_type === "member" ? "member_id" : "firm_agent_id"
        return yield* Effect.fail(ApiError.validationFailed(`${field} is required for a ${body.principal_type} key.`, [{ path: ["body", field], message: "Required" }]))
      }
      const holder = yield* holderOf(caller.firmId, body.principal_type, holderId)
      yield* refuseBeyond(holder.ceiling, body.scopes)
      const days = body.expires_in_days ?? holder.daysDefault
      yield* checkDays(days, holder.daysMax)
      const issued = yield* FirmStore.issueKey({
        firmId: caller.firmId,
        principalType: body.principal_type,
        principalId: holderId,
        scopes: body.scopes,
        expiresInDays: days,
        rateLimitRpm: body.rate_limit_rpm ?? null
      })
      yield* FirmAudit.append(caller.firmId, {
        action: "createFirmKey",
        targetType: "firm_key",
        targetId: issued.key.id,
        details: { principal_type: body.principal_type, principal_id: holderId, scopes: issued.key.scopes }
      })
      return { body: issued }
    })),

  Handler.make(api.listFirmKeys, ({ query }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const caller = yield* FirmContext.caller(api.listFirmKeys)
      const own = caller.isAdmin ? sql`` : caller.actor.type === "firm_member"
        ? sql`AND member_id = ${caller.actor.id}`
        : sql`AND firm_agent_id = ${caller.actor.id}`
      const live = query.include_ended === true ? sql`` : sql`AND revoked_at IS NULL AND expires_at > ${request.now}
        AND (overlap_ends_at IS NULL OR overlap_ends_at > ${request.now})`
      const select = (after: number | null, limitPlusOne: number) =>
        sql<Record<string, unknown>>`SELECT * FROM firm_keys WHERE firm_id = ${caller.firmId} ${own} ${live}
        ${after === null ? sql`` : sql`AND id > ${after}`} ORDER BY id LIMIT ${limitPlusOne}`.pipe(Effect.orDie)
      return { body: yield* Pagination.listPage(query, select, (row) => Row.int(row.id), (row) => FirmRows.key(row, request.now)) }
    })),

  Handler.make(api.rotateFirmKey, ({ path, body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const caller = yield* FirmContext.caller(api.rotateFirmKey)
      const row = yield* FirmStore.loadKey(caller.firmId, path.id, true)
      if (!caller.isAdmin && !holds(caller.actor, row)) return yield* Effect.fail(ApiError.notFound("firm key"))
      const status = FirmRows.keyStatus(row, request.now)
      if (status !== "active") return yield* Effect.fail(ApiError.fail("conflict", `The key is ${status}; only an active key rotates.`))
      if (body.rate_limit_rpm !== undefined && !caller.isAdmin) {
        return yield* Effect.fail(ApiError.fail("insufficient_scope", "Only a firm admin may change a key's rate limit.", { required_scope: "admin" }))
      }
      const type = row.principal_type as "member" | "agent"
      const holderId = Row.int(type === "member" ? row.member_id : row.firm_agent_id)
      const holder = yield* holderOf(caller.firmId, type, holderId)
      const days = body.expires_in_days ?? holder.daysDefault
      yield* checkDays(days, holder.daysMax)
      const issued = yield* FirmStore.issueKey({
        firmId: caller.firmId,
        principalType: type,
        principalId: holderId,
        scopes: Row.textArray(row.scopes),
        expiresInDays: days,
        rateLimitRpm: body.rate_limit_rpm === undefined ? Row.intOrNull(row.rate_limit_rpm) : body.rate_limit_rpm,
        rotatedFromKeyId: path.id
      })
      const overlap = body.overlap_seconds ?? Limits.rotationOverlapSecondsDefault
      yield* sql`UPDATE firm_keys SET rotated_to_key_id = ${issued.key.id}, overlap_ends_at = ${FirmContext.secondsLater(request.now, overlap)}
        WHERE firm_id = ${caller.firmId} AND id = ${path.id}`.pipe(Effect.orDie)
      yield* FirmAudit.append(caller.firmId, {
        action: "rotateFirmKey",
        targetType: "firm_key",
        targetId: path.id,
        reason: body.reason ?? null,
        details: { successor_key_id: issued.key.id, overlap_seconds: overlap }
      })
      return { body: issued }
    })),

  Handler.make(api.revokeFirmKey, ({ path, body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const caller = yield* FirmContext.caller(api.revokeFirmKey)
      const row = yield* FirmStore.loadKey(caller.firmId, path.id, true)
      if (row.revoked_at !== null) return yield* Effect.fail(ApiError.fail("conflict", "The key was already revoked."))
      const updated = yield* sql<Record<string, unknown>>`UPDATE firm_keys SET revoked_at = ${request.now}, revoked_reason = ${body.reason}
        WHERE firm_id = ${caller.firmId} AND id = ${path.id} RETURNING *`.pipe(Effect.orDie)
      const sessions = yield* sql`UPDATE firm_sessions SET revoked_at = ${request.now}, revoked_reason = ${body.reason}
        WHERE firm_id = ${caller.firmId} AND key_id = ${path.id} AND revoked_at IS NULL RETURNING id`.pipe(Effect.orDie)
      yield* FirmAudit.append(caller.firmId, {
        action: "revokeFirmKey",
        targetType: "firm_key",
        targetId: path.id,
        reason: body.reason,
        details: { sessions_ended: sessions.length }
      })
      return { body: FirmRows.key(updated[0]!, request.now) }
    }))
] as const

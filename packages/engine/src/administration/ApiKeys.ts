import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { Administration, ApiError, Limits, Scope } from "@ledger/api"
import { type Actor, roleScopes } from "../kernel/Actor.ts"
import * as Handler from "../kernel/Handler.ts"
import * as Pagination from "../kernel/Pagination.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Row from "../kernel/Row.ts"
import * as StepUp from "../kernel/StepUp.ts"
import { requireCompanyId } from "../kernel/CompanyContext.ts"
import { issueKey } from "./Companies.ts"
import * as AdministrationRows from "./AdministrationRows.ts"

const isAdmin = (actor: Actor): boolean => Scope.satisfies(actor.scopes, "admin")

/** Does the actor hold this key (the person or agent it was issued to)? */
const holds = (actor: Actor, row: Record<string, unknown>): boolean =>
  (actor.type === "user" && row.principal_type === "user" && Row.int(row.user_id) === actor.id) ||
  (actor.type === "agent" && row.principal_type === "agent" && Row.int(row.agent_id) === actor.id)

const refuseScopes = (allowed: ReadonlyArray<string>, requested: ReadonlyArray<string>) => {
  const beyond = requested.filter((scope) => !allowed.includes(scope))
  return beyond.length === 0
    ? Effect.void
    : Effect.fail(ApiError.validationFailed(`The holder may not have: ${beyond.join(", ")}.`, [{
      path: ["body", "scopes"],
      message: `Beyond the holder's scopes (${allowed.join(", ")})`
    }]))
}

/** The holder of a new key, its scope ceiling and its key lifetime rules. */
const loadHolder = Effect.fn("ApiKeys.loadHolder")(function*(
  companyId: string,
  principalType: "user" | "agent",
  principalId: number
) {
  const sql = yield* SqlClient.SqlClient
  if (principalType === "user") {
    const rows = yield* sql<Record<string, unknown>>`SELECT * FROM users WHERE company_id = ${companyId} AND id = ${principalId}`
      .pipe(Effect.orDie)
    const row = rows[0]
    if (row === undefined) return yield* Effect.fail(ApiError.validationFailed("No such user in this company."))
    return {
      ceiling: roleScopes[row.role as keyof typeof roleScopes],
      daysDefault: Limits.personKeyDaysDefault,
      daysMax: Limits.personKeyDaysMax
    }
  }
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM agents WHERE company_id = ${companyId} AND id = ${principalId}`
    .pipe(Effect.orDie)
  const row = rows[0]
  if (row === undefined) return yield* Effect.fail(ApiError.validationFailed("No such agent in this company."))
  if (row.status !== "active") return yield* Effect.fail(ApiError.validationFailed("The agent is revoked."))
  return {
    ceiling: Row.textArray<Scope.Scope>(row.scopes),
    daysDefault: Limits.agentKeyDaysDefault,
    daysMax: Limits.agentKeyDaysMax
  }
})

const checkDays = (days: number, max: number) =>
  days > max
    ? Effect.fail(ApiError.validationFailed(`This key may live at most ${max} days.`, [{
      path: ["body", "expires_in_days"],
      message: `At most ${max}`
    }]))
    : Effect.void

const loadKey = Effect.fn("ApiKeys.load")(function*(companyId: string, id: number, lock: boolean) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM api_keys WHERE company_id = ${companyId} AND id = ${id}
    ${lock ? sql`FOR UPDATE` : sql``}`.pipe(Effect.orDie)
  const row = rows[0]
  if (row === undefined) return yield* Effect.fail(ApiError.notFound("key"))
  return row
})

export const handlers = [
  Handler.make(Administration.ApiKeys.createKey, ({ body }) =>
    Effect.gen(function*() {
      // A key is a sensitive change (spec 5.5): in a browser session it needs a recent step-up.
      yield* StepUp.requireStepUp
      const companyId = yield* requireCompanyId
      const principalId = body.principal_type === "user" ? body.user_id : body.agent_id
      if (principalId === undefined) {
        const field = body.principal_type === "user" ? "user_id" : "agent_id"
        return yield* Effect.fail(ApiError.validationFailed(`${field} is required for a ${body.principal_type} key.`, [{
          path: ["body", field],
          message: "Required"
        }]))
      }
      const holder = yield* loadHolder(companyId, body.principal_type, principalId)
      yield* refuseScopes(holder.ceiling, body.scopes)
      const days = body.expires_in_days ?? holder.daysDefault
      yield* checkDays(days, holder.daysMax)
      const issued = yield* issueKey({
        companyId,
        principalType: body.principal_type,
        principalId,
        scopes: Array.from(new Set(body.scopes)),
        expiresInDays: days,
        rateLimitRpm: body.rate_limit_rpm ?? null
      })
      return {
        body: issued,
        audit: {
          targetType: "api_key",
          targetId: issued.key.id,
          details: { principal_type: body.principal_type, principal_id: principalId, scopes: issued.key.scopes }
        }
      }
    })),

  Handler.make(Administration.ApiKeys.listKeys, ({ query }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const companyId = yield* requireCompanyId
      const actor = request.actor
      const own = isAdmin(actor)
        ? sql``
        : actor.type === "agent"
        ? sql`AND agent_id = ${actor.id}`
        : sql`AND user_id = ${actor.id}`
      const live = query.include_ended === true
        ? sql``
        : sql`AND revoked_at IS NULL AND expires_at > ${request.now}
          AND (overlap_ends_at IS NULL OR overlap_ends_at > ${request.now})`
      const select = (after: number | null, limitPlusOne: number) =>
        sql<Record<string, unknown>>`SELECT * FROM api_keys WHERE company_id = ${companyId} ${own} ${live}
        ${query.user_id === undefined ? sql`` : sql`AND user_id = ${query.user_id}`}
        ${query.agent_id === undefined ? sql`` : sql`AND agent_id = ${query.agent_id}`}
        ${after === null ? sql`` : sql`AND id < ${after}`}
        ORDER BY id DESC LIMIT ${limitPlusOne}`.pipe(Effect.orDie)
      return { body: yield* Pagination.listPage(query, select, (row) => Row.int(row.id), (row) => AdministrationRows.apiKey(row, request.now)) }
    })),

  Handler.make(Administration.ApiKeys.getKey, ({ path }) =>
    Effect.gen(function*() {
      const request = yield* RequestContext
      const companyId = yield* requireCompanyId
      const row = yield* loadKey(companyId, path.id, false)
      // Someone else's key is as unknown to a non-admin as a key that does not exist.
      if (!isAdmin(request.actor) && !holds(request.actor, row)) return yield* Effect.fail(ApiError.notFound("key"))
      return { body: AdministrationRows.apiKey(row, request.now) }
    })),

  Handler.make(Administration.ApiKeys.rotateKey, ({ path, body }) =>
    Effect.gen(function*() {
      // A key is a sensitive change (spec 5.5): in a browser session it needs a recent step-up.
      yield* StepUp.requireStepUp
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const companyId = yield* requireCompanyId
      const actor = request.actor
      const row = yield* loadKey(companyId, path.id, true)
      const admin = isAdmin(actor)
      if (!admin && !holds(actor, row)) return yield* Effect.fail(ApiError.notFound("key"))
      if (body.rate_limit_rpm !== undefined && !admin) {
        return yield* Effect.fail(ApiError.fail("insufficient_scope", "Only an admin may change a key's rate limit."))
      }
      const status = AdministrationRows.keyStatus(row, request.now)
      if (status !== "active") {
        return yield* Effect.fail(ApiError.fail("conflict", `A key that is ${status} cannot be rotated.`, { status }))
      }
      const principalType = row.principal_type as "user" | "agent"
      const principalId = Row.int(principalType === "user" ? row.user_id : row.agent_id)
      const holder = yield* loadHolder(companyId, principalType, principalId)
      const days = body.expires_in_days ?? holder.daysDefault
      yield* checkDays(days, holder.daysMax)
      const issued = yield* issueKey({
        companyId,
        principalType,
        principalId,
        scopes: Row.textArray(row.scopes),
        expiresInDays: days,
        rateLimitRpm: body.rate_limit_rpm === undefined ? Row.intOrNull(row.rate_limit_rpm) : body.rate_limit_rpm,
        rotatedFromKeyId: path.id
      })
      const overlapSeconds = body.overlap_seconds ?? Limits.rotationOverlapSecondsDefault
      const overlapEndsAt = new Date(Date.parse(request.now) + overlapSeconds * 1000).toISOString()
      yield* sql`UPDATE api_keys SET rotated_to_key_id = ${issued.key.id}, overlap_ends_at = ${overlapEndsAt}
        WHERE company_id = ${companyId} AND id = ${path.id}`.pipe(Effect.orDie)
      return {
        body: issued,
        audit: {
          targetType: "api_key",
          targetId: path.id,
          reason: body.reason ?? null,
          details: { successor_key_id: issued.key.id, overlap_seconds: overlapSeconds }
        }
      }
    })),

  Handler.make(Administration.ApiKeys.revokeKey, ({ path, body }) =>
    Effect.gen(function*() {
      // A key is a sensitive change (spec 5.5): in a browser session it needs a recent step-up.
      yield* StepUp.requireStepUp
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const companyId = yield* requireCompanyId
      const row = yield* loadKey(companyId, path.id, true)
      if (row.revoked_at !== null) return yield* Effect.fail(ApiError.fail("conflict", "The key is already revoked."))
      const updated = yield* sql<Record<string, unknown>>`UPDATE api_keys SET revoked_at = ${request.now},
        revoked_reason = ${body.reason} WHERE company_id = ${companyId} AND id = ${path.id} RETURNING *`.pipe(Effect.orDie)
      return {
        body: AdministrationRows.apiKey(updated[0]!, request.now),
        audit: { targetType: "api_key", targetId: path.id, reason: body.reason }
      }
    })),

  Handler.make(Administration.ApiKeys.claimOwnerInvite, ({ body }) =>
    // Owner invitations are issued by firms (spec 4.3, firms/FirmClients.ts); the pipeline's
    // OwnerInvitation strategy refused a replaced, expired or voided one. Claimed once, here.
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const companyId = yield* requireCompanyId
      const invitationId = request.actor.keyId
      if (request.actor.credentialKind !== "invitation" || invitationId === null) {
        return yield* Effect.fail(ApiError.fail("unauthorized", "The owner invitation is not valid."))
      }
      const rows = yield* sql<Record<string, unknown>>`UPDATE owner_invitations SET status = 'claimed', claimed_at = ${request.now}
        WHERE company_id = ${companyId} AND id = ${invitationId} AND status = 'pending' RETURNING user_id`.pipe(Effect.orDie)
      if (rows[0] === undefined) {
        return yield* Effect.fail(ApiError.fail(
          "invitation_claimed",
          "This invitation was already claimed. If not by you, someone else used it: revoke the firm's access.",
          { reason: "claimed" }
        ))
      }
      const days = body.expires_in_days ?? Limits.personKeyDaysDefault
      const issued = yield* issueKey({
        companyId,
        principalType: "user",
        principalId: Row.int(rows[0].user_id),
        scopes: roleScopes.owner,
        expiresInDays: days,
        rateLimitRpm: null
      })
      return { body: issued, audit: { targetType: "owner_invitation", targetId: invitationId, details: { key_id: issued.key.id } } }
    }))
] as const

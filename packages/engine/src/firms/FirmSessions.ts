import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Firms as FirmsApi } from "@ledger/api"
import * as Handler from "../kernel/Handler.ts"
import * as Pagination from "../kernel/Pagination.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Row from "../kernel/Row.ts"
import * as FirmAudit from "./audit/FirmAudit.ts"
import * as FirmContext from "./FirmContext.ts"
import * as FirmRows from "./FirmRows.ts"
import * as FirmSessionStore from "./FirmSessionStore.ts"
import * as FirmStore from "./FirmStore.ts"

/** Firm sessions opened from a member's firm key; list and revoke (spec 4.3, 5.1). */

const api = FirmsApi.Keys
const { FirmLimits } = FirmsApi

export const handlers = [
  Handler.make(api.openFirmSession, () =>
    Effect.gen(function*() {
      const request = yield* RequestContext
      const caller = yield* FirmContext.caller(api.openFirmSession)
      const { actor } = caller
      if (actor.type !== "firm_member") {
        return yield* Effect.fail(ApiError.fail("insufficient_scope", "Only a firm member opens a firm session."))
      }
      if (actor.credentialKind !== "api_key" || actor.keyId === null) {
        return yield* Effect.fail(ApiError.fail("insufficient_scope", "A firm session is opened with a member's firm key."))
      }
      if ((yield* FirmSessionStore.liveCount(caller.firmId, actor.id!, request.now)) >= FirmLimits.liveSessionsPerMemberMax) {
        return yield* Effect.fail(ApiError.validationFailed(`A member has at most ${FirmLimits.liveSessionsPerMemberMax} live sessions.`))
      }
      const key = yield* FirmStore.loadKey(caller.firmId, actor.keyId)
      const opened = yield* FirmSessionStore.open({
        firmId: caller.firmId,
        memberId: actor.id!,
        keyId: actor.keyId,
        keyExpiresAt: Row.iso(key.expires_at),
        scopes: actor.scopes,
        via: "key",
        now: request.now
      })
      yield* FirmAudit.append(caller.firmId, { action: "openFirmSession", targetType: "firm_session", targetId: opened.session.id })
      return { body: opened }
    })),

  Handler.make(api.listFirmSessions, ({ query }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const caller = yield* FirmContext.caller(api.listFirmSessions)
      const select = (after: number | null, limitPlusOne: number) =>
        caller.actor.type !== "firm_member" ? Effect.succeed([]) : sql<Record<string, unknown>>`SELECT * FROM firm_sessions
        WHERE firm_id = ${caller.firmId} AND member_id = ${caller.actor.id} AND revoked_at IS NULL
        AND expires_at > ${request.now} AND idle_expires_at > ${request.now}
        ${after === null ? sql`` : sql`AND id > ${after}`} ORDER BY id LIMIT ${limitPlusOne}`.pipe(Effect.orDie)
      return { body: yield* Pagination.listPage(query, select, (row) => Row.int(row.id), FirmRows.session) }
    })),

  Handler.make(api.revokeFirmSession, ({ path, body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const caller = yield* FirmContext.caller(api.revokeFirmSession)
      const rows = yield* sql<Record<string, unknown>>`SELECT * FROM firm_sessions WHERE firm_id = ${caller.firmId} AND id = ${path.id}
        FOR UPDATE`.pipe(Effect.orDie)
      const row = rows[0]
      const own = row !== undefined && caller.actor.type === "firm_member" && Row.int(row.member_id) === caller.actor.id
      if (row === undefined || (!own && !caller.isAdmin)) return yield* Effect.fail(ApiError.notFound("firm session"))
      if (row.revoked_at !== null) return yield* Effect.fail(ApiError.fail("conflict", "The session has already ended."))
      const updated = yield* sql<Record<string, unknown>>`UPDATE firm_sessions SET revoked_at = ${request.now},
        revoked_reason = ${body.reason ?? "revoked"} WHERE firm_id = ${caller.firmId} AND id = ${path.id} RETURNING *`.pipe(Effect.orDie)
      yield* FirmAudit.append(caller.firmId, {
        action: "revokeFirmSession",
        targetType: "firm_session",
        targetId: path.id,
        reason: body.reason ?? null
      })
      return { body: FirmRows.session(updated[0]!) }
    }))
] as const

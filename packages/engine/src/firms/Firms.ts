import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Firms as FirmsApi } from "@ledger/api"
import * as Handler from "../kernel/Handler.ts"
import * as Pagination from "../kernel/Pagination.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Row from "../kernel/Row.ts"
import { memberRoleScopes } from "../pipeline/authenticate/FirmPrincipal.ts"
import * as FirmAudit from "./audit/FirmAudit.ts"
import * as FirmContext from "./FirmContext.ts"
import * as FirmRows from "./FirmRows.ts"
import * as FirmStore from "./FirmStore.ts"

/** A firm, its members and its kill switch (spec 4.3). */

const api = FirmsApi.Firms
const { FirmLimits } = FirmsApi

export const handlers = [
  Handler.make(api.createFirm, ({ body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const firmRows = yield* sql<Record<string, unknown>>`INSERT INTO firms ${sql.insert({ name: body.name, created_at: request.now })}
        RETURNING *`.pipe(Effect.orDie)
      const firmId = Row.int(firmRows[0]!.id)
      const member = yield* FirmStore.insertMember(firmId, { name: body.admin_name, role: "admin", email: body.admin_email ?? null })
      const memberId = Row.int(member.id)
      const issued = yield* FirmStore.issueKey({
        firmId,
        principalType: "member",
        principalId: memberId,
        scopes: memberRoleScopes.admin,
        expiresInDays: FirmLimits.memberKeyDaysDefault,
        rateLimitRpm: null
      })
      yield* FirmAudit.append(firmId, { action: "createFirm", targetType: "firm", targetId: firmId, details: { admin_member_id: memberId } })
      yield* FirmAudit.append(firmId, { action: "createFirmKey", targetType: "firm_key", targetId: issued.key.id, details: { member_id: memberId } })
      const firm = FirmRows.firm((yield* FirmStore.loadFirm(firmId)))
      return { body: { firm, member: FirmRows.member(member), key: issued.key, secret: issued.secret } }
    })),

  Handler.make(api.getFirm, () =>
    Effect.gen(function*() {
      const caller = yield* FirmContext.caller(api.getFirm)
      const firm = FirmRows.firm(yield* FirmStore.loadFirm(caller.firmId))
      const { actor } = caller
      return {
        body: {
          firm,
          principal: {
            type: actor.type as "firm_member" | "firm_agent",
            id: actor.id!,
            name: actor.name,
            role: actor.role,
            scopes: [...actor.scopes],
            credential: actor.credentialKind === "session" ? "session" as const : "api_key" as const,
            key_id: actor.keyId
          }
        }
      }
    })),

  Handler.make(api.createFirmMember, ({ body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const caller = yield* FirmContext.caller(api.createFirmMember)
      const counted = yield* sql<{ count: unknown }>`SELECT count(*) AS count FROM firm_members
        WHERE firm_id = ${caller.firmId} AND status = 'active'`.pipe(Effect.orDie)
      if (Row.int(counted[0]!.count) >= FirmLimits.membersMax) {
        return yield* Effect.fail(ApiError.validationFailed(`A firm has at most ${FirmLimits.membersMax} members.`))
      }
      const row = yield* FirmStore.insertMember(caller.firmId, { name: body.name, role: body.role, email: body.email ?? null })
      const member = FirmRows.member(row)
      yield* FirmAudit.append(caller.firmId, { action: "createFirmMember", targetType: "firm_member", targetId: member.id, details: { role: member.role } })
      return { body: member }
    })),

  Handler.make(api.listFirmMembers, ({ query }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const caller = yield* FirmContext.caller(api.listFirmMembers)
      const select = (after: number | null, limitPlusOne: number) =>
        sql<Record<string, unknown>>`SELECT * FROM firm_members WHERE firm_id = ${caller.firmId}
        ${query.include_removed === true ? sql`` : sql`AND status = 'active'`}
        ${after === null ? sql`` : sql`AND id > ${after}`} ORDER BY id LIMIT ${limitPlusOne}`.pipe(Effect.orDie)
      return { body: yield* Pagination.listPage(query, select, (row) => Row.int(row.id), FirmRows.member) }
    })),

  Handler.make(api.removeFirmMember, ({ path, body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const caller = yield* FirmContext.caller(api.removeFirmMember)
      const row = yield* FirmStore.loadMember(caller.firmId, path.id, true)
      if (row.status === "removed") return yield* Effect.fail(ApiError.fail("conflict", "The member was already removed."))
      if (row.role === "admin") {
        const admins = yield* sql<{ count: unknown }>`SELECT count(*) AS count FROM firm_members
          WHERE firm_id = ${caller.firmId} AND role = 'admin' AND status = 'active'`.pipe(Effect.orDie)
        if (Row.int(admins[0]!.count) <= 1) {
          return yield* Effect.fail(ApiError.fail("last_firm_admin", "A firm keeps at least one admin: add another admin first."))
        }
      }
      const updated = yield* sql<Record<string, unknown>>`UPDATE firm_members SET status = 'removed', removed_at = ${request.now},
        removed_reason = ${body.reason} WHERE firm_id = ${caller.firmId} AND id = ${path.id} RETURNING *`.pipe(Effect.orDie)
      const keysEnded = yield* FirmStore.endCredentialsOf(caller.firmId, { memberId: path.id }, body.reason)
      yield* FirmAudit.append(caller.firmId, {
        action: "removeFirmMember",
        targetType: "firm_member",
        targetId: path.id,
        reason: body.reason,
        details: { keys_ended: keysEnded }
      })
      return { body: FirmRows.member(updated[0]!) }
    })),

  Handler.make(api.setFirmKillSwitch, ({ body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const caller = yield* FirmContext.caller(api.setFirmKillSwitch)
      yield* sql`UPDATE firms SET kill_switch_suspended = ${body.suspended}, kill_switch_reason = ${body.reason},
        kill_switch_changed_at = ${request.now} WHERE id = ${caller.firmId}`.pipe(Effect.orDie)
      yield* FirmAudit.append(caller.firmId, {
        action: "setFirmKillSwitch",
        targetType: "firm",
        targetId: caller.firmId,
        reason: body.reason,
        details: { suspended: body.suspended }
      })
      return { body: FirmRows.firm(yield* FirmStore.loadFirm(caller.firmId)) }
    }))
] as const

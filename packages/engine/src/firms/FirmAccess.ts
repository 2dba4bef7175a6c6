import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Firms as FirmsApi } from "@ledger/api"
import { reference } from "../kernel/Actor.ts"
import { requireCompanyId } from "../kernel/CompanyContext.ts"
import * as Handler from "../kernel/Handler.ts"
import * as Pagination from "../kernel/Pagination.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Row from "../kernel/Row.ts"
import * as FirmAudit from "./audit/FirmAudit.ts"
import * as FirmContext from "./FirmContext.ts"
import * as FirmGrantStore from "./FirmGrantStore.ts"
import * as FirmRows from "./FirmRows.ts"

/**
 * A client's grants of access to firms (spec 4.3, 5.4): company operations, so the pipeline has
 * checked scope and tenant already. A firm principal acting in the client sees and may revoke only
 * its own firm's grant (a firm giving up its access); it never grants.
 */

const api = FirmsApi.Access

/** The grant as its caller may see it: a firm principal only its own firm's. */
const visibleGrant = Effect.fn("FirmAccess.visibleGrant")(function*(id: number, lock: boolean) {
  const request = yield* RequestContext
  const companyId = yield* requireCompanyId
  const grant = yield* FirmGrantStore.load(companyId, id, lock)
  if (request.actor.firmId !== null && request.actor.firmId !== grant.firm_id) return yield* Effect.fail(ApiError.notFound("firm grant"))
  return grant
})

export const handlers = [
  Handler.make(api.grantFirmAccess, ({ body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const companyId = yield* requireCompanyId
      const actor = yield* FirmContext.requireOwnPerson
      const firms = yield* sql`SELECT id FROM firms WHERE id = ${body.firm_id}`.pipe(Effect.orDie)
      if (firms.length === 0) {
        return yield* Effect.fail(ApiError.validationFailed("No such firm.", [{ path: ["body", "firm_id"], message: "Unknown firm" }]))
      }
      const grant = yield* FirmGrantStore.insert({
        companyId,
        firmId: body.firm_id,
        scopes: body.scopes,
        billing: body.billing,
        reason: body.reason ?? null,
        grantedBy: reference(actor)
      })
      yield* FirmAudit.append(body.firm_id, {
        action: "grantFirmAccess",
        companyId,
        targetType: "firm_grant",
        targetId: grant.id,
        reason: body.reason ?? null,
        details: { scopes: grant.scopes, billing: grant.billing }
      })
      return {
        body: grant,
        audit: { targetType: "firm_grant", targetId: grant.id, reason: body.reason ?? null, details: { firm_id: body.firm_id, scopes: grant.scopes } }
      }
    })),

  Handler.make(api.listFirmAccess, ({ query }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const companyId = yield* requireCompanyId
      const limit = Pagination.limitOf(query)
      const after = yield* Pagination.afterId(query)
      const firmId = request.actor.firmId
      const rows = yield* sql<Record<string, unknown>>`SELECT g.*, f.name AS firm_name FROM firm_grants g JOIN firms f ON f.id = g.firm_id
        WHERE g.company_id = ${companyId} ${firmId === null ? sql`` : sql`AND g.firm_id = ${firmId}`}
        ${after === null ? sql`` : sql`AND g.id > ${after}`} ORDER BY g.id LIMIT ${limit + 1}`.pipe(Effect.orDie)
      return { body: Pagination.page(rows, limit, (row) => Row.int(row.id), FirmRows.grant) }
    })),

  Handler.make(api.revokeFirmAccess, ({ path, body }) =>
    Effect.gen(function*() {
      const request = yield* RequestContext
      const companyId = yield* requireCompanyId
      const grant = yield* visibleGrant(path.id, true)
      if (grant.status === "revoked") return yield* Effect.fail(ApiError.fail("conflict", "The grant was already revoked; revocation is final."))
      const by = reference(request.actor)
      const ended = yield* FirmGrantStore.revoke(companyId, grant.id, grant.firm_id, body.reason, by)
      const details = { firm_id: grant.firm_id, agents_unassigned: ended.agentsUnassigned, invitations_voided: ended.invitationsVoided }
      yield* FirmAudit.append(grant.firm_id, {
        action: "revokeFirmAccess",
        companyId,
        targetType: "firm_grant",
        targetId: grant.id,
        reason: body.reason,
        details: { ...details, by_firm: request.actor.firmId !== null }
      })
      return {
        body: yield* FirmGrantStore.load(companyId, grant.id),
        audit: { targetType: "firm_grant", targetId: grant.id, reason: body.reason, details }
      }
    })),

  Handler.make(api.updateFirmAccess, ({ path, body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const companyId = yield* requireCompanyId
      const grant = yield* visibleGrant(path.id, true)
      if (grant.status === "revoked") return yield* Effect.fail(ApiError.fail("conflict", "A revoked grant does not change."))
      yield* sql`UPDATE firm_grants SET billing = ${body.billing} WHERE company_id = ${companyId} AND id = ${grant.id}`.pipe(Effect.orDie)
      const details = { firm_id: grant.firm_id, billing_before: grant.billing, billing_after: body.billing }
      yield* FirmAudit.append(grant.firm_id, { action: "updateFirmAccess", companyId, targetType: "firm_grant", targetId: grant.id, details })
      return {
        body: yield* FirmGrantStore.load(companyId, grant.id),
        audit: { targetType: "firm_grant", targetId: grant.id, details }
      }
    }))
] as const

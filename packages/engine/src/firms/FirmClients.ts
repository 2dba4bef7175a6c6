import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Firms as FirmsApi } from "@ledger/api"
import { reference } from "../kernel/Actor.ts"
import * as Handler from "../kernel/Handler.ts"
import * as StepUp from "../kernel/StepUp.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Row from "../kernel/Row.ts"
import * as Secret from "../kernel/Secret.ts"
import * as Administration from "../administration/index.ts"
import { memberRoleScopes } from "../pipeline/authenticate/FirmPrincipal.ts"
import * as FirmAudit from "./audit/FirmAudit.ts"
import * as FirmContext from "./FirmContext.ts"
import * as FirmGrantStore from "./FirmGrantStore.ts"
import * as FirmRows from "./FirmRows.ts"

/**
 * Clients a firm creates (spec 4.3, 5.4): the company, its owner, a firm-billed grant with every
 * scope and a single-use owner invitation; never a company key for the firm. The owner claims
 * their key with the invitation (administration's claimOwnerInvite).
 */

const api = FirmsApi.Clients
const { FirmLimits } = FirmsApi

/** A new pending invitation for the company's owner, replacing any pending one. */
const issueInvitation = Effect.fn("FirmClients.issueInvitation")(function*(input: {
  readonly companyId: string
  readonly firmId: number
  readonly userId: number
  readonly ownerEmail: string | null
}) {
  const sql = yield* SqlClient.SqlClient
  const request = yield* RequestContext
  const replaced = yield* sql`UPDATE owner_invitations SET status = 'replaced', ended_at = ${request.now}
    WHERE company_id = ${input.companyId} AND status = 'pending' RETURNING id`.pipe(Effect.orDie)
  const secret = yield* Secret.generate("ldgi_")
  const rows = yield* sql<Record<string, unknown>>`INSERT INTO owner_invitations ${sql.insert({
    company_id: input.companyId,
    firm_id: input.firmId,
    user_id: input.userId,
    owner_email: input.ownerEmail,
    secret_hash: yield* Secret.hash(secret),
    prefix: Secret.displayPrefix(secret),
    expires_at: FirmContext.daysLater(request.now, FirmLimits.invitationDays),
    created_at: request.now
  })} RETURNING *`.pipe(Effect.orDie)
  return { invitation: FirmRows.invitation(rows[0]!), secret, replaced: replaced.length }
})

/**
 * The client company and its owner, made as administration makes every company (plan solo). The
 * owner is shown without an email, as this answer always was (the invitation carries it).
 */
const createCompany = Effect.fn("FirmClients.createCompany")(function*(body: typeof api.createFirmClient.body.Type) {
  const created = yield* Administration.createCompanyWithOwner({
    name: body.name,
    plan: "solo",
    starterChart: body.starter_chart ?? "general",
    periods: body.periods ?? true,
    ownerName: body.owner_name,
    ownerEmail: body.owner_email
  })
  const { id, name, role, scopes, created_at } = created.owner
  return { company: created.company, owner: { id, name, role, scopes, created_at } }
})

export const handlers = [
  Handler.make(api.createFirmClient, ({ body }) =>
    Effect.gen(function*() {
      const caller = yield* FirmContext.caller(api.createFirmClient)
      // An owner invitation is a sensitive change (spec 5.5): from a browser session, only within 10 minutes of a step-up.
      yield* StepUp.requireStepUp
      const { company, owner } = yield* createCompany(body)
      const companyId = company.company_id
      const grant = yield* FirmGrantStore.insert({
        companyId,
        firmId: caller.firmId,
        scopes: memberRoleScopes.admin,
        billing: "firm",
        reason: "Client created by the firm",
        grantedBy: reference(caller.actor)
      })
      const issued = yield* issueInvitation({ companyId, firmId: caller.firmId, userId: owner.id, ownerEmail: body.owner_email ?? null })
      yield* FirmAudit.append(caller.firmId, {
        action: "createFirmClient",
        companyId,
        targetType: "company",
        targetId: companyId,
        details: { grant_id: grant.id, invitation_id: issued.invitation.id }
      })
      return {
        body: { company, owner, grant, invitation: issued.invitation, secret: issued.secret },
        audit: { companyId, targetType: "company", targetId: companyId, details: { firm_id: caller.firmId, grant_id: grant.id, starter_chart: company.starter_chart } }
      }
    })),

  Handler.make(api.reissueOwnerInvite, ({ path }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const caller = yield* FirmContext.caller(api.reissueOwnerInvite)
      yield* StepUp.requireStepUp
      const invitations = yield* sql<Record<string, unknown>>`SELECT * FROM owner_invitations WHERE company_id = ${path.id}
        AND firm_id = ${caller.firmId} ORDER BY id DESC FOR UPDATE`.pipe(Effect.orDie)
      if (invitations.length === 0) return yield* Effect.fail(ApiError.notFound("client"))
      const grants = yield* sql`SELECT id FROM firm_grants WHERE company_id = ${path.id} AND firm_id = ${caller.firmId}
        AND revoked_at IS NULL`.pipe(Effect.orDie)
      if (grants.length === 0) {
        return yield* Effect.fail(ApiError.fail("firm_access_revoked", "The client revoked the firm's access: no invitation can be issued."))
      }
      if (invitations.some((row) => row.status === "claimed")) {
        return yield* Effect.fail(ApiError.fail("invitation_claimed", "The owner has claimed the company: no new invitation is needed."))
      }
      const last = invitations[0]!
      const issued = yield* issueInvitation({
        companyId: path.id,
        firmId: caller.firmId,
        userId: Row.int(last.user_id),
        ownerEmail: last.owner_email === null ? null : String(last.owner_email)
      })
      yield* FirmAudit.append(caller.firmId, {
        action: "reissueOwnerInvite",
        companyId: path.id,
        targetType: "owner_invitation",
        targetId: issued.invitation.id,
        details: { replaced: issued.replaced }
      })
      return {
        body: { invitation: issued.invitation, secret: issued.secret },
        audit: { companyId: path.id, targetType: "owner_invitation", targetId: issued.invitation.id, details: { replaced: issued.replaced } }
      }
    }))
] as const

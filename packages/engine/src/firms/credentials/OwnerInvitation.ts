import { Effect } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { ApiError } from "@ledger/api"
import type { Actor } from "../../kernel/Actor.ts"
import * as Row from "../../kernel/Row.ts"
import * as Secret from "../../kernel/Secret.ts"
import { type Asking, type Authenticated, type CompanyState, type Refused, refusedUnknown, byPrefix, type CredentialStrategy } from "../../pipeline/authenticate/Credential.ts"

/**
 * An owner invitation (`ldgi_` + 43, spec 3.9, 5.1, 5.4): the Bearer credential of
 * `POST /v1/owner-invites/claim` only. It names the owner of a company a firm created. A claimed
 * invitation still authenticates, so the claim can answer `invitation_claimed` (someone else used
 * it: the owner should revoke the firm's access); a replaced, expired or voided one is refused.
 */

export const prefix = "ldgi_"

const readInvitation = (sql: SqlClient.SqlClient, hash: string) =>
  sql<Record<string, unknown>>`
    SELECT i.company_id, i.id, i.user_id, i.status, i.expires_at, u.name AS user_name,
      c.plan, c.rate_limit_rpm, c.kill_switch_suspended
    FROM owner_invitations i
    JOIN users u ON u.company_id = i.company_id AND u.id = i.user_id
    JOIN companies c ON c.company_id = i.company_id
    WHERE i.secret_hash = ${hash}`

const knownOf = (row: Record<string, unknown>): Authenticated => {
  const companyId = String(row.company_id)
  const actor: Actor = {
    type: "user",
    id: Row.int(row.user_id),
    name: String(row.user_name),
    role: "owner",
    companyId,
    scopes: [],
    isPerson: true,
    keyId: Row.int(row.id),
    credentialKind: "invitation",
    postingThresholdCents: null,
    rateLimitRpm: null,
    firmId: null
  }
  const company: CompanyState = {
    companyId,
    plan: row.plan as CompanyState["plan"],
    rateLimitRpm: Row.intOrNull(row.rate_limit_rpm),
    killSwitchSuspended: Boolean(row.kill_switch_suspended)
  }
  return { actor, company }
}

/** Why an invitation found may not be claimed, by its state (spec 3.9), or null. */
const endedBecause = (row: Record<string, unknown>, nowMs: number): { reason: string; message: string } | null => {
  if (row.status === "replaced") return { reason: "replaced", message: "The owner invitation was replaced by a newer one." }
  if (row.status === "void") {
    return { reason: "access_revoked", message: "The owner invitation is void: the company revoked the firm's access." }
  }
  if (row.status === "pending" && Date.parse(Row.iso(row.expires_at)) <= nowMs) {
    return { reason: "expired", message: "The owner invitation has expired; ask the firm for a new one." }
  }
  return null
}

export const authenticate = Effect.fn("OwnerInvitation.authenticate")(function*(
  token: string,
  asking: Asking
): Effect.fn.Return<Authenticated, Refused | SqlError.SqlError, SqlClient.SqlClient> {
  const sql = yield* SqlClient.SqlClient
  const row = (yield* readInvitation(sql, yield* Secret.hash(token)))[0]
  if (row === undefined) return yield* Effect.fail(refusedUnknown("The owner invitation is not valid."))
  const known = knownOf(row)
  const ended = endedBecause(row, Date.parse(asking.now))
  if (ended !== null) {
    return yield* Effect.fail<Refused>({ error: ApiError.fail("unauthorized", ended.message, { reason: ended.reason }), known })
  }
  return known
})

/** The pipeline's `invitation` door: the one operation that accepts it. */
export const strategy: CredentialStrategy = byPrefix({ name: "owner_invitation", door: "invitation", order: 10, prefix, authenticate })

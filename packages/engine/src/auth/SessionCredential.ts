import { Effect } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import type { Scope } from "@ledger/api"
import { type Actor, roleScopes } from "../kernel/Actor.ts"
import * as Row from "../kernel/Row.ts"
import * as Secret from "../kernel/Secret.ts"
import { type Asking, type Authenticated, type CompanyState, type Refused, refusedUnknown, byPrefix, type CredentialStrategy, unauthorized } from "../pipeline/authenticate/Credential.ts"

/**
 * A web session (`ldgs_`, spec 5.1): a person signed in to the web app, acting in their company
 * with their role's scopes, like a key of theirs holding all of them. 8 hours idle, 7 days at
 * most; revocation is effective on the next request. A use moves the idle end forward, written at
 * most once a minute. Sessions are made by the auth area (auth/common/SessionStore.ts).
 * Firm sessions (`ldgf_`) are the firms area's (firms/credentials/FirmSession.ts,
 * docs/decisions/1000-sign-in-sessions-and-principals.md). The auth area's strategy for the
 * pipeline's `company` door (registered in index.ts): the sessions are its table.
 */

export const prefix = "ldgs_"
const idleMs = 8 * 3_600_000
const useResolutionMs = 60_000

const readSession = (sql: SqlClient.SqlClient, hash: string) =>
  sql<Record<string, unknown>>`
    SELECT s.id, s.kind, s.company_id, s.user_id, s.firm_id, s.member_id, s.created_at, s.last_used_at,
      s.idle_expires_at, s.expires_at, s.revoked_at, s.stepped_up_at,
      c.plan, c.rate_limit_rpm AS company_rate_limit_rpm, c.kill_switch_suspended, u.name AS user_name, u.role AS user_role
    FROM auth_sessions s
    LEFT JOIN companies c ON c.company_id = s.company_id
    LEFT JOIN users u ON u.company_id = s.company_id AND u.id = s.user_id
    WHERE s.secret_hash = ${hash}`

const knownOf = (row: Record<string, unknown>): Authenticated => {
  const role = row.user_role as keyof typeof roleScopes
  const actor: Actor = {
    type: "user",
    id: Row.int(row.user_id),
    name: String(row.user_name),
    role: String(row.user_role),
    companyId: String(row.company_id),
    scopes: [...(roleScopes[role] ?? [])] as Array<Scope.Scope>,
    isPerson: true,
    keyId: Row.int(row.id),
    credentialKind: "session",
    postingThresholdCents: null,
    rateLimitRpm: null,
    firmId: null,
    steppedUpAt: Row.isoOrNull(row.stepped_up_at)
  }
  const company: CompanyState = {
    companyId: String(row.company_id),
    plan: row.plan as CompanyState["plan"],
    rateLimitRpm: Row.intOrNull(row.company_rate_limit_rpm),
    killSwitchSuspended: Boolean(row.kill_switch_suspended)
  }
  return { actor, company }
}

const endedBecause = (row: Record<string, unknown>, nowMs: number): string | null => {
  if (row.revoked_at !== null) return "The session has ended (signed out or revoked)."
  if (nowMs >= Date.parse(Row.iso(row.expires_at))) return "The session has expired: sign in again."
  if (nowMs >= Date.parse(Row.iso(row.idle_expires_at))) return "The session expired after 8 hours without use: sign in again."
  return null
}

/** Moves the idle end forward, at most once a minute, never past the session's end. */
const touch = (sql: SqlClient.SqlClient, row: Record<string, unknown>, nowMs: number) => {
  if (nowMs - Date.parse(Row.iso(row.last_used_at)) < useResolutionMs) return Effect.void
  const idle = new Date(Math.min(Date.parse(Row.iso(row.expires_at)), nowMs + idleMs)).toISOString()
  return Effect.asVoid(sql`UPDATE auth_sessions SET last_used_at = ${new Date(nowMs).toISOString()}, idle_expires_at = ${idle}
    WHERE id = ${Row.int(row.id)}`)
}

/** A session token's row, checked: the row, or why it may not act (and its idle end moved on a use). */
export const liveSession = Effect.fn("Session.live")(function*(token: string, asking: Asking) {
  const sql = yield* SqlClient.SqlClient
  const hash = asking.secretHash ?? (yield* Secret.hash(token))
  const row = (yield* readSession(sql, hash))[0]
  if (row === undefined) return { row: null, ended: "The session is not valid." }
  const nowMs = Date.parse(asking.now)
  const ended = endedBecause(row, nowMs)
  if (ended === null) yield* touch(sql, row, nowMs)
  return { row, ended }
})

export const authenticate = Effect.fn("Session.authenticate")(function*(
  token: string,
  asking: Asking
): Effect.fn.Return<Authenticated, Refused | SqlError.SqlError, SqlClient.SqlClient> {
  const { row, ended } = yield* liveSession(token, asking)
  if (row === null || row.kind !== "web" || row.user_name === null) {
    return yield* Effect.fail(refusedUnknown("The session is not valid."))
  }
  const known = knownOf(row)
  if (ended !== null) return yield* Effect.fail<Refused>({ error: unauthorized(ended), known })
  return known
})

export const strategy: CredentialStrategy = byPrefix({ name: "web_session", door: "company", order: 40, prefix, authenticate })

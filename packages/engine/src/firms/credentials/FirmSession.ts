import { Effect, Option } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { Firms, type Scope } from "@ledger/api"
import * as Row from "../../kernel/Row.ts"
import * as Secret from "../../kernel/Secret.ts"
import { type Asking, type Authenticated, type Refused, refusedUnknown, type CredentialStrategy, unauthorized } from "../../pipeline/authenticate/Credential.ts"
import { capped, firmActor, type FirmPrincipal, type Located, type MemberRole, memberRoleScopes } from "../../pipeline/authenticate/FirmPrincipal.ts"

/**
 * A firm session (`ldgf_` + 43, spec 5.1): a firm member in the accountant console, 8 hours idle
 * and 7 days at most, never past the key it was opened with. Sessions are opened by
 * `POST /v1/firm/sessions` or by the sign-in of the auth area (firms/FirmSessionStore.open); a
 * signed-in one carries its step-up (`stepped_up_at`, kernel/StepUp.ts), a key-opened one none.
 */

export const prefix = "ldgf_"

/** The idle deadline moves at most once a minute: one write a minute per session, not one per request. */
const touchResolutionMs = 60_000
export const idleMs = 8 * 3_600_000

const readSession = (sql: SqlClient.SqlClient, hash: string) =>
  sql<Record<string, unknown>>`
    SELECT s.firm_id, s.id, s.member_id, s.key_id, s.scopes, s.last_seen_at, s.idle_expires_at, s.expires_at, s.revoked_at,
      s.stepped_up_at,
      f.rate_limit_rpm AS firm_rate_limit_rpm, f.kill_switch_suspended AS firm_kill_switch,
      m.name AS member_name, m.role AS member_role, m.status AS member_status,
      k.revoked_at AS key_revoked_at, k.expires_at AS key_expires_at, k.rate_limit_rpm AS key_rate_limit_rpm
    FROM firm_sessions s
    JOIN firms f ON f.id = s.firm_id
    JOIN firm_members m ON m.firm_id = s.firm_id AND m.id = s.member_id
    LEFT JOIN firm_keys k ON k.firm_id = s.firm_id AND k.id = s.key_id
    WHERE s.secret_hash = ${hash}`

const principalOf = (row: Record<string, unknown>): FirmPrincipal => {
  const role = row.member_role as MemberRole
  return {
    firmId: Row.int(row.firm_id),
    type: "firm_member",
    id: Row.int(row.member_id),
    name: String(row.member_name),
    role,
    scopes: capped(Row.textArray<Scope.Scope>(row.scopes), memberRoleScopes[role] ?? []),
    keyId: Row.int(row.id),
    credentialKind: "session",
    rateLimitRpm: Row.intOrNull(row.key_rate_limit_rpm) ?? Row.intOrNull(row.firm_rate_limit_rpm) ?? Firms.FirmLimits.credentialRequestsPerMinuteDefault,
    firmKillSwitch: Boolean(row.firm_kill_switch),
    steppedUpAt: Row.isoOrNull(row.stepped_up_at)
  }
}

const endedBecause = (row: Record<string, unknown>, nowMs: number): string | null => {
  if (row.revoked_at !== null) return "The firm session has ended."
  if (row.member_status !== "active") return "The firm member has been removed."
  if (Date.parse(Row.iso(row.expires_at)) <= nowMs) return "The firm session has expired."
  if (Date.parse(Row.iso(row.idle_expires_at)) <= nowMs) return "The firm session has been idle too long."
  if (row.key_id !== null && row.key_revoked_at !== null) return "The key this session was opened with has been revoked."
  if (row.key_id !== null && Date.parse(Row.iso(row.key_expires_at)) <= nowMs) return "The key this session was opened with has expired."
  return null
}

/**
 * The session's principal, and the write of its last use when one is due (once a minute), to run
 * once the request's every read is done: a client's state is read after the session
 * (FirmCredential.forClient).
 */
export const locate = Effect.fn("FirmSession.locate")(function*(
  token: string,
  asking: Asking
): Effect.fn.Return<Option.Option<Located>, Refused | SqlError.SqlError, SqlClient.SqlClient> {
  if (!token.startsWith(prefix)) return Option.none()
  const sql = yield* SqlClient.SqlClient
  const row = (yield* readSession(sql, yield* Secret.hash(token)))[0]
  if (row === undefined) return Option.none()
  const principal = principalOf(row)
  const nowMs = Date.parse(asking.now)
  const ended = endedBecause(row, nowMs)
  if (ended !== null) {
    return yield* Effect.fail<Refused>({ error: unauthorized(ended), known: { actor: firmActor(principal), company: null } })
  }
  const idle = new Date(Math.min(nowMs + idleMs, Date.parse(Row.iso(row.expires_at)))).toISOString()
  const touch = nowMs - Date.parse(Row.iso(row.last_seen_at)) >= touchResolutionMs
    ? Effect.asVoid(sql`UPDATE firm_sessions SET last_seen_at = ${asking.now}, idle_expires_at = ${idle}
      WHERE firm_id = ${principal.firmId} AND id = ${principal.keyId}`)
    : Effect.void
  return Option.some({ principal, touch })
})

/** The session's principal, its last use written when due. */
export const find = (token: string, asking: Asking) =>
  Effect.flatMap(locate(token, asking), (found) =>
    Option.isNone(found) ? Effect.succeed(Option.none<FirmPrincipal>()) : Effect.as(found.value.touch, Option.some(found.value.principal)))

export const strategy: CredentialStrategy = {
  name: "firm_session",
  door: "firm",
  order: 10,
  recognises: (token) => token.startsWith(prefix),
  authenticate: (token, asking) =>
    Effect.flatMap(find(token, asking), (found) =>
      Option.isNone(found)
        ? Effect.fail(refusedUnknown("The firm session is not valid."))
        : Effect.succeed(Option.some<Authenticated>({ actor: firmActor(found.value), company: null })))
}

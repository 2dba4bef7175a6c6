import { Effect, Option } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { Firms, type Scope } from "@ledger/api"
import * as Row from "../../kernel/Row.ts"
import * as Secret from "../../kernel/Secret.ts"
import { type Asking, type Authenticated, type Refused, refusedUnknown, type CredentialStrategy, unauthorized } from "../../pipeline/authenticate/Credential.ts"
import { capped, firmActor, type FirmPrincipal, type Located, type MemberRole, memberRoleScopes } from "../../pipeline/authenticate/FirmPrincipal.ts"

/**
 * A firm key (`ldg_` + 43, the shape of a company key, spec 5.1): a firm member's or a firm agent's.
 * At the firm level it acts as itself; in a client, through the grant (FirmClient.inClient).
 */

export const prefix = "ldg_"

/** A key's last use is kept to the minute, as company keys' are. */
const lastUseResolutionMs = 60_000

const readKey = (sql: SqlClient.SqlClient, hash: string) =>
  sql<Record<string, unknown>>`
    SELECT k.firm_id, k.id, k.principal_type, k.member_id, k.firm_agent_id, k.scopes, k.expires_at, k.revoked_at,
      k.overlap_ends_at, k.rate_limit_rpm, k.last_used_at, f.rate_limit_rpm AS firm_rate_limit_rpm,
      f.kill_switch_suspended AS firm_kill_switch, m.name AS member_name, m.role AS member_role, m.status AS member_status,
      a.name AS agent_name, a.status AS agent_status, a.scopes AS agent_scopes
    FROM firm_keys k
    JOIN firms f ON f.id = k.firm_id
    LEFT JOIN firm_members m ON m.firm_id = k.firm_id AND m.id = k.member_id
    LEFT JOIN firm_agents a ON a.firm_id = k.firm_id AND a.id = k.firm_agent_id
    WHERE k.secret_hash = ${hash}`

/** The principal a key's row names, its scopes within its holder's ceiling. */
export const principalOf = (row: Record<string, unknown>): FirmPrincipal => {
  const isAgent = row.principal_type === "agent"
  const role = isAgent ? null : row.member_role as MemberRole
  const ceiling = isAgent ? Row.textArray<Scope.Scope>(row.agent_scopes) : memberRoleScopes[role!] ?? []
  return {
    firmId: Row.int(row.firm_id),
    type: isAgent ? "firm_agent" : "firm_member",
    id: Row.int(isAgent ? row.firm_agent_id : row.member_id),
    name: String(isAgent ? row.agent_name : row.member_name),
    role,
    scopes: capped(Row.textArray<Scope.Scope>(row.scopes), ceiling),
    keyId: Row.int(row.id),
    credentialKind: "api_key",
    rateLimitRpm: Row.intOrNull(row.rate_limit_rpm) ?? Row.intOrNull(row.firm_rate_limit_rpm) ?? Firms.FirmLimits.credentialRequestsPerMinuteDefault,
    firmKillSwitch: Boolean(row.firm_kill_switch)
  }
}

/** Why a key found may not act at `nowMs`, or null when it may (spec 3.9, 5.7). */
const endedBecause = (row: Record<string, unknown>, nowMs: number): string | null => {
  if (row.revoked_at !== null) return "The firm key has been revoked."
  if (row.principal_type === "member" && row.member_status !== "active") return "The firm member has been removed."
  if (row.principal_type === "agent" && row.agent_status !== "active") return "The firm agent has been revoked."
  if (Date.parse(Row.iso(row.expires_at)) <= nowMs) return "The firm key has expired."
  if (row.overlap_ends_at !== null && Date.parse(Row.iso(row.overlap_ends_at)) <= nowMs) {
    return "The firm key was rotated and its overlap has ended."
  }
  return null
}

/**
 * The firm principal of a firm key, or none when the token is no firm key (it may be a company's);
 * a key that has ended is refused, naming its holder so the refusal can be told apart.
 */
export const locate = Effect.fn("FirmKey.locate")(function*(
  token: string,
  asking: Asking
): Effect.fn.Return<Option.Option<Located>, Refused | SqlError.SqlError, SqlClient.SqlClient> {
  if (!token.startsWith(prefix)) return Option.none()
  const sql = yield* SqlClient.SqlClient
  const hash = asking.secretHash ?? (yield* Secret.hash(token))
  const row = (yield* readKey(sql, hash))[0]
  if (row === undefined) return Option.none()
  const principal = principalOf(row)
  const nowMs = Date.parse(asking.now)
  const ended = endedBecause(row, nowMs)
  if (ended !== null) {
    return yield* Effect.fail<Refused>({ error: unauthorized(ended), known: { actor: firmActor(principal), company: null } })
  }
  const lastUsedMs = row.last_used_at === null ? 0 : Date.parse(Row.iso(row.last_used_at))
  // Written once the request's every read is done (a client's state is read after the key:
  // FirmCredential.forClient).
  const touch = nowMs - lastUsedMs >= lastUseResolutionMs
    ? Effect.asVoid(sql`UPDATE firm_keys SET last_used_at = ${asking.now} WHERE firm_id = ${principal.firmId} AND id = ${principal.keyId}`)
    : Effect.void
  return Option.some({ principal, touch })
})

/** The key's principal, its last use written when due. */
export const find = (token: string, asking: Asking) =>
  Effect.flatMap(locate(token, asking), (found) =>
    Option.isNone(found) ? Effect.succeed(Option.none<FirmPrincipal>()) : Effect.as(found.value.touch, Option.some(found.value.principal)))

/** The firm door's strategy for keys: the firm's own operations, without a company. */
export const strategy: CredentialStrategy = {
  name: "firm_key",
  door: "firm",
  order: 20,
  recognises: (token) => token.startsWith(prefix),
  authenticate: (token, asking) =>
    Effect.flatMap(find(token, asking), (found) =>
      Option.isNone(found)
        ? Effect.fail(refusedUnknown("The firm key is not valid."))
        : Effect.succeed(Option.some<Authenticated>({ actor: firmActor(found.value), company: null })))
}

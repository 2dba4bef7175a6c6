import { Effect } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { ApiError, type Scope } from "@ledger/api"
import { type Actor, roleScopes } from "../kernel/Actor.ts"
import * as Row from "../kernel/Row.ts"
import * as Secret from "../kernel/Secret.ts"
import * as Idempotency from "../pipeline/Idempotency.ts"
import { consentMessage } from "../pipeline/authenticate/ConsentGate.ts"
import {
  type ApiKeyUse,
  type Asking,
  type Authenticated,
  byPrefix,
  type CompanyState,
  type CredentialStrategy,
  type Refused,
  refusedUnknown,
  unauthorized
} from "../pipeline/authenticate/Credential.ts"
import { apiKeyJoins, apiKeyState } from "../pipeline/authenticate/CredentialStates.ts"

/**
 * A company API key (`ldg_`): a user's or an agent's, in one company. The administration area's
 * strategy for the pipeline's `company` door (registered in index.ts): the keys are its table.
 * What it finds may be remembered for a group commit's writes (ADR 0713); the batch's statement
 * checks the key is still in the state found (pipeline/authenticate/CredentialStates.ts).
 */

/** The prefix every company API key has (Secret.generate). */
export const prefix = "ldg_"

/** How long a key's last use may be old before a request writes it again: one write a minute per key. */
export const lastUseResolutionMs = 60_000

/**
 * The key's row with everything decided by along with it, and with an Idempotency-Key the record
 * this key's principal holds under it: tenant and principal are written as the Dispatcher writes
 * them (`company:<id>`, Actor.reference).
 */
const readKey = (sql: SqlClient.SqlClient, hash: string, idempotencyKey: string | null, today: string) => {
  const stored = Idempotency.storedAlongside(sql, idempotencyKey, "'company:' || k.company_id::text",
    "CASE WHEN k.principal_type = 'agent' THEN 'agent:' || k.agent_id ELSE 'user:' || k.user_id END")
  return sql<Record<string, unknown>>`
    SELECT k.company_id, k.id, k.principal_type, k.user_id, k.agent_id, k.scopes, k.expires_at, k.revoked_at,
      k.overlap_ends_at, k.rate_limit_rpm, k.last_used_at,
      c.plan, c.rate_limit_rpm AS company_rate_limit_rpm, c.kill_switch_suspended,
      u.name AS user_name, u.role AS user_role,
      a.name AS agent_name, a.status AS agent_status, a.posting_threshold_cents, a.scopes AS agent_scopes, a.ai_provider,
      CASE WHEN k.principal_type = 'agent' THEN ledger_ai_consent_gate(k.company_id, a.ai_provider, ${today}::date) END AS consent_gate,
      ${sql.literal(apiKeyState)} AS credential_state ${stored.columns}
    FROM api_keys k
    ${sql.literal(apiKeyJoins)}
    ${stored.join}
    WHERE k.secret_hash = ${hash}`
}

/** The actor, company and stored record a key's row names, before any check of its validity. */
const knownOf = (row: Record<string, unknown>): Authenticated => {
  const isAgent = row.principal_type === "agent"
  const ceiling: ReadonlyArray<Scope.Scope> = isAgent
    ? Row.textArray<Scope.Scope>(row.agent_scopes)
    : roleScopes[row.user_role as keyof typeof roleScopes] ?? []
  const actor: Actor = {
    type: isAgent ? "agent" : "user",
    id: Row.int(isAgent ? row.agent_id : row.user_id),
    name: String(isAgent ? row.agent_name : row.user_name),
    role: isAgent ? null : String(row.user_role),
    companyId: String(row.company_id),
    scopes: Row.textArray<Scope.Scope>(row.scopes).filter((scope) => ceiling.includes(scope)),
    isPerson: !isAgent,
    keyId: Row.int(row.id),
    credentialKind: "api_key",
    postingThresholdCents: isAgent ? Row.int(row.posting_threshold_cents) : null,
    rateLimitRpm: Row.intOrNull(row.rate_limit_rpm),
    firmId: null
  }
  const company: CompanyState = {
    companyId: String(row.company_id),
    plan: row.plan as CompanyState["plan"],
    rateLimitRpm: Row.intOrNull(row.company_rate_limit_rpm),
    killSwitchSuspended: Boolean(row.kill_switch_suspended)
  }
  const stored = row.stored_status === undefined || row.stored_status === null ? null : {
    requestHash: String(row.stored_request_hash),
    status: Number(row.stored_status),
    body: row.stored_body,
    answer: Row.bytesOrNull(row.stored_answer),
    expiresAt: Row.iso(row.stored_expires_at)
  }
  return { actor, company, stored }
}

/** Why a key found may not act at `nowMs`, or null when it may. */
const endedBecause = (row: Record<string, unknown>, nowMs: number): string | null => {
  if (row.revoked_at !== null) return "The API key has been revoked."
  if (row.principal_type === "agent" && row.agent_status !== "active") return "The agent has been revoked."
  if (Date.parse(Row.iso(row.expires_at)) <= nowMs) return "The API key has expired."
  if (row.overlap_ends_at !== null && Date.parse(Row.iso(row.overlap_ends_at)) <= nowMs) {
    return "The API key was rotated and its overlap has ended."
  }
  return null
}

/**
 * Resolves a company API key to its actor, or explains why it may not act now. With an
 * Idempotency-Key the record its principal holds under it comes in the same statement.
 */
export const authenticate = Effect.fn("ApiKey.authenticate")(function*(
  token: string,
  asking: Asking
): Effect.fn.Return<Authenticated, Refused | SqlError.SqlError, SqlClient.SqlClient> {
  const sql = yield* SqlClient.SqlClient
  const hash = asking.secretHash ?? (yield* Secret.hash(token))
  const row = (yield* readKey(sql, hash, asking.idempotencyKey, asking.now.slice(0, 10)))[0]
  if (row === undefined) return yield* Effect.fail(refusedUnknown("The API key is not valid."))
  const known = knownOf(row)
  const nowMs = Date.parse(asking.now)
  const ended = endedBecause(row, nowMs)
  if (ended !== null) return yield* Effect.fail<Refused>({ error: unauthorized(ended), known })
  // Spec 4.4: with a 7216 requirement on, an agent whose provider no signed consent covers is kept out.
  const missing = consentMessage(row.consent_gate, row.ai_provider, "agent")
  if (missing !== null) {
    return yield* Effect.fail<Refused>({ error: ApiError.fail("consent_required", missing, { agent_id: known.actor.id }), known })
  }
  // Last use is kept to the minute: one write a minute per key, not one per request.
  let lastUsedMs = row.last_used_at === null ? 0 : Date.parse(Row.iso(row.last_used_at))
  if (nowMs - lastUsedMs >= lastUseResolutionMs) {
    yield* sql`UPDATE api_keys SET last_used_at = ${asking.now} WHERE company_id = ${known.actor.companyId} AND id = ${known.actor.keyId}`
    lastUsedMs = nowMs
  }
  const apiKey: ApiKeyUse = {
    companyId: String(row.company_id),
    keyId: Row.int(row.id),
    state: String(row.credential_state),
    secretHash: hash,
    reusableUntilMs: Math.min(
      Date.parse(Row.iso(row.expires_at)),
      row.overlap_ends_at === null ? Infinity : Date.parse(Row.iso(row.overlap_ends_at)),
      lastUsedMs + lastUseResolutionMs
    )
  }
  return { ...known, apiKey }
})

/** Tried after a firm credential acting in a client, which has its prefix (firms/credentials/). */
export const strategy: CredentialStrategy = byPrefix({ name: "api_key", door: "company", order: 30, prefix, remembered: true, authenticate })

import { Effect, Option } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, type Operation, type Scope } from "@ledger/api"
import { type Actor, operator, roleScopes } from "../kernel/Actor.ts"
import * as Row from "../kernel/Row.ts"
import * as Secret from "../kernel/Secret.ts"

/** A company as the pipeline needs it on every request. */
export interface CompanyState {
  readonly companyId: string
  readonly plan: "solo" | "business" | "advanced" | "owned"
  readonly rateLimitRpm: number | null
  readonly killSwitchSuspended: boolean
}

export interface Authenticated {
  readonly actor: Actor
  readonly company: CompanyState | null
  /**
   * The idempotency record this principal already holds under the request's Idempotency-Key, read
   * by the same statement: a replay is then answered with no transaction at all.
   */
  readonly stored?: StoredResult | null
  /** An API key's: the state it was found in, by which the pipeline may remember it (CredentialMemory.ts). */
  readonly apiKey?: ApiKeyUse | undefined
}

/**
 * An API key and everything the pipeline decides by along with it (the key, its company, its user
 * or agent) as one value, `state`, that changes whenever any of them does.
 */
export interface CredentialState {
  readonly companyId: string
  readonly keyId: number
  readonly state: string
}

/** A key as authentication found it: its state, the hash of its secret, and until when that finding may be reused. */
export interface ApiKeyUse extends CredentialState {
  readonly secretHash: string
  /**
   * The key's expiry, its rotation overlap's end, or a minute after its last use was written,
   * whichever is first: past it, only a full authentication may let the key act (and write its
   * last use).
   */
  readonly reusableUntilMs: number
}

/** How long a key's last use may be old before a request writes it again: one write a minute per key. */
export const lastUseResolutionMs = 60_000

/** The rows an API key (`k`) is decided by: its company (`c`) and its user (`u`) or agent (`a`). */
const credentialJoins = `JOIN companies c ON c.company_id = k.company_id
    LEFT JOIN users u ON u.company_id = k.company_id AND u.id = k.user_id
    LEFT JOIN agents a ON a.company_id = k.company_id AND a.id = k.agent_id`

/**
 * A key's state over those rows: every column authentication and the pipeline decide by, except
 * the last use (written once a minute, and bounding reuse by itself). Times as epoch seconds, so
 * that no session setting changes the text.
 */
const credentialState = `md5(ROW(k.principal_type, k.user_id, k.agent_id, k.scopes, extract(epoch FROM k.expires_at),
      extract(epoch FROM k.revoked_at), extract(epoch FROM k.overlap_ends_at), k.rate_limit_rpm, c.plan, c.rate_limit_rpm,
      c.kill_switch_suspended, u.name, u.role, a.name, a.status, a.posting_threshold_cents, a.scopes)::text)`

/**
 * A query counting the keys of `credentials` (a JSON array of `company_id`, `key_id`, `state`)
 * still in the state given: a statement that relied on remembered keys compares it with their
 * number (GroupCommit.ts). Each key is found by its primary key in a scalar subquery, which the
 * planner cannot turn into a join over every company's keys.
 */
export const currentCredentialsCount = (sql: SqlClient.SqlClient, credentials: ReadonlyArray<CredentialState>) =>
  sql`SELECT count(*) FROM json_to_recordset(${
    JSON.stringify(credentials.map((credential) => ({
      company_id: credential.companyId,
      key_id: credential.keyId,
      state: credential.state
    })))
  }::json) AS x(company_id uuid, key_id bigint, state text)
    WHERE (SELECT ${sql.literal(credentialState)} = x.state FROM api_keys k ${sql.literal(credentialJoins)}
      WHERE k.company_id = x.company_id AND k.id = x.key_id)`

/** An idempotency record as stored (Idempotency.ts decides what it means for the request). */
export interface StoredResult {
  /** The first 16 bytes of the request's fingerprint, as 32 hexadecimal characters (`Idempotency.requestHashOf`). */
  readonly requestHash: string
  readonly status: number
  /** The answer of a record written before migration 0008, as `json`; null once `answer` holds it. */
  readonly body: unknown
  /** The answer packed (StoredAnswer.ts); null for a record written before migration 0008. */
  readonly answer: Uint8Array | null
  readonly expiresAt: string
}

/** A credential that was recognised but may not be used, so the refusal can be audited. */
export interface Refused {
  readonly error: ApiError.LedgerError
  readonly known: Authenticated | null
}

const unauthorized = (message: string) => ApiError.fail("unauthorized", message)

/**
 * Resolves a company API key (`ldg_`) to its actor, or explains why it may not act now.
 * `secretHash` is the token's `Secret.hash` when the caller has it already.
 */
export const apiKey = Effect.fn("Authenticate.apiKey")(function*(
  token: string,
  now: string,
  idempotencyKey: string | null = null,
  secretHash: string | null = null
) {
  const sql = yield* SqlClient.SqlClient
  const hash = secretHash ?? (yield* Secret.hash(token))
  // With an Idempotency-Key, the record this key's principal holds under it comes along: tenant and
  // principal are written as Dispatcher writes them (`company:<id>`, Actor.reference).
  const stored = idempotencyKey === null ? sql`` : sql`, encode(r.request_hash, 'hex') AS stored_request_hash,
      r.status AS stored_status, r.body AS stored_body, r.answer AS stored_answer, r.expires_at AS stored_expires_at`
  const storedJoin = idempotencyKey === null ? sql`` : sql`LEFT JOIN idempotency_records r
      ON r.scope = ledger_idempotency_scope('company:' || k.company_id::text,
        CASE WHEN k.principal_type = 'agent' THEN 'agent:' || k.agent_id ELSE 'user:' || k.user_id END, ${idempotencyKey})`
  const rows = yield* sql<Record<string, unknown>>`
    SELECT k.company_id, k.id, k.principal_type, k.user_id, k.agent_id, k.scopes, k.expires_at, k.revoked_at,
      k.overlap_ends_at, k.rate_limit_rpm, k.last_used_at,
      c.plan, c.rate_limit_rpm AS company_rate_limit_rpm, c.kill_switch_suspended,
      u.name AS user_name, u.role AS user_role,
      a.name AS agent_name, a.status AS agent_status, a.posting_threshold_cents, a.scopes AS agent_scopes,
      ${sql.literal(credentialState)} AS credential_state ${stored}
    FROM api_keys k
    ${sql.literal(credentialJoins)}
    ${storedJoin}
    WHERE k.secret_hash = ${hash}`.pipe(Effect.orDie)
  const row = rows[0]
  if (row === undefined) return yield* Effect.fail<Refused>({ error: unauthorized("The API key is not valid."), known: null })

  const isAgent = row.principal_type === "agent"
  const ceiling: ReadonlyArray<Scope.Scope> = isAgent
    ? Row.textArray<Scope.Scope>(row.agent_scopes)
    : roleScopes[row.user_role as keyof typeof roleScopes] ?? []
  const keyScopes = Row.textArray<Scope.Scope>(row.scopes)
  const actor: Actor = {
    type: isAgent ? "agent" : "user",
    id: Row.int(isAgent ? row.agent_id : row.user_id),
    name: String(isAgent ? row.agent_name : row.user_name),
    role: isAgent ? null : String(row.user_role),
    companyId: String(row.company_id),
    scopes: keyScopes.filter((scope) => ceiling.includes(scope)),
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
  const known: Authenticated = {
    actor,
    company,
    stored: row.stored_status === undefined || row.stored_status === null ? null : {
      requestHash: String(row.stored_request_hash),
      status: Number(row.stored_status),
      body: row.stored_body,
      answer: Row.bytesOrNull(row.stored_answer),
      expiresAt: Row.iso(row.stored_expires_at)
    }
  }
  const nowMs = Date.parse(now)
  if (row.revoked_at !== null) {
    return yield* Effect.fail<Refused>({ error: unauthorized("The API key has been revoked."), known })
  }
  if (isAgent && row.agent_status !== "active") {
    return yield* Effect.fail<Refused>({ error: unauthorized("The agent has been revoked."), known })
  }
  if (Date.parse(Row.iso(row.expires_at)) <= nowMs) {
    return yield* Effect.fail<Refused>({ error: unauthorized("The API key has expired."), known })
  }
  if (row.overlap_ends_at !== null && Date.parse(Row.iso(row.overlap_ends_at)) <= nowMs) {
    return yield* Effect.fail<Refused>({ error: unauthorized("The API key was rotated and its overlap has ended."), known })
  }
  // Last use is kept to the minute: one write a minute per key, not one per request.
  let lastUsedMs = row.last_used_at === null ? 0 : Date.parse(Row.iso(row.last_used_at))
  if (nowMs - lastUsedMs >= lastUseResolutionMs) {
    yield* sql`UPDATE api_keys SET last_used_at = ${now} WHERE company_id = ${company.companyId} AND id = ${actor.keyId}`
      .pipe(Effect.orDie)
    lastUsedMs = nowMs
  }
  const apiKey: ApiKeyUse = {
    companyId: company.companyId,
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

/**
 * Who is asking, by the kind of credential the operation takes: null for an operation that takes
 * none. `idempotencyKey` is a keyed write's valid key: the API key's statement also reads the
 * record its principal holds under it (`Authenticated.stored`). `secretHash` is the token's
 * `Secret.hash` when the caller has it already.
 */
export const forOperation = (
  kind: Operation.Credential,
  token: string | null,
  now: string,
  idempotencyKey: string | null,
  secretHash: string | null = null
): Effect.Effect<Authenticated | null, Refused, SqlClient.SqlClient> => {
  const refused = (message: string) => Effect.fail<Refused>({ error: unauthorized(message), known: null })
  switch (kind) {
    case "none":
      return Effect.succeed(null)
    case "operator":
      return token === null ? refused("The operator token is required.") : operatorToken(token)
    case "company":
      if (token === null) return refused("A Bearer credential is required.")
      return token.startsWith("ldg_") ? apiKey(token, now, idempotencyKey, secretHash) : refused("The credential is not valid.")
    default:
      return refused("This credential kind is not accepted here yet.")
  }
}

/** Checks the operator bootstrap token. */
export const operatorToken = Effect.fn("Authenticate.operatorToken")(function*(token: string) {
  const sql = yield* SqlClient.SqlClient
  const hash = yield* Secret.hash(token)
  const rows = yield* sql<{ token_hash: string }>`SELECT token_hash FROM operator_credentials WHERE id = 1`.pipe(Effect.orDie)
  const stored = Option.fromNullishOr(rows[0]?.token_hash)
  if (Option.isNone(stored) || !constantTimeEqual(stored.value, hash)) {
    return yield* Effect.fail<Refused>({ error: unauthorized("The operator token is not valid."), known: null })
  }
  return { actor: operator, company: null } satisfies Authenticated
})

const constantTimeEqual = (a: string, b: string): boolean => {
  if (a.length !== b.length) return false
  let difference = 0
  for (let index = 0; index < a.length; index++) difference |= a.charCodeAt(index) ^ b.charCodeAt(index)
  return difference === 0
}

/** Reads a company's pipeline state (for operator requests that name a company). */
export const companyState = Effect.fn("Authenticate.companyState")(function*(companyId: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`
    SELECT company_id, plan, rate_limit_rpm, kill_switch_suspended FROM companies WHERE company_id = ${companyId}`
    .pipe(Effect.orDie)
  const row = rows[0]
  if (row === undefined) return Option.none<CompanyState>()
  return Option.some<CompanyState>({
    companyId: String(row.company_id),
    plan: row.plan as CompanyState["plan"],
    rateLimitRpm: Row.intOrNull(row.rate_limit_rpm),
    killSwitchSuspended: Boolean(row.kill_switch_suspended)
  })
})

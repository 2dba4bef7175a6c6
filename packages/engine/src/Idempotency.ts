import { Effect } from "effect"
import { SqlClient, type Statement } from "effect/sql"
import { ApiError, Limits } from "@ledger/api"
import * as Alongside from "./Alongside.ts"
import type * as Authenticate from "./Authenticate.ts"
import type { Entropy } from "./Entropy.ts"
import * as Row from "./Row.ts"
import * as Secret from "./Secret.ts"
import * as SealedResult from "./SealedResult.ts"

/** Canonical JSON (sorted keys) so that the same request always has the same fingerprint. */
export const canonicalJson = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(",")}}`
  }
  return JSON.stringify(value) ?? "null"
}

/**
 * True when a key is 8 to 200 characters (spec 8.2), none of them a control character or an
 * unpaired surrogate: it is stored as text and recorded in the audit event's jsonb.
 */
export const isValidKey = (key: string): boolean =>
  key.length >= Limits.idempotencyKeyLengthMin && key.length <= Limits.idempotencyKeyLengthMax &&
  !/[\u0000-\u001f\u007f\ud800-\udfff]/u.test(key)

export const checkKey = (key: string): Effect.Effect<string, ApiError.LedgerError> =>
  isValidKey(key)
    ? Effect.succeed(key)
    : Effect.fail(ApiError.fail(
      "invalid_idempotency_key",
      `Idempotency-Key must be ${Limits.idempotencyKeyLengthMin} to ${Limits.idempotencyKeyLengthMax} characters, none of them control characters.`,
      { length_min: Limits.idempotencyKeyLengthMin, length_max: Limits.idempotencyKeyLengthMax }
    ))

export interface Claim {
  /** `company:<uuid>`, `firm:<id>` or `operator`: keys are scoped to it and to the principal. */
  readonly tenant: string
  readonly principal: string
  readonly key: string
  readonly operation: string
  readonly request: unknown
  readonly now: string
  /**
   * The Bearer credential of the request. Never stored: secrets in the result are sealed with a
   * key derived from it, so only a replay with the same credential can read them again.
   */
  readonly credential: string | null
}

export type ClaimResult =
  | { readonly _tag: "Claimed"; readonly requestHash: string }
  | { readonly _tag: "Replay"; readonly status: number; readonly body: unknown }

/** The request's fingerprint: SHA-256 of its operation and its canonical JSON. */
export const requestHashOf = (input: Pick<Claim, "operation" | "request">): string =>
  Secret.sha256Hex(`${input.operation}\n${canonicalJson(input.request)}`)

/**
 * The replay of a finished answer to this very request, from the record read along with the
 * credential (Authenticate.apiKey): no transaction, no claim. Null whenever the record is anything
 * else (absent, still running, expired, another request's): the claim in the transaction then
 * decides, as it always did.
 */
export const replayOf = (
  stored: Authenticate.StoredResult | null | undefined,
  input: Claim
): Effect.Effect<ClaimResult | null, ApiError.LedgerError> => {
  if (
    stored === null || stored === undefined || stored.status === 0 ||
    Date.parse(stored.expiresAt) <= Date.parse(input.now) ||
    stored.operation !== input.operation || stored.requestHash !== requestHashOf(input)
  ) return Effect.succeed(null)
  return Effect.map(
    SealedResult.open(Row.json(stored.body), input.credential, input.key),
    (body): ClaimResult => ({ _tag: "Replay", status: stored.status, body })
  )
}

/** How long a duplicate waits for the first request to finish before it is told it is in progress. */
export const inProgressWaitMilliseconds = 10_000

const inProgress = () =>
  ApiError.fail("idempotency_in_progress", "A request with this Idempotency-Key is still running; retry shortly.")

/**
 * Claims a key inside the current transaction. The claim is an uncommitted row: a concurrent
 * duplicate's insert waits on it, then either replays the committed result or, if the first
 * request failed and rolled back, takes the key itself. Must run inside a transaction.
 */
export const claim: (input: Claim) => Effect.Effect<ClaimResult, ApiError.LedgerError, SqlClient.SqlClient> = Effect.fn(
  "Idempotency.claim"
)(function*(input: Claim) {
  const sql = yield* SqlClient.SqlClient
  const requestHash = requestHashOf(input)
  const expiresAt = new Date(Date.parse(input.now) + Limits.idempotencyRetentionDays * 86_400_000).toISOString()
  // One round trip instead of three (SET LOCAL, INSERT, SET LOCAL): the subquery sets the wait
  // bound before the row is inserted, so a duplicate's wait on an uncommitted claim gives up after
  // it; RETURNING clears it once the row is in, so the handler's own lock waits stay unbounded.
  // When the key exists no row returns and the bound stays for the rest of this transaction,
  // which then only reads the record, or clears the bound itself before deleting an expired one.
  // (docs/performance.md: the pipeline's round trips are most of a write's cost.)
  const inserted = yield* sql<{ inserted: number }>`
    INSERT INTO idempotency_records
      (tenant, principal, idempotency_key, operation, request_hash, status, body, created_at, expires_at)
    SELECT ${input.tenant}, ${input.principal}, ${input.key}, ${input.operation}, ${requestHash}, 0, 'null'::json,
      ${input.now}::timestamptz, ${expiresAt}::timestamptz
    FROM (SELECT set_config('lock_timeout', ${`${inProgressWaitMilliseconds}ms`}, true)) AS wait_bound
    ON CONFLICT (tenant, principal, idempotency_key) DO NOTHING
    RETURNING 1 AS inserted, set_config('lock_timeout', '0', true) AS wait_unbounded`.pipe(
    Effect.catchTag("SqlError", (error) =>
      error.reason._tag === "LockTimeoutError" ? Effect.fail(inProgress()) : Effect.die(error))
  )
  if (inserted.length > 0) return { _tag: "Claimed", requestHash } as ClaimResult
  const rows = yield* sql<{ operation: string; request_hash: string; status: number; body: unknown; expires_at: unknown }>`
    SELECT operation, request_hash, status, body, expires_at FROM idempotency_records
    WHERE tenant = ${input.tenant} AND principal = ${input.principal} AND idempotency_key = ${input.key}`.pipe(Effect.orDie)
  const existing = rows[0]
  // Deleted between the insert and the read (a purge of expired keys): the key is free again.
  if (existing === undefined) return yield* claim(input)
  if (Date.parse(Row.iso(existing.expires_at)) <= Date.parse(input.now)) {
    // Past retention the key is free again: the old result is forgotten.
    yield* sql.unsafe(`SET LOCAL lock_timeout = 0`).pipe(Effect.orDie)
    yield* sql`DELETE FROM idempotency_records
      WHERE tenant = ${input.tenant} AND principal = ${input.principal} AND idempotency_key = ${input.key}`.pipe(Effect.orDie)
    return yield* claim(input)
  }
  if (existing.request_hash !== requestHash || existing.operation !== input.operation) {
    return yield* Effect.fail(ApiError.fail(
      "idempotency_conflict",
      "This Idempotency-Key was used for a different request."
    ))
  }
  // Only PGlite, whose one connection runs transactions one after another, can see a claim that
  // is not finished: it is this very request's own, which cannot happen. Kept for safety.
  if (Number(existing.status) === 0) return yield* Effect.fail(inProgress())
  const body = yield* SealedResult.open(Row.json(existing.body), input.credential, input.key)
  return { _tag: "Replay", status: Number(existing.status), body } as ClaimResult
})

/**
 * Stores the result under the claimed key, in the same transaction as the change. `alongside`
 * (the change's audit event and outbox events) runs in the same statement: one round trip.
 */
export const complete: (
  input: Claim,
  status: number,
  body: unknown,
  alongside?: ReadonlyArray<Statement.Fragment>
) => Effect.Effect<void, never, SqlClient.SqlClient | Entropy> = Effect.fn("Idempotency.complete")(
  function*(input: Claim, status: number, body: unknown, alongside: ReadonlyArray<Statement.Fragment> = []) {
    const sql = yield* SqlClient.SqlClient
    const stored = yield* SealedResult.seal(body, input.credential, input.key)
    const update = sql`UPDATE idempotency_records SET status = ${status}, body = ${JSON.stringify(stored)}::json
      WHERE tenant = ${input.tenant} AND principal = ${input.principal} AND idempotency_key = ${input.key}`
    yield* Alongside.statement(sql, alongside, update).pipe(Effect.orDie)
  }
)

/**
 * Forgets records past their retention, a batch at a time (the server runs it periodically);
 * returns how many went. Past retention a key is free anyway, so this only bounds the table.
 */
export const purgeExpired = Effect.fn("Idempotency.purgeExpired")(function*(now: string, batch: number) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql`DELETE FROM idempotency_records WHERE (tenant, principal, idempotency_key) IN (
    SELECT tenant, principal, idempotency_key FROM idempotency_records WHERE expires_at <= ${now} LIMIT ${batch})
    RETURNING 1`.pipe(Effect.orDie)
  return rows.length
})

import { Data, Effect } from "effect"
import { SqlClient, type SqlError, type Statement } from "effect/sql"
import { ApiError, Limits } from "@ledger/api"
import * as Alongside from "./Alongside.ts"
import { Base64 } from "effect/encoding"
import type * as Authenticate from "./authenticate/Credential.ts"
import type { KeyedRequest } from "./authenticate/Credential.ts"
import type { Entropy } from "../ports/Entropy.ts"
import * as Row from "../kernel/Row.ts"
import * as Secret from "../kernel/Secret.ts"
import * as SealedResult from "./SealedResult.ts"
import * as StoredAnswer from "./StoredAnswer.ts"

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

/** The refusal of a key that is not `isValidKey`. */
export const invalidKey = (): ApiError.LedgerError =>
  ApiError.fail(
    "invalid_idempotency_key",
    `Idempotency-Key must be ${Limits.idempotencyKeyLengthMin} to ${Limits.idempotencyKeyLengthMax} characters, none of them control characters.`,
    { length_min: Limits.idempotencyKeyLengthMin, length_max: Limits.idempotencyKeyLengthMax }
  )

export const checkKey = (key: string): Effect.Effect<string, ApiError.LedgerError> =>
  isValidKey(key) ? Effect.succeed(key) : Effect.fail(invalidKey())

/** A keyed request's claim on its key (declared beside the stored record, for the batches that write it too). */
export type { KeyedRequest } from "./authenticate/Credential.ts"

export interface Replay {
  readonly _tag: "Replay"
  readonly status: number
  readonly body: unknown
}

const requestHashHexLength = 32

/**
 * The request's fingerprint: the first 16 bytes of the SHA-256 of its operation and the canonical
 * JSON of its path, query and body, as 32 hexadecimal characters. Only the principal that holds the
 * key can make two requests meet under it, so 128 bits are ample; the record keeps them as 16
 * bytes (ADR 0708).
 */
export const requestHashOf = (operation: string, request: unknown): string =>
  Secret.sha256Hex(`${operation}\n${canonicalJson(request)}`).slice(0, requestHashHexLength)

/**
 * What a record as stored (read along with the credential by Authenticate.apiKey, or after a
 * failed write by `settledElsewhere`) answers for this request: the replay of its finished answer
 * to this very request, `idempotency_conflict` when it is another request's finished answer, and
 * null when it is anything else (absent, unfinished, expired): the request then runs.
 */
export const answerOf = (
  stored: Authenticate.StoredResult | null | undefined,
  input: KeyedRequest
): Effect.Effect<Replay | null, ApiError.LedgerError> => {
  if (!isLive(stored, input)) return Effect.succeed(null)
  // The fingerprint covers the operation: a key reused for another operation is another request.
  if (stored.requestHash !== input.requestHash) {
    return Effect.fail(ApiError.fail("idempotency_conflict", "This Idempotency-Key was used for a different request."))
  }
  return Effect.map(
    SealedResult.open(storedBody(stored), input.credential, input.key),
    (body): Replay => ({ _tag: "Replay", status: stored.status, body })
  )
}

/**
 * The answer a record holds, as first returned but for its sealed secrets: its packed text
 * (StoredAnswer.ts), or, for a record written before ADR 0706, its `json`.
 */
const storedBody = (stored: Authenticate.StoredResult): unknown =>
  stored.answer === null ? Row.json(stored.body) : JSON.parse(StoredAnswer.unpack(stored.answer))

const isLive = (stored: Authenticate.StoredResult | null | undefined, input: KeyedRequest): stored is Authenticate.StoredResult =>
  stored !== null && stored !== undefined && stored.status !== 0 && Date.parse(stored.expiresAt) > Date.parse(input.now)

/**
 * The columns and the join that read, along with a credential, the record its principal holds
 * under a keyed write's Idempotency-Key (`Authenticated.stored`; as `r`): a replay is then one
 * statement. `tenant` and `principal` are SQL over the credential's row, as the Dispatcher writes
 * them (`company:<id>`, Actor.reference); no key, no columns and no join.
 */
export const storedAlongside = (sql: SqlClient.SqlClient, key: string | null, tenant: string, principal: string) =>
  key === null ? { columns: sql``, join: sql`` } : {
    columns: sql`, encode(r.request_hash, 'hex') AS stored_request_hash,
      r.status AS stored_status, r.body AS stored_body, r.answer AS stored_answer, r.expires_at AS stored_expires_at`,
    join: sql`LEFT JOIN idempotency_records r
      ON r.scope = ledger_idempotency_scope(${sql.literal(tenant)}, ${sql.literal(principal)}, ${key})`
  }

/** How long a duplicate waits for the first request to finish before it is told it is in progress. */
export const inProgressWaitMilliseconds = 10_000

export const inProgress = () =>
  ApiError.fail("idempotency_in_progress", "A request with this Idempotency-Key is still running; retry shortly.")

/**
 * A concurrent duplicate recorded its answer under the key first. Not a refusal: the Dispatcher
 * rolls this request back and answers with the first's answer (`settledElsewhere`).
 */
export class KeyTaken extends Data.TaggedError("KeyTaken")<{}> {}

/**
 * What an `idempotency_records` row is made of: the parts of its scope (the database makes the
 * scope of them, `ledger_idempotency_scope`, ADR 0708; store/migrations/0001_foundation.ts), the request's fingerprint in
 * hexadecimal, and the answer as first returned, secrets sealed, its JSON text packed
 * (StoredAnswer.ts) and in base64, so a replay is byte for byte the first answer; and its expiry.
 * Bytes travel as text and SQL decodes them (`decode(…, 'hex' | 'base64')`), the same way on every
 * driver.
 */
export const storedRow = Effect.fn("Idempotency.storedRow")(function*(input: KeyedRequest, status: number, body: unknown) {
  const stored = yield* SealedResult.seal(body, input.credential, input.key)
  return {
    tenant: input.tenant,
    principal: input.principal,
    idempotency_key: input.key,
    request_hash_hex: input.requestHash,
    status,
    answer_base64: Base64.encode(StoredAnswer.pack(JSON.stringify(stored))),
    expires_at: new Date(Date.parse(input.now) + Limits.idempotencyRetentionDays * 86_400_000).toISOString()
  }
})

/** The `lock_timeout` that bounds a write's wait on a concurrent duplicate's uncommitted record. */
export const waitBound = `${inProgressWaitMilliseconds}ms`

/**
 * What an insert of records does on a key already taken: an expired record is replaced; a live one
 * is left, and the insert returns no row for it (the key is taken). A record made now expires a
 * retention from now, so "now" is the new record's expiry less the retention.
 */
export const replacingExpired = `ON CONFLICT (scope) DO UPDATE SET request_hash = excluded.request_hash, status = excluded.status,
        body = excluded.body, answer = excluded.answer, expires_at = excluded.expires_at
      WHERE idempotency_records.expires_at <= excluded.expires_at - interval '${Limits.idempotencyRetentionDays} days'`

/**
 * Records the answer under the key, in the transaction of the change, as the change's last
 * statement (ADR 0005, ADR 0703): the key is taken when the work is done, not before it. A
 * concurrent duplicate's insert waits on this uncommitted row, for at most 10 s
 * (`idempotency_in_progress`), then finds it committed (`KeyTaken`: it rolls back and replays
 * this answer) or gone with a rollback (it records its own). An expired record is replaced.
 * `alongside` (the audit event and outbox events of the change) runs in the same statement.
 */
export const record: (
  input: KeyedRequest,
  status: number,
  body: unknown,
  alongside?: ReadonlyArray<Statement.Fragment>
) => Effect.Effect<void, ApiError.LedgerError | KeyTaken | SqlError.SqlError, SqlClient.SqlClient | Entropy> = Effect.fn(
  "Idempotency.record"
)(
  function*(input: KeyedRequest, status: number, body: unknown, alongside: ReadonlyArray<Statement.Fragment> = []) {
    const sql = yield* SqlClient.SqlClient
    const row = yield* storedRow(input, status, body)
    // The subquery bounds the wait on a concurrent duplicate's uncommitted row before the insert
    // meets it (no SET LOCAL round trip); the transaction ends right after this statement.
    const insert = sql<{ recorded: number }>`INSERT INTO idempotency_records (scope, expires_at, status, request_hash, answer)
      SELECT ledger_idempotency_scope(${row.tenant}, ${row.principal}, ${row.idempotency_key}), ${row.expires_at}::timestamptz,
        ${row.status}, decode(${row.request_hash_hex}, 'hex'), decode(${row.answer_base64}, 'base64')
      FROM (SELECT set_config('lock_timeout', ${waitBound}, true)) AS wait_bound
      ${sql.literal(replacingExpired)}
      RETURNING 1 AS recorded`
    const rows = yield* Alongside.statement(sql, alongside, insert).pipe(
      Effect.catchTag("SqlError", (error): Effect.Effect<never, ApiError.LedgerError | SqlError.SqlError> =>
        error.reason._tag === "LockTimeoutError" ? Effect.fail(inProgress()) : Effect.fail(error))
    )
    if (rows.length === 0) return yield* Effect.fail(new KeyTaken())
  }
)

/**
 * After a keyed write failed and rolled back: the answer a concurrent duplicate recorded first,
 * when it answered this very request (a replay), or `idempotency_conflict` when the key now holds
 * another request's answer; null when the key holds nothing finished. A duplicate's own work can
 * fail because the first's is committed (the entry it reverses is reversed already): its answer
 * is still the first's.
 */
export const settledElsewhere = Effect.fn("Idempotency.settledElsewhere")(function*(input: KeyedRequest) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT encode(request_hash, 'hex') AS request_hash, status, body,
      answer, expires_at
    FROM idempotency_records
    WHERE scope = ledger_idempotency_scope(${input.tenant}, ${input.principal}, ${input.key})`
  const row = rows[0]
  if (row === undefined) return null
  const stored: Authenticate.StoredResult = {
    requestHash: String(row.request_hash),
    status: Number(row.status),
    body: row.body,
    answer: Row.bytesOrNull(row.answer),
    expiresAt: Row.iso(row.expires_at)
  }
  return yield* answerOf(stored, input)
})

/**
 * Forgets records past their retention, a batch at a time (the server runs it periodically);
 * returns how many went. Past retention a key is free anyway, so this only bounds the table.
 */
export const purgeExpired = Effect.fn("Idempotency.purgeExpired")(function*(now: string, batch: number) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql`DELETE FROM idempotency_records WHERE scope IN (
    SELECT scope FROM idempotency_records WHERE expires_at <= ${now} LIMIT ${batch})
    RETURNING 1`
  return rows.length
})

/**
 * Makes the room purged records left reusable: a plain VACUUM of the table (no lock that stops
 * reads or writes on PostgreSQL). Without it the room is never reused where nothing vacuums: PGlite
 * has no autovacuum, nor does a PostgreSQL server that runs with it off. Measured on PGlite, a table
 * whose 20,000 rows were deleted and written again grew from 607 to 1,213 to 1,819 pages over three
 * rounds; with a VACUUM after each purge it stays at 607. The server runs it after a purge that
 * removed anything, once an hour at most.
 */
export const reclaimSpace = Effect.fn("Idempotency.reclaimSpace")(function*() {
  const sql = yield* SqlClient.SqlClient
  // VACUUM runs outside any transaction, as its own statement.
  yield* sql.unsafe("VACUUM idempotency_records")
})

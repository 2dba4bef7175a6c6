import { Clock, Effect } from "effect"
import { SqlClient } from "effect/sql"
import * as Row from "../kernel/Row.ts"

/**
 * The background job queue (table `jobs`), shared by every server replica. Handlers enqueue jobs
 * in the transaction of the change that needs them, so a job exists exactly when its change
 * committed. Workers (packages/server/src/workers) claim due jobs with FOR UPDATE SKIP LOCKED
 * under a lease; a job whose worker died is claimed again when the lease runs out. Kinds so far:
 * `email.send`, `reminders.scan`; webhook delivery adds its own kind the same way.
 */
export interface Job {
  readonly id: number
  readonly kind: string
  readonly companyId: string | null
  readonly payload: Record<string, unknown>
  readonly attempts: number
  readonly maxAttempts: number
}

const nowIso = Effect.map(Clock.currentTimeMillis, (milliseconds) => new Date(milliseconds).toISOString())

export const enqueue = Effect.fn("Jobs.enqueue")(function*(job: {
  readonly kind: string
  readonly companyId: string | null
  readonly payload?: Record<string, unknown>
  readonly runAt?: string
  readonly maxAttempts?: number
  /** At most one pending or running job per key: a second enqueue is a no-op. */
  readonly uniqueKey?: string
}) {
  const sql = yield* SqlClient.SqlClient
  const now = yield* nowIso
  yield* sql`INSERT INTO jobs ${sql.insert({
    kind: job.kind,
    company_id: job.companyId,
    payload: JSON.stringify(job.payload ?? {}),
    unique_key: job.uniqueKey ?? null,
    run_at: job.runAt ?? now,
    max_attempts: job.maxAttempts ?? 5,
    created_at: now
  })} ON CONFLICT DO NOTHING`.pipe(Effect.orDie)
})

/**
 * Claims up to `limit` due jobs for `worker` and holds them for `leaseSeconds`. Runs in its own
 * transaction: SKIP LOCKED lets replicas claim side by side without waiting on each other.
 */
export const claim = Effect.fn("Jobs.claim")(function*(worker: string, limit: number, leaseSeconds: number) {
  const sql = yield* SqlClient.SqlClient
  const nowMs = yield* Clock.currentTimeMillis
  const now = new Date(nowMs).toISOString()
  const leaseEnds = new Date(nowMs + leaseSeconds * 1000).toISOString()
  const rows = yield* sql.withTransaction(sql<Record<string, unknown>>`
    UPDATE jobs SET status = 'running', locked_by = ${worker}, locked_until = ${leaseEnds}, attempts = attempts + 1
    WHERE id IN (
      SELECT id FROM jobs
      WHERE (status = 'pending' AND run_at <= ${now}) OR (status = 'running' AND locked_until < ${now})
      ORDER BY run_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
    RETURNING *`).pipe(Effect.orDie)
  return rows.map((row): Job => ({
    id: Row.int(row.id),
    kind: String(row.kind),
    companyId: (row.company_id as string | null) ?? null,
    payload: Row.json<Record<string, unknown>>(row.payload),
    attempts: Row.int(row.attempts),
    maxAttempts: Row.int(row.max_attempts)
  }))
})

export const complete = Effect.fn("Jobs.complete")(function*(job: Job, worker: string) {
  const sql = yield* SqlClient.SqlClient
  const now = yield* nowIso
  yield* sql`UPDATE jobs SET status = 'done', finished_at = ${now}, locked_by = NULL, locked_until = NULL
    WHERE id = ${job.id} AND locked_by = ${worker}`.pipe(Effect.orDie)
})

/** Backoff before attempt n+1: 30 s, 2 min, 8 min, ... capped at 6 hours. */
export const retryDelaySeconds = (attempts: number): number => Math.min(30 * 4 ** Math.max(0, attempts - 1), 6 * 3600)

/** A failed attempt: tried again after a backoff, or given up once its attempts are spent. */
export const fail = Effect.fn("Jobs.fail")(function*(job: Job, worker: string, error: string) {
  const sql = yield* SqlClient.SqlClient
  const nowMs = yield* Clock.currentTimeMillis
  const now = new Date(nowMs).toISOString()
  const finalAttempt = job.attempts >= job.maxAttempts
  const runAt = new Date(nowMs + retryDelaySeconds(job.attempts) * 1000).toISOString()
  yield* sql`UPDATE jobs SET status = ${finalAttempt ? "failed" : "pending"}, last_error = ${error.slice(0, 2000)},
      run_at = ${finalAttempt ? now : runAt}, finished_at = ${finalAttempt ? now : null}, locked_by = NULL, locked_until = NULL
    WHERE id = ${job.id} AND locked_by = ${worker}`.pipe(Effect.orDie)
  return finalAttempt
})

import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import * as Row from "../kernel/Row.ts"

/**
 * Limits every server process shares through the database: one `auth_throttle` row per counted
 * event, by bucket, over a sliding window (ADR 2300). What the sign-in steps' limits
 * (auth/common/Throttle.ts) count in, and the public doors' too: OAuth client registration and
 * failed authentications. A bucket never holds more rows than its limit within its window: an
 * event over the limit is refused and not written, so a flood writes nothing more.
 *
 * Two processes counting the same bucket at the same instant may each see room for the last event
 * and both write it: a bucket can overshoot by the requests in flight at once, never by more.
 */

export interface Bucket {
  readonly name: string
  readonly max: number
  readonly windowMs: number
}

export type Verdict =
  | { readonly allowed: true }
  | { readonly allowed: false; readonly retryAfterSeconds: number; readonly bucket: string }

/** Rows older than this are of no use to any window: deleted as new ones are written. */
const keptMs = 86_400_000

/** Whole seconds until the oldest of the newest `max` events leaves the window: 1 at least. */
export const secondsUntilRoom = (newestFirst: ReadonlyArray<number>, max: number, windowMs: number, nowMs: number): number => {
  const freesAt = newestFirst[max - 1]! + windowMs
  return Math.max(1, Math.ceil((freesAt - nowMs) / 1_000))
}

const judge = (sql: SqlClient.SqlClient, buckets: ReadonlyArray<Bucket>, nowMs: number) =>
  Effect.gen(function*() {
    for (const bucket of buckets) {
      const since = new Date(nowMs - bucket.windowMs).toISOString()
      // The newest `max` only: a bucket's rows in its window never exceed its limit by much.
      const rows = yield* sql<{ at: unknown }>`SELECT at FROM auth_throttle
        WHERE bucket = ${bucket.name} AND at > ${since} ORDER BY at DESC LIMIT ${bucket.max}`
      if (rows.length >= bucket.max) {
        const times = rows.map((row) => Date.parse(Row.iso(row.at)))
        return { allowed: false, retryAfterSeconds: secondsUntilRoom(times, bucket.max, bucket.windowMs, nowMs), bucket: bucket.name } as Verdict
      }
    }
    return { allowed: true } as Verdict
  })

/** Whether every bucket has room for one more event, counting nothing. */
export const peek = Effect.fn("SharedLimit.peek")(function*(buckets: ReadonlyArray<Bucket>, nowMs: number) {
  if (buckets.length === 0) return { allowed: true } as Verdict
  const sql = yield* SqlClient.SqlClient
  return yield* judge(sql, buckets, nowMs)
})

/**
 * Counts one event in every bucket when each has room, in its own transaction (the count stands
 * whatever the caller then answers); when any is full, counts nothing and says which.
 */
export const take = Effect.fn("SharedLimit.take")(function*(buckets: ReadonlyArray<Bucket>, nowMs: number) {
  if (buckets.length === 0) return { allowed: true } as Verdict
  const sql = yield* SqlClient.SqlClient
  return yield* sql.withTransaction(Effect.gen(function*() {
    const verdict = yield* judge(sql, buckets, nowMs)
    if (!verdict.allowed) return verdict
    yield* sql`DELETE FROM auth_throttle WHERE at < ${new Date(nowMs - keptMs).toISOString()}`
    const at = new Date(nowMs).toISOString()
    const counted = buckets.map((bucket) => ({ bucket: bucket.name, at }))
    yield* sql`INSERT INTO auth_throttle ${sql.insert(counted as [typeof counted[number], ...Array<typeof counted[number]>])}`
    return verdict
  }))
})

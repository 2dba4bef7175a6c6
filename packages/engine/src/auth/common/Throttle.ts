import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError } from "@ledger/api"
import { RequestContext } from "../../kernel/RequestContext.ts"
import * as Row from "../../kernel/Row.ts"
import { limits, throttleVerdict } from "./SignInRules.ts"

/**
 * Abuse limits of the public sign-in steps (spec 4.14 item 7): each step is counted in one or more
 * buckets (the client's network address, the email address asked for, the pair, the browser)
 * over a 15-minute sliding window, in the database so every server process shares them. A step
 * over any limit is refused with 429 `rate_limited` and `retry_after_seconds` (the server adds
 * `Retry-After`) before it does any work; a step that is let through is counted in its own
 * transaction, so the count stands whatever the step then answers.
 */

export interface Bucket {
  readonly name: string
  readonly max: number
}

/** Where the request came from: the client network address the pipeline carries, or null (unknown: no per-client limit). */
export const clientOf = (request: { readonly clientAddress?: string | null | undefined }): string | null =>
  request.clientAddress === undefined || request.clientAddress === null || request.clientAddress === "" ? null : request.clientAddress.slice(0, 100)

/** Counts a public step of any kind from the request's client network address (none when unknown). */
export const takePublicStep = Effect.gen(function*() {
  const request = yield* RequestContext
  yield* take(clientBucket(clientOf(request)))
})

/** The bucket every public step from one client network address counts in. */
export const clientBucket = (client: string | null): ReadonlyArray<Bucket> =>
  client === null ? [] : [{ name: `client:${client}`, max: limits.publicStepsPerClient }]

/** The buckets of an email-link request: the client, the email address (alone and with the client), the browser. */
export const emailLinkBuckets = (email: string, browserHash: string, client: string | null): ReadonlyArray<Bucket> => [
  ...clientBucket(client),
  ...(client === null ? [] : [
    { name: `links-client:${client}`, max: limits.emailLinksPerClient },
    { name: `email-client:${email}|${client}`, max: limits.emailLinksPerEmailPerClient }
  ]),
  { name: `email:${email}`, max: limits.emailLinksPerEmail },
  { name: `browser:${browserHash}`, max: limits.emailLinksPerWindow }
]

const refused = (retryAfterSeconds: number, bucket: string) =>
  ApiError.fail("rate_limited", `Too many sign-in attempts: try again in ${retryAfterSeconds} seconds.`, {
    retry_after_seconds: retryAfterSeconds,
    limit: bucket.slice(0, bucket.indexOf(":"))
  })

/** What the buckets say of one more step now: let through, or refused by the first full bucket. */
export type Verdict =
  | { readonly allowed: true }
  | { readonly allowed: false; readonly retryAfterSeconds: number; readonly bucket: string }

const letThrough: Verdict = { allowed: true }
const fullBucket = (retryAfterSeconds: number, bucket: string): Verdict => ({ allowed: false, retryAfterSeconds, bucket })

const verdictOf = Effect.fn("Throttle.verdictOf")(function*(buckets: ReadonlyArray<Bucket>, now: string) {
  const sql = yield* SqlClient.SqlClient
  const nowMs = Date.parse(now)
  const since = new Date(nowMs - limits.throttleWindowMs).toISOString()
  const rows = yield* sql<{ bucket: string; at: unknown }>`SELECT bucket, at FROM auth_throttle
    WHERE bucket IN ${sql.in(buckets.map((bucket) => bucket.name))} AND at > ${since} ORDER BY at`
  for (const bucket of buckets) {
    const times = rows.filter((row) => row.bucket === bucket.name).map((row) => Date.parse(Row.iso(row.at)))
    const answer = throttleVerdict(times, bucket.max, limits.throttleWindowMs, nowMs)
    if (!answer.allowed) return fullBucket(answer.retryAfterSeconds, bucket.name)
  }
  return letThrough
})

const record = Effect.fn("Throttle.record")(function*(buckets: ReadonlyArray<Bucket>, now: string) {
  const sql = yield* SqlClient.SqlClient
  // Counts a day old are of no use to any window: gone as new ones are written.
  yield* sql`DELETE FROM auth_throttle WHERE at < ${new Date(Date.parse(now) - 86_400_000).toISOString()}`
  const counted = buckets.map((bucket) => ({ bucket: bucket.name, at: now }))
  yield* sql`INSERT INTO auth_throttle ${sql.insert(counted as [typeof counted[number], ...Array<typeof counted[number]>])}`
})

/** Counts one step in every bucket, or refuses it (429) when any bucket is full. */
export const take = Effect.fn("Throttle.take")(function*(buckets: ReadonlyArray<Bucket>) {
  if (buckets.length === 0) return
  const sql = yield* SqlClient.SqlClient
  const request = yield* RequestContext
  const verdict = yield* sql.withTransaction(Effect.gen(function*() {
    const answer = yield* verdictOf(buckets, request.now)
    if (!answer.allowed) return { refused: refused(answer.retryAfterSeconds, answer.bucket) }
    yield* record(buckets, request.now)
    return { refused: null }
  })).pipe(Effect.orDie)
  if (verdict.refused !== null) return yield* Effect.fail(verdict.refused)
})

/**
 * For a limit on failures rather than on steps (the Web Connector's wrong sign-ins): whether the
 * buckets would let one more step through at `now`, without counting it. The caller counts the
 * step with `count` once it has failed. Runs in the caller's transaction; like `take`, two
 * concurrent steps at the limit may both pass.
 */
export const peek = Effect.fn("Throttle.peek")(function*(buckets: ReadonlyArray<Bucket>, now: string) {
  if (buckets.length === 0) return letThrough
  return yield* verdictOf(buckets, now).pipe(Effect.orDie)
})

/** Counts one step at `now` in every bucket, in the caller's transaction (a failure `peek` let through). */
export const count = Effect.fn("Throttle.count")(function*(buckets: ReadonlyArray<Bucket>, now: string) {
  if (buckets.length === 0) return
  yield* record(buckets, now).pipe(Effect.orDie)
})

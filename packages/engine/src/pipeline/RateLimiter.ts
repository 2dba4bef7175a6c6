import { Clock, Context, Effect, Layer } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { Limits } from "@ledger/api"
import type { Actor } from "../kernel/Actor.ts"
import * as SharedLimit from "../store/SharedLimit.ts"
import type { CompanyState } from "./authenticate/Credential.ts"

export interface Verdict {
  readonly allowed: boolean
  /** The limit that binds: the company's plan, or the key's own when that leaves fewer requests. */
  readonly limitPerMinute: number
  readonly remaining: number
  /** Whole seconds until one more request fits; 0 when allowed. */
  readonly retryAfterSeconds: number
  /**
   * The first refusal since the caller was last allowed: only that one is audited, so a client
   * hammering past its limit cannot turn each refused request into a write.
   */
  readonly firstRefusal: boolean
}

const unlimited: Verdict = { allowed: true, limitPerMinute: Infinity, remaining: Infinity, retryAfterSeconds: 0, firstRefusal: false }

/** Requests a minute a company's plan allows (spec 8.1). */
export const planLimit = (company: CompanyState): number =>
  company.plan === "owned"
    ? company.rateLimitRpm ?? Limits.ownedPlanRequestsPerMinuteDefault
    : company.rateLimitRpm ?? Limits.planRequestsPerMinute[company.plan]

/**
 * A token bucket that holds a minute's worth of requests and refills continuously: a burst up to
 * the limit is allowed, then the rate holds.
 */
export interface Bucket {
  readonly tokens: number
  readonly limitPerMinute: number
  readonly updatedMs: number
  /** Refused since it last allowed a request. */
  readonly refusing: boolean
}

export const fullBucket = (limitPerMinute: number, nowMs: number): Bucket => ({
  tokens: limitPerMinute,
  limitPerMinute,
  updatedMs: nowMs,
  refusing: false
})

/**
 * The bucket at `nowMs` under `limitPerMinute`. When the limit changed (a plan change, a key's new
 * limit) the requests already spent this minute carry over, so a raise applies on the very next
 * request and a cut does not hand out a fresh minute.
 */
export const refill = (bucket: Bucket, limitPerMinute: number, nowMs: number): Bucket => {
  const spent = bucket.limitPerMinute - bucket.tokens
  const carried = Math.min(limitPerMinute, Math.max(0, limitPerMinute - spent))
  const elapsedMs = Math.max(0, nowMs - bucket.updatedMs)
  return {
    tokens: Math.min(limitPerMinute, carried + (elapsedMs / 60_000) * limitPerMinute),
    limitPerMinute,
    updatedMs: Math.max(nowMs, bucket.updatedMs),
    refusing: bucket.refusing
  }
}

/** Whole seconds until the bucket holds one request again. */
export const secondsUntilOne = (bucket: Bucket): number =>
  bucket.tokens >= 1 ? 0 : Math.max(1, Math.ceil(((1 - bucket.tokens) * 60) / bucket.limitPerMinute))

/**
 * One request against every bucket that applies: allowed only when each has room, and then taken
 * from each. A refused request takes nothing.
 */
export const take = (buckets: ReadonlyArray<Bucket>): { readonly verdict: Verdict; readonly buckets: ReadonlyArray<Bucket> } => {
  const allowed = buckets.every((bucket) => bucket.tokens >= 1)
  const after = buckets.map((bucket) =>
    allowed ? { ...bucket, tokens: bucket.tokens - 1, refusing: false } : { ...bucket, refusing: bucket.tokens < 1 || bucket.refusing }
  )
  const binding = after.reduce((tightest, bucket) => (bucket.tokens < tightest.tokens ? bucket : tightest), after[0]!)
  return {
    buckets: after,
    verdict: {
      allowed,
      limitPerMinute: binding.limitPerMinute,
      remaining: allowed ? Math.max(0, Math.floor(binding.tokens)) : 0,
      retryAfterSeconds: allowed ? 0 : Math.max(...buckets.map(secondsUntilOne)),
      firstRefusal: !allowed && buckets.some((bucket) => bucket.tokens < 1 && !bucket.refusing)
    }
  }
}

/**
 * Token buckets, one per company at its plan's limit and one per key that carries its own
 * `rate_limit_rpm`. A key's own limit narrows its share of the company's budget; it never widens
 * the plan. Plan changes apply on the next request because the limit is read from the request's
 * company.
 *
 * The buckets live in this process: with several replicas each enforces the limit on its own
 * share of traffic (docs/decisions/0003-rate-limits.md). Failed authentications are the exception:
 * counted in the database, shared by every replica (ADR 2300).
 */
export class RateLimiter extends Context.Service<RateLimiter, {
  /**
   * One request of `actor` in `company`. A firm credential at the firm level has no company: only
   * its own bucket applies (firm credentials always carry a limit: FirmPrincipal.ts).
   */
  readonly check: (actor: Actor, company: CompanyState | null) => Effect.Effect<Verdict>
  /**
   * One request against a bucket of its own name and limit, apart from any company's budget: for
   * bounding work that is not a company's request, such as auditing an ended key's refusals.
   */
  readonly take: (bucket: string, limitPerMinute: number) => Effect.Effect<Verdict>
  /**
   * One failed authentication from a client address, counted in the database so every server
   * process shares the count (store/SharedLimit.ts, ADR 2300): refused once the address has
   * `Limits.failedAuthenticationsPerAddressPerMinute` failures in the last minute. Only failures
   * are counted and only failures are refused: a valid credential from the same address is served.
   */
  readonly failedAuthentication: (sql: SqlClient.SqlClient, address: string) => Effect.Effect<Verdict, SqlError.SqlError>
}>()("@ledger/engine/RateLimiter") {
  static readonly layer = Layer.sync(RateLimiter)(() => {
    const buckets = new Map<string, Bucket>()
    const bucketsCountMax = 100_000
    const current = (name: string, limitPerMinute: number, nowMs: number): Bucket => {
      const bucket = buckets.get(name)
      return bucket === undefined ? fullBucket(limitPerMinute, nowMs) : refill(bucket, limitPerMinute, nowMs)
    }
    const forgetFullBuckets = (nowMs: number) => {
      // A full bucket is the same as no bucket: dropping those keeps memory bounded.
      for (const [name, bucket] of buckets) {
        if (refill(bucket, bucket.limitPerMinute, nowMs).tokens >= bucket.limitPerMinute) buckets.delete(name)
      }
      if (buckets.size >= bucketsCountMax) buckets.clear()
    }
    const takeAll = (names: ReadonlyArray<string>, limits: ReadonlyArray<number>, nowMs: number): Verdict => {
      const result = take(names.map((name, index) => current(name, limits[index]!, nowMs)))
      if (buckets.size >= bucketsCountMax) forgetFullBuckets(nowMs)
      result.buckets.forEach((bucket, index) => buckets.set(names[index]!, bucket))
      return result.verdict
    }
    // Addresses known refused until a time: a failure from one of them is answered without asking
    // the database again, so a flood of wrong keys costs their lookups and nothing more. The time
    // comes from the shared count, which cannot shrink before it, so this never refuses wrongly.
    const refusedUntil = new Map<string, number>()
    const refusedMax = 10_000
    const failedAuthentication = (sql: SqlClient.SqlClient, address: string) =>
      Effect.gen(function*() {
        const nowMs = yield* Clock.currentTimeMillis
        const limitPerMinute = Limits.failedAuthenticationsPerAddressPerMinute
        const until = refusedUntil.get(address)
        if (until !== undefined && until > nowMs) {
          return { allowed: false, limitPerMinute, remaining: 0, retryAfterSeconds: Math.max(1, Math.ceil((until - nowMs) / 1_000)), firstRefusal: false }
        }
        if (until !== undefined) refusedUntil.delete(address)
        const verdict = yield* SharedLimit.take([{ name: `auth-failures:${address}`, max: limitPerMinute, windowMs: 60_000 }], nowMs).pipe(
          Effect.provideService(SqlClient.SqlClient, sql)
        )
        if (verdict.allowed) return { allowed: true, limitPerMinute, remaining: 0, retryAfterSeconds: 0, firstRefusal: false }
        if (refusedUntil.size >= refusedMax) refusedUntil.clear()
        refusedUntil.set(address, nowMs + verdict.retryAfterSeconds * 1_000)
        return { allowed: false, limitPerMinute, remaining: 0, retryAfterSeconds: verdict.retryAfterSeconds, firstRefusal: false }
      })
    return RateLimiter.of({
      failedAuthentication,
      check: (actor, company) =>
        Effect.map(Clock.currentTimeMillis, (nowMs) => {
          const names = company === null ? [] : [`company:${company.companyId}`]
          const limits = company === null ? [] : [planLimit(company)]
          if (actor.rateLimitRpm !== null && actor.keyId !== null) {
            names.push(`key:${actor.keyId}`)
            limits.push(actor.rateLimitRpm)
          }
          return names.length === 0 ? unlimited : takeAll(names, limits, nowMs)
        }),
      take: (bucket, limitPerMinute) => Effect.map(Clock.currentTimeMillis, (nowMs) => takeAll([bucket], [limitPerMinute], nowMs))
    })
  })

  /** No limits: for embedding and benchmarks that measure the engine, not the limiter. */
  static readonly layerUnlimited = Layer.succeed(RateLimiter)(RateLimiter.of({
    check: () => Effect.succeed(unlimited),
    take: () => Effect.succeed(unlimited),
    failedAuthentication: () => Effect.succeed(unlimited)
  }))
}

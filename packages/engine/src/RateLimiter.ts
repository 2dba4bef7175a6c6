import { Clock, Context, Effect, Layer } from "effect"
import { Limits } from "@ledger/api"
import type { Actor } from "./Actor.ts"
import type { CompanyState } from "./Authenticate.ts"

export interface Verdict {
  readonly allowed: boolean
  readonly limitPerMinute: number
  readonly remaining: number
  /** Whole seconds until one more request fits; 0 when allowed. */
  readonly retryAfterSeconds: number
}

/** Requests a minute a company's plan allows (spec 8.1). */
export const planLimit = (company: CompanyState): number =>
  company.plan === "owned"
    ? company.rateLimitRpm ?? Limits.ownedPlanRequestsPerMinuteDefault
    : company.rateLimitRpm ?? Limits.planRequestsPerMinute[company.plan]

/**
 * Token buckets, one per company and one per key with its own limit. A bucket holds a minute's
 * worth of requests and refills continuously, so a burst is allowed and then the rate holds.
 * Plan changes apply on the next request because the limit is read from the request's company.
 *
 * The buckets live in this process: with several replicas each enforces the limit on its own
 * share of traffic (docs/decisions/0003-rate-limits.md).
 */
export class RateLimiter extends Context.Service<RateLimiter, {
  readonly check: (actor: Actor, company: CompanyState) => Effect.Effect<Verdict>
}>()("@ledger/engine/RateLimiter") {
  static readonly layer = Layer.sync(RateLimiter)(() => {
    const buckets = new Map<string, { tokens: number; updatedMs: number }>()
    const bucketsCountMax = 100_000
    const take = (key: string, limitPerMinute: number, nowMs: number): Verdict => {
      let bucket = buckets.get(key)
      if (bucket === undefined) {
        if (buckets.size >= bucketsCountMax) buckets.clear()
        bucket = { tokens: limitPerMinute, updatedMs: nowMs }
        buckets.set(key, bucket)
      }
      const refill = ((nowMs - bucket.updatedMs) / 60_000) * limitPerMinute
      bucket.tokens = Math.min(limitPerMinute, bucket.tokens + refill)
      bucket.updatedMs = nowMs
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1
        return { allowed: true, limitPerMinute, remaining: Math.floor(bucket.tokens), retryAfterSeconds: 0 }
      }
      const secondsForOne = ((1 - bucket.tokens) * 60) / limitPerMinute
      return { allowed: false, limitPerMinute, remaining: 0, retryAfterSeconds: Math.max(1, Math.ceil(secondsForOne)) }
    }
    return RateLimiter.of({
      check: (actor, company) =>
        Effect.map(Clock.currentTimeMillis, (nowMs) => {
          const companyVerdict = take(`company:${company.companyId}`, planLimit(company), nowMs)
          if (!companyVerdict.allowed || actor.rateLimitRpm === null || actor.keyId === null) return companyVerdict
          const keyVerdict = take(`key:${actor.keyId}`, actor.rateLimitRpm, nowMs)
          return keyVerdict.allowed && keyVerdict.remaining > companyVerdict.remaining ? companyVerdict : keyVerdict
        })
    })
  })

  /** No limits: for embedding and benchmarks that measure the engine, not the limiter. */
  static readonly layerUnlimited = Layer.succeed(RateLimiter)(RateLimiter.of({
    check: () => Effect.succeed({ allowed: true, limitPerMinute: Infinity, remaining: Infinity, retryAfterSeconds: 0 })
  }))
}

import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { RetryPolicy } from "@ledger/client"

const options = fc.record({
  retriesMax: fc.integer({ min: 0, max: 10 }),
  delayMsBase: fc.integer({ min: 1, max: 5_000 }),
  delayMsMax: fc.integer({ min: 1, max: 60_000 }),
  retryAfterMsMax: fc.integer({ min: 0, max: 600_000 })
})

const outcome: fc.Arbitrary<RetryPolicy.AttemptOutcome> = fc.oneof(
  fc.constant({ _tag: "NetworkFailure" as const }),
  fc.constant({ _tag: "Timeout" as const }),
  fc.record({
    _tag: fc.constant("Response" as const),
    status: fc.oneof(fc.constantFrom(200, 201, 202, 400, 401, 403, 404, 409, 413, 422, 429, 500, 502, 503, 504), fc.integer({ min: 100, max: 599 })),
    errorType: fc.option(fc.constantFrom("idempotency_in_progress", "idempotency_conflict", "rate_limited", "not_found")),
    retryAfterMs: fc.option(fc.integer({ min: 0, max: 3_600_000 }))
  })
)

const random = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true })

describe("RetryPolicy", () => {
  it("never retries past the budget, and every delay is bounded", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 50 }), outcome, options, random, (attempt, ended, retry, chance) => {
      const decision = RetryPolicy.decide(attempt, ended, retry, chance)
      if (attempt >= retry.retriesMax) expect(decision.retry).toBe(false)
      if (decision.retry) {
        expect(decision.delayMs).toBeGreaterThanOrEqual(0)
        const serverSaid = ended._tag === "Response" ? ended.retryAfterMs : null
        if (serverSaid === null) expect(decision.delayMs).toBeLessThanOrEqual(Math.max(1, retry.delayMsMax))
        else expect(decision.delayMs).toBeLessThanOrEqual(retry.retryAfterMsMax)
      }
    }))
  })

  it("retries exactly network failures, timeouts, 429, 5xx gateways and idempotency_in_progress", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 9 }), outcome, options, random, (attempt, ended, retry, chance) => {
      fc.pre(attempt < retry.retriesMax)
      const decision = RetryPolicy.decide(attempt, ended, retry, chance)
      const retryable = ended._tag !== "Response" || ended.status === 429 || [500, 502, 503, 504].includes(ended.status) ||
        (ended.status === 409 && ended.errorType === "idempotency_in_progress")
      const patient = ended._tag !== "Response" || ended.retryAfterMs === null || ended.retryAfterMs <= retry.retryAfterMsMax
      expect(decision.retry).toBe(retryable && patient)
    }))
  })

  it("waits exactly Retry-After when the server gives one within the client's patience", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 120_000 }), options, random, (attempt, retryAfterMs, retry, chance) => {
      fc.pre(attempt < retry.retriesMax && retryAfterMs <= retry.retryAfterMsMax)
      const decision = RetryPolicy.decide(attempt, { _tag: "Response", status: 429, errorType: "rate_limited", retryAfterMs }, retry, chance)
      expect(decision).toEqual({ retry: true, delayMs: retryAfterMs })
    }))
  })

  it("backoff grows exponentially with equal jitter and stays under the maximum", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 40 }), options, random, (attempt, retry, chance) => {
      const ceiling = Math.min(retry.delayMsMax, retry.delayMsBase * 2 ** Math.min(attempt, 30))
      const delay = RetryPolicy.backoffMs(attempt, retry, chance)
      expect(delay).toBeGreaterThanOrEqual(Math.floor(ceiling / 2))
      expect(delay).toBeLessThanOrEqual(Math.ceil(ceiling))
    }))
  })

  it("reads Retry-After as seconds or as an HTTP date", () => {
    const now = Date.parse("2025-03-01T12:00:00Z")
    expect(RetryPolicy.retryAfterMs("7", now)).toBe(7_000)
    expect(RetryPolicy.retryAfterMs(" 0 ", now)).toBe(0)
    expect(RetryPolicy.retryAfterMs("Sat, 01 Mar 2025 12:00:30 GMT", now)).toBe(30_000)
    expect(RetryPolicy.retryAfterMs("Sat, 01 Mar 2025 11:00:00 GMT", now)).toBe(0)
    expect(RetryPolicy.retryAfterMs("soon", now)).toBeNull()
    expect(RetryPolicy.retryAfterMs("-5", now)).toBeNull()
    expect(RetryPolicy.retryAfterMs(null, now)).toBeNull()
  })

  it("resolves options: false turns retries off, unset fields keep the defaults", () => {
    expect(RetryPolicy.resolve(false).retriesMax).toBe(0)
    expect(RetryPolicy.resolve({ retriesMax: 5 })).toEqual({ ...RetryPolicy.defaults, retriesMax: 5 })
    expect(RetryPolicy.resolve(undefined)).toEqual(RetryPolicy.defaults)
  })
})

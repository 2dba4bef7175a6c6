import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Limits } from "@ledger/api"
import { RateLimits } from "@ledger/engine/rules"
import { auditEvents, createKey, expectErrorBody, makeTestApp, newKey, type TestApp } from "../support/index.ts"
const { fullBucket, refill, take } = RateLimits
type Bucket = RateLimits.Bucket

/** Rate limits (spec 8.1, docs/decisions/0003-rate-limits.md), over HTTP with a clock the test moves. */

let app: TestApp
beforeAll(async () => {
  app = await makeTestApp({ rateLimits: true, clock: "2026-07-01T12:00:00Z" })
})
afterAll(() => app.close())

const burst = async (token: string, count: number) => {
  const statuses: Array<number> = []
  for (let index = 0; index < count; index++) statuses.push((await app.call("GET", "/v1/me", { token })).status)
  return statuses
}

describe("rate limits over HTTP", () => {
  it("refuses a solo company's 61st request in a minute with 429 and Retry-After", async () => {
    const company = await app.createCompany({ name: "Solo Co", plan: "solo" })
    // Creating the company was the operator's request, not the company's.
    const statuses = await burst(company.ownerKey, 60)
    expect(statuses.every((status) => status === 200)).toBe(true)
    const refused = await app.call("GET", "/v1/me", { token: company.ownerKey })
    expect(refused.status).toBe(429)
    expectErrorBody(refused.body, "rate_limited")
    expect(refused.body.error.details).toMatchObject({ limit_per_minute: 60, retry_after_seconds: 1 })
    expect(refused.headers.get("retry-after")).toBe("1")
    expect(refused.headers.get("ratelimit-limit")).toBe("60")
    expect(refused.headers.get("ratelimit-remaining")).toBe("0")
    // A refusal takes nothing: after Retry-After exactly one more request fits.
    app.clock!.advance("1 second")
    expect(await burst(company.ownerKey, 2)).toEqual([200, 429])
    // A full minute later the whole budget is back.
    app.clock!.advance("60 seconds")
    expect((await burst(company.ownerKey, 61)).filter((status) => status === 200)).toHaveLength(60)

    // Reading the log is itself rate limited: wait for the budget to come back.
    app.clock!.advance("60 seconds")
    const rateLimited = (await auditEvents(app, company.ownerKey)).filter((event) => event.error_type === "rate_limited")
    // Three runs of refusals, each audited once, however long it lasts.
    expect(rateLimited).toHaveLength(3)
    expect(rateLimited[0]).toMatchObject({ action: "getMe", status: 429, details: { limit_per_minute: 60 } })
  })

  it("applies an operator's plan change on the very next request", async () => {
    const company = await app.createCompany({ name: "Growing Co", plan: "solo" })
    await burst(company.ownerKey, 60)
    expect((await app.call("GET", "/v1/me", { token: company.ownerKey })).status).toBe(429)
    const upgrade = await app.call("POST", `/v1/operator/companies/${company.companyId}/plan`, {
      token: app.operatorToken,
      body: { plan: "advanced", reason: "bought advanced" }
    })
    expect(upgrade.status).toBe(200)
    const next = await app.call("GET", "/v1/me", { token: company.ownerKey })
    expect(next.status).toBe(200)
    expect(next.headers.get("ratelimit-limit")).toBe("1200")
    // The 60 requests allowed this minute still count against the new budget (the refused one
    // took nothing).
    expect(Number(next.headers.get("ratelimit-remaining"))).toBe(1200 - 61)

    const downgrade = await app.call("POST", `/v1/operator/companies/${company.companyId}/plan`, {
      token: app.operatorToken,
      body: { plan: "business", reason: "downgraded" }
    })
    expect(downgrade.status).toBe(200)
    const after = await app.call("GET", "/v1/me", { token: company.ownerKey })
    expect(after.headers.get("ratelimit-limit")).toBe("300")
    expect(Number(after.headers.get("ratelimit-remaining"))).toBe(300 - 62)
  })

  it("uses the operator's setting for an owned company", async () => {
    const company = await app.createCompany({ name: "Owned Co", plan: "solo" })
    const owned = await app.call("POST", `/v1/operator/companies/${company.companyId}/plan`, {
      token: app.operatorToken,
      body: { plan: "owned", reason: "self-hosted", rate_limit_rpm: 5 }
    })
    expect(owned.body).toMatchObject({ plan: "owned", rate_limit_rpm: 5 })
    expect(await burst(company.ownerKey, 6)).toEqual([200, 200, 200, 200, 200, 429])
  })

  it("holds a key to its own rate_limit_rpm while the company has room", async () => {
    const company = await app.createCompany({ name: "Keyed Co", plan: "business" })
    const slow = await createKey(app, company.ownerKey, {
      principal_type: "user",
      user_id: company.ownerId,
      scopes: ["read"],
      rate_limit_rpm: 3
    })
    expect(slow.body.key.rate_limit_rpm).toBe(3)
    expect(await burst(slow.secret, 4)).toEqual([200, 200, 200, 429])
    const refused = await app.call("GET", "/v1/me", { token: slow.secret })
    expect(refused.headers.get("retry-after")).toBe("20")
    expect((await app.call("GET", "/v1/me", { token: company.ownerKey })).status).toBe(200)
    app.clock!.advance("20 seconds")
    expect((await app.call("GET", "/v1/me", { token: slow.secret })).status).toBe(200)
    // An admin may lift the key's limit on rotation; the successor has its own bucket.
    const rotated = await app.call("POST", `/v1/keys/${slow.id}/rotate`, {
      token: company.ownerKey,
      key: newKey(),
      body: { rate_limit_rpm: null, overlap_seconds: 0 }
    })
    expect(rotated.body.key.rate_limit_rpm).toBeNull()
    expect(await burst(rotated.body.secret, 5)).toEqual([200, 200, 200, 200, 200])
  })

  it("audits an ended key's refusals at a bounded rate, without spending the company's budget", async () => {
    const company = await app.createCompany({ name: "Leaked Key Co", plan: "solo" })
    const leaked = await createKey(app, company.ownerKey, { principal_type: "user", user_id: company.ownerId, scopes: ["read"] })
    await app.call("POST", `/v1/keys/${leaked.id}/revoke`, { token: company.ownerKey, key: newKey(), body: { reason: "leaked" } })
    const statuses = await burst(leaked.secret, Limits.endedKeyAuditsPerMinute + 20)
    expect(new Set(statuses)).toEqual(new Set([401]))
    const audited = async () =>
      (await app.query("SELECT 1 FROM audit_events WHERE company_id = $1 AND key_id = $2 AND outcome = 'refused'", [company.companyId, leaked.id])).length
    expect(await audited()).toBe(Limits.endedKeyAuditsPerMinute)
    // The company's own budget is untouched (two requests so far: creating and revoking the key).
    const me = await app.call("GET", "/v1/me", { token: company.ownerKey })
    expect(me.status).toBe(200)
    expect(Number(me.headers.get("ratelimit-remaining"))).toBe(60 - 3)
    app.clock!.advance("60 seconds")
    await burst(leaked.secret, 5)
    expect(await audited()).toBe(Limits.endedKeyAuditsPerMinute + 5)
  })

  it("keeps companies apart", async () => {
    const first = await app.createCompany({ name: "Busy Co", plan: "solo" })
    const second = await app.createCompany({ name: "Quiet Co", plan: "solo" })
    await burst(first.ownerKey, 61)
    expect((await app.call("GET", "/v1/me", { token: first.ownerKey })).status).toBe(429)
    expect((await app.call("GET", "/v1/me", { token: second.ownerKey })).status).toBe(200)
  })
})

describe("token buckets", () => {
  const limit = fc.integer({ min: 1, max: 2_000 })
  const gaps = fc.array(fc.integer({ min: 0, max: 5_000 }), { minLength: 1, maxLength: 300 })

  it("never allows more than the limit plus what refilled since the start", () => {
    fc.assert(fc.property(limit, gaps, (limitPerMinute, steps) => {
      let bucket: Bucket = fullBucket(limitPerMinute, 0)
      let now = 0
      let allowed = 0
      for (const gap of steps) {
        now += gap
        const result = take([refill(bucket, limitPerMinute, now)])
        bucket = result.buckets[0]!
        if (result.verdict.allowed) allowed++
        expect(allowed).toBeLessThanOrEqual(limitPerMinute + Math.floor((now / 60_000) * limitPerMinute) + 1)
        expect(bucket.tokens).toBeLessThanOrEqual(limitPerMinute)
        expect(bucket.tokens).toBeGreaterThanOrEqual(0)
      }
    }))
  })

  it("allows one more request exactly Retry-After seconds after a refusal", () => {
    fc.assert(fc.property(limit, fc.integer({ min: 0, max: 100_000 }), (limitPerMinute, start) => {
      let bucket: Bucket = fullBucket(limitPerMinute, start)
      for (let index = 0; index < limitPerMinute; index++) bucket = take([refill(bucket, limitPerMinute, start)]).buckets[0]!
      const refused = take([refill(bucket, limitPerMinute, start)])
      expect(refused.verdict.allowed).toBe(false)
      expect(refused.verdict.firstRefusal).toBe(true)
      const again = take([refill(refused.buckets[0]!, limitPerMinute, start)])
      expect(again.verdict.firstRefusal).toBe(false)
      const later = refill(again.buckets[0]!, limitPerMinute, start + refused.verdict.retryAfterSeconds * 1_000)
      expect(take([later]).verdict.allowed).toBe(true)
    }))
  })

  it("carries the requests spent this minute across a change of limit", () => {
    fc.assert(fc.property(limit, limit, fc.integer({ min: 0, max: 2_000 }), (before, after, requests) => {
      let bucket: Bucket = fullBucket(before, 0)
      let spent = 0
      for (let index = 0; index < requests; index++) {
        const result = take([refill(bucket, before, 0)])
        bucket = result.buckets[0]!
        if (result.verdict.allowed) spent++
      }
      const changed = refill(bucket, after, 0)
      expect(changed.limitPerMinute).toBe(after)
      expect(changed.tokens).toBe(Math.max(0, Math.min(after, after - spent)))
    }))
  })

  it("takes nothing from any bucket when one of them refuses", () => {
    fc.assert(fc.property(limit, limit, (companyLimit, keyLimit) => {
      const company: Bucket = fullBucket(companyLimit, 0)
      const key: Bucket = { ...fullBucket(keyLimit, 0), tokens: 0.5 }
      const result = take([company, key])
      expect(result.verdict.allowed).toBe(false)
      expect(result.buckets[0]!.tokens).toBe(companyLimit)
      expect(result.verdict.limitPerMinute).toBe(keyLimit)
    }))
  })
})

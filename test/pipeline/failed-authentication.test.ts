import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Limits } from "@ledger/api"
import type { Server } from "@ledger/server"
import { Server as LedgerServer } from "@ledger/server"
import { Template } from "@ledger/testkit"
import { makeTestApp, type TestApp } from "../support/index.ts"
import { newFirm } from "../support/sign-in.ts"

/**
 * Issue 19 item 7: 1,000 wrong keys from one address all got 401, never 429, so guessing cost
 * nothing. Past `failedAuthenticationsPerAddressPerMinute` failures in a minute, every further
 * failure from that address is answered 429 with Retry-After; other addresses are untouched.
 * Issue 41 item 4: only failures count and only failures are refused, so a valid key from the
 * guessing address (an office behind one NAT) is still served; and the count is kept in the
 * database, so replicas share it (ADR 2300). The address comes from the socket, or from
 * X-Forwarded-For behind a trusted proxy (as here).
 */

let app: TestApp
let clock: Server.ManualClock
beforeAll(async () => {
  clock = LedgerServer.manualClock("2026-06-01T09:00:00Z")
  app = await makeTestApp({ rateLimits: true, trustProxy: true, clock })
}, 120_000)
afterAll(() => app?.close())

const from = (address: string) => ({ "x-forwarded-for": address })
const wrongKey = (index: number) => `ldg_${String(index).padStart(43, "x")}`

describe("failed authentication per address", () => {
  it("answers 429 to an address past its failures, lets other addresses through, and forgives after a minute", async () => {
    const company = await app.createCompany({ name: "Guessed Co" })
    const limit = Limits.failedAuthenticationsPerAddressPerMinute
    const statuses: Array<number> = []
    for (let index = 0; index < limit + 5; index++) {
      statuses.push((await app.call("GET", "/v1/accounts", { token: wrongKey(index), headers: from("203.0.113.7") })).status)
    }
    expect(statuses.slice(0, limit).every((status) => status === 401)).toBe(true)
    expect(statuses.slice(limit)).toEqual(Array(5).fill(429))

    // The right key from the guessing address is served: the limit counts failures only, so an
    // attacker behind a shared address cannot lock out everyone else behind it (issue 41 item 4).
    expect((await app.call("GET", "/v1/accounts", { token: company.ownerKey, headers: from("203.0.113.7") })).status).toBe(200)
    // Its next wrong key is still refused 429, with when to retry.
    const gated = await app.call("GET", "/v1/accounts", { token: wrongKey(999), headers: from("203.0.113.7") })
    expect(gated.status).toBe(429)
    expect(gated.body.error.type).toBe("rate_limited")
    expect(Number(gated.headers.get("retry-after"))).toBeGreaterThan(0)

    // Another address is not affected.
    expect((await app.call("GET", "/v1/accounts", { token: company.ownerKey, headers: from("198.51.100.4") })).status).toBe(200)
    expect((await app.call("GET", "/v1/accounts", { token: wrongKey(1), headers: from("198.51.100.4") })).status).toBe(401)

    // A minute later the address may get one wrong again.
    clock.advance("61 seconds")
    expect((await app.call("GET", "/v1/accounts", { token: wrongKey(1000), headers: from("203.0.113.7") })).status).toBe(401)
  })

  it("does not count requests that authenticate", async () => {
    const company = await app.createCompany({ name: "Busy Co" })
    const limit = Limits.failedAuthenticationsPerAddressPerMinute
    for (let index = 0; index < limit + 5; index++) {
      const result = await app.call("GET", "/v1/me", { token: company.ownerKey, headers: from("192.0.2.10") })
      expect(result.status).toBe(200)
    }
  })

  it("counts wrong credentials at /mcp like any other, and a firm key naming no client spends none", async () => {
    const limit = Limits.failedAuthenticationsPerAddressPerMinute
    const listTools = (token: string, address: string) =>
      app.fetch(new Request("http://ledger.test/mcp", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${token}`, ...from(address) },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" })
      }))
    // A firm key has an API key's form; listing tools with it, naming no client, is no failure.
    const firm = await newFirm(app)
    for (let index = 0; index < limit + 5; index++) expect((await listTools(firm.adminKey, "192.0.2.44")).status).toBe(200)

    const statuses: Array<number> = []
    for (let index = 0; index < limit + 2; index++) statuses.push((await listTools(wrongKey(index), "203.0.113.88")).status)
    expect(statuses.slice(0, limit).every((status) => status === 401)).toBe(true)
    expect(statuses.slice(limit)).toEqual([429, 429])
  })
})

describe("failed authentications across replicas", () => {
  it("share one count through the database: two servers over one store refuse the address together", async () => {
    // Two apps over one database are two replicas behind a balancer: each its own process state.
    const pglite = await Template.clone()
    const operatorToken = `operator-${Math.random().toString(36).slice(2)}`
    const replicaClock = LedgerServer.manualClock("2026-06-01T09:00:00Z")
    const options = { pglite, operatorToken, rateLimits: true, trustProxy: true, clock: replicaClock }
    const first = await LedgerServer.inProcess(options)
    const second = await LedgerServer.inProcess(options)
    try {
      const limit = Limits.failedAuthenticationsPerAddressPerMinute
      const call = (replica: typeof first, token: string) =>
        replica.handler(new Request("http://ledger.test/v1/accounts", { headers: { authorization: `Bearer ${token}`, ...from("203.0.113.99") } }))
      // Half the failures at each replica: together they reach the limit.
      for (let index = 0; index < limit; index++) {
        expect((await call(index % 2 === 0 ? first : second, wrongKey(index))).status).toBe(401)
      }
      expect((await call(first, wrongKey(limit))).status).toBe(429)
      expect((await call(second, wrongKey(limit + 1))).status).toBe(429)
    } finally {
      await first.dispose()
      await second.dispose()
      await pglite.close()
    }
  })
})

import { Effect, Exit } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createClient, isClientError, type RetryEvent } from "@ledger/client"
import { fromPromiseClient, LedgerClient } from "@ledger/client/effect"
import type { TestLedger } from "@ledger/testkit"
import { instrumentedFetch, testLedger } from "./support.ts"

let ledger: TestLedger
beforeAll(async () => {
  ledger = await testLedger({ seed: 11 })
})
afterAll(() => ledger.close())

const usersNamed = async (token: string, name: string) => {
  const client = ledger.client({ token })
  const found: Array<string> = []
  for await (const user of client.iterate("listUsers", { limit: 50 })) if (user.name === name) found.push(user.name)
  return found.length
}

describe("retries reuse the call's Idempotency-Key", () => {
  it("a network failure after the server committed is retried with the same key and makes exactly one change", async () => {
    const company = await ledger.createCompany()
    const { fetch, exchanges } = instrumentedFetch(ledger.fetch, (request, index) =>
      request.method === "POST" && index === 0 ? "drop-after-server" : undefined)
    const delays: Array<RetryEvent> = []
    const client = createClient({
      baseUrl: ledger.baseUrl,
      token: company.ownerKey,
      fetch,
      sleep: async () => {},
      onRetry: (event) => delays.push(event)
    })

    const response = await client.request("createUser", { name: "Once Only", role: "staff" })

    expect(response.status).toBe(201)
    expect(response.attempts).toBe(2)
    expect(response.replayed).toBe(true)
    expect(exchanges).toHaveLength(2)
    const keys = exchanges.map((exchange) => exchange.headers.get("idempotency-key"))
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/)
    expect(keys[1]).toBe(keys[0])
    expect(delays).toEqual([expect.objectContaining({ operationId: "createUser", attempt: 1, reason: "network_error", idempotencyKey: keys[0] })])
    expect(await usersNamed(company.ownerKey, "Once Only")).toBe(1)
    const audit = await ledger.query<{ count: number | string }>(
      "SELECT count(*) AS count FROM audit_events WHERE company_id = $1 AND action = 'createUser' AND outcome = 'ok'",
      [company.companyId]
    )
    expect(Number(audit[0]!.count)).toBe(1)
  })

  it("the Effect client does the same: one change, the replay's body equal to the first", async () => {
    const company = await ledger.createCompany()
    let firstBody: unknown
    const { fetch, exchanges } = instrumentedFetch(ledger.fetch, (request, index) =>
      request.method === "POST" && index === 0 ? "drop-after-server" : undefined)
    const program = Effect.gen(function*() {
      const client = yield* LedgerClient
      const response = yield* client.request("createUser", { name: "Effect Once", role: "accountant" })
      firstBody = response.body
      return response
    }).pipe(Effect.provide(LedgerClient.layer({ baseUrl: ledger.baseUrl, token: company.ownerKey, fetch, sleep: () => Effect.void })))

    const response = await Effect.runPromise(program)
    expect(response.replayed).toBe(true)
    expect(exchanges.map((exchange) => exchange.headers.get("idempotency-key"))).toEqual([
      response.idempotencyKey,
      response.idempotencyKey
    ])
    expect(firstBody).toMatchObject({ name: "Effect Once", role: "accountant" })
    expect(await usersNamed(company.ownerKey, "Effect Once")).toBe(1)
  })

  it("5xx answers are retried with exponential backoff and the same key, then the result is returned", async () => {
    const company = await ledger.createCompany()
    const failures = 2
    const { fetch, exchanges } = instrumentedFetch(ledger.fetch, (_, index) =>
      index < failures
        ? new Response(JSON.stringify({ error: { type: "service_unavailable", message: "busy" } }), {
          status: 503,
          headers: { "content-type": "application/json" }
        })
        : undefined)
    const events: Array<RetryEvent> = []
    const client = createClient({
      baseUrl: ledger.baseUrl,
      token: company.ownerKey,
      fetch,
      retry: { delayMsBase: 100, delayMsMax: 1_000 },
      sleep: async () => {},
      onRetry: (event) => events.push(event)
    })
    const user = await client.createUser({ name: "After 503s", role: "staff" })
    expect(user.name).toBe("After 503s")
    expect(new Set(exchanges.map((exchange) => exchange.headers.get("idempotency-key"))).size).toBe(1)
    expect(events.map((event) => event.reason)).toEqual(["status_503", "status_503"])
    // Equal jitter: retry n waits between half and all of min(max, base * 2^n).
    expect(events[0]!.delayMs).toBeGreaterThanOrEqual(50)
    expect(events[0]!.delayMs).toBeLessThanOrEqual(100)
    expect(events[1]!.delayMs).toBeGreaterThanOrEqual(100)
    expect(events[1]!.delayMs).toBeLessThanOrEqual(200)
  })

  it("gives up after the retry budget with a typed network error carrying the key to retry by hand", async () => {
    const company = await ledger.createCompany()
    const { fetch, exchanges } = instrumentedFetch(ledger.fetch, () => "drop-before-server")
    const client = createClient({ baseUrl: ledger.baseUrl, token: company.ownerKey, fetch, retry: { retriesMax: 2 }, sleep: async () => {} })
    const error = await client.createUser({ name: "Never", role: "staff" }).then(() => null, (cause: unknown) => cause)
    expect(isClientError(error, "network_error")).toBe(true)
    if (!isClientError(error, "network_error")) return
    expect(error.attempts).toBe(3)
    expect(exchanges).toHaveLength(3)
    expect(error.idempotencyKey).toBe(exchanges[0]!.headers.get("idempotency-key"))

    // The caller retries by hand with the key it was given: the user is created once.
    const retried = await company.client.request("createUser", { name: "Never", role: "staff" }, { idempotencyKey: error.idempotencyKey! })
    expect(retried.status).toBe(201)
    expect(retried.replayed).toBe(false)
    expect(await usersNamed(company.ownerKey, "Never")).toBe(1)
  })

  it("a refusal is not retried", async () => {
    const company = await ledger.createCompany()
    const { fetch, exchanges } = instrumentedFetch(ledger.fetch)
    const client = createClient({ baseUrl: ledger.baseUrl, token: company.ownerKey, fetch, sleep: async () => {} })
    const error = await client.getKey({ id: 999_999_999 }).then(() => null, (cause: unknown) => cause)
    expect(isClientError(error, "not_found")).toBe(true)
    expect(exchanges).toHaveLength(1)
  })

  it("every attempt has a timeout; a slow answer is retried and then reported as a timeout", async () => {
    const company = await ledger.createCompany()
    let calls = 0
    const slowFetch: typeof globalThis.fetch = (_, init) => {
      calls++
      return new Promise((_, reject) => init?.signal?.addEventListener("abort", () => reject(init.signal!.reason)))
    }
    const client = createClient({
      baseUrl: ledger.baseUrl,
      token: company.ownerKey,
      fetch: slowFetch,
      timeoutMs: 20,
      retry: { retriesMax: 1 },
      sleep: async () => {}
    })
    const error = await client.getMe().then(() => null, (cause: unknown) => cause)
    expect(isClientError(error, "timeout")).toBe(true)
    expect(calls).toBe(2)
  })
})

describe("429 honours Retry-After", () => {
  it("waits exactly Retry-After before the retry, which then succeeds", async () => {
    const company = await ledger.createCompany({ plan: "solo" })
    const { fetch, exchanges } = instrumentedFetch(ledger.fetch)
    const waited: Array<number> = []
    const client = createClient({
      baseUrl: ledger.baseUrl,
      token: company.ownerKey,
      fetch,
      // Waiting moves the test ledger's clock, so the bucket refills as it would in real time.
      sleep: async (milliseconds) => {
        waited.push(milliseconds)
        ledger.clock.advance(milliseconds)
      }
    })
    const limit = 60
    for (let index = 0; index < limit; index++) await client.getCompany()
    expect(waited).toEqual([])

    const before = ledger.clock.now()
    const company_ = await client.getCompany()
    expect(company_.company_id).toBe(company.companyId)

    const refused = exchanges.filter((exchange) => exchange.status === 429)
    expect(refused).toHaveLength(1)
    const retryAfter = Number(refused[0]!.responseHeaders!.get("retry-after"))
    expect(retryAfter).toBeGreaterThanOrEqual(1)
    expect(waited).toEqual([retryAfter * 1_000])
    expect(Date.parse(ledger.clock.now()) - Date.parse(before)).toBe(retryAfter * 1_000)
    expect(exchanges.at(-1)!.status).toBe(200)
  })

  it("a Retry-After beyond the client's patience is returned as a typed rate_limited error", async () => {
    const company = await ledger.createCompany()
    const { fetch } = instrumentedFetch(ledger.fetch, () =>
      new Response(JSON.stringify({ error: { type: "rate_limited", message: "slow down", details: { retry_after_seconds: 3600 } } }), {
        status: 429,
        headers: { "content-type": "application/json", "retry-after": "3600" }
      }))
    const client = createClient({ baseUrl: ledger.baseUrl, token: company.ownerKey, fetch, sleep: async () => {} })
    const exit = await Effect.runPromiseExit(fromPromiseClient(client).getMe())
    expect(Exit.isFailure(exit)).toBe(true)
    const error = await client.getMe().then(() => null, (cause: unknown) => cause)
    expect(isClientError(error, "rate_limited")).toBe(true)
    if (isClientError(error, "rate_limited")) expect(error.details).toEqual({ retry_after_seconds: 3600 })
  })
})

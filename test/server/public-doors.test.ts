import { connect } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Limits } from "@ledger/api"
import { freshStore, type RunningServer, startServer, type Store } from "../support/server-process.ts"

/**
 * The public doors over real HTTP, against `ledger serve` (issue 41 item 4, ADR 2300). Before:
 * `POST /oauth/register` stored 1,000 clients from one address in 2 s, never 429, and took a 20 KB
 * `client_name` the consent screen shows; after 60 wrong keys from one address, a valid key from it
 * was refused too. Now registration is limited per address (429 with Retry-After), metadata past
 * its bound is refused with `invalid_client_metadata`, and only failed authentications are
 * refused. Behind a trusted proxy, as here, the address is the first X-Forwarded-For hop.
 *
 * Item 3, over a raw socket: a body sent with no credential was read (up to the 120 s request
 * bound) before the credential was looked at; a body trickled in with a valid one held its socket
 * for those 120 s. Now the first is refused before a byte of its body, and a body has its own
 * deadline (`LEDGER_BODY_TIMEOUT_MS`, plus a second per 500 KB), past which it is answered 408.
 */

const operatorToken = `operator-public-doors-${Math.random().toString(36).slice(2)}`
let store: Store
let server: RunningServer
beforeAll(async () => {
  store = await freshStore()
  server = await startServer(store, {
    LEDGER_WORKERS: "off",
    LEDGER_ACCESS_LOG: "off",
    LEDGER_TRUST_PROXY: "1",
    LEDGER_OPERATOR_TOKEN: operatorToken,
    // A body's own time, short here so the test waits a second, not ten (the default).
    LEDGER_BODY_TIMEOUT_MS: "1000"
  })
}, 300_000)
afterAll(async () => {
  await server?.stop()
  await store?.remove()
})

const register = (address: string, metadata: Record<string, unknown> = {}) =>
  fetch(`${server.url}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": address },
    body: JSON.stringify({ client_name: "Desk MCP client", redirect_uris: ["http://127.0.0.1:33418/callback"], ...metadata })
  })

describe("POST /oauth/register", () => {
  it("refuses a client_name or another shown field past its bound with invalid_client_metadata", async () => {
    const refusals: Array<[Record<string, unknown>, string]> = [
      [{ client_name: "x".repeat(20_000) }, "client_name"],
      [{ client_name: "y".repeat(Limits.oauthClientTextMax + 1) }, "client_name"],
      [{ client_name: "Line\nbreak" }, "client_name"],
      [{ client_uri: `https://app.example/${"z".repeat(Limits.oauthClientUriMax)}` }, "client_uri"],
      [{ software_id: "s".repeat(Limits.oauthClientTextMax + 1) }, "software_id"],
      [{ logo_uri: 42 }, "logo_uri"]
    ]
    for (const [metadata, field] of refusals) {
      const response = await register("198.51.100.20", metadata)
      expect(response.status, field).toBe(400)
      const body = (await response.json()) as { error: string; error_description: string }
      expect(body.error).toBe("invalid_client_metadata")
      expect(body.error_description).toContain(field)
    }
    // A name at the bound is taken whole.
    const atBound = await register("198.51.100.20", { client_name: "n".repeat(Limits.oauthClientTextMax) })
    expect(atBound.status).toBe(201)
    expect(((await atBound.json()) as { client_name: string }).client_name).toHaveLength(Limits.oauthClientTextMax)
  })

  it("answers 429 with Retry-After past the registrations one address may make in an hour; another address goes on", async () => {
    const limit = Limits.oauthRegistrationsPerAddressPerHour
    const statuses: Array<number> = []
    for (let index = 0; index < limit; index++) statuses.push((await register("203.0.113.30")).status)
    expect(statuses).toEqual(Array(limit).fill(201))
    const refused = await register("203.0.113.30")
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0)
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(3_600)
    const body = (await refused.json()) as { error: string; error_description: string }
    expect(body.error).toBe("rate_limited")
    expect(body.error_description).toContain("this address")
    expect((await register("203.0.113.31")).status).toBe(201)
  })
})

describe("failed authentications", () => {
  it("refuse the guessing address's wrong keys past the limit, and still serve its valid key", async () => {
    const created = await fetch(`${server.url}/v1/companies`, {
      method: "POST",
      headers: { authorization: `Bearer ${operatorToken}`, "idempotency-key": "public-doors-company", "content-type": "application/json" },
      body: JSON.stringify({ name: "Shared Office Co", owner_name: "Owner" })
    })
    expect(created.status).toBe(201)
    const ownerKey = ((await created.json()) as { secret: string }).secret
    const accounts = (token: string) =>
      fetch(`${server.url}/v1/accounts`, { headers: { authorization: `Bearer ${token}`, "x-forwarded-for": "203.0.113.40" } })
    const limit = Limits.failedAuthenticationsPerAddressPerMinute
    const statuses: Array<number> = []
    for (let index = 0; index < limit + 1; index++) {
      statuses.push((await accounts(`ldg_${String(index).padStart(43, "q")}`)).status)
    }
    expect(statuses.slice(0, limit).every((status) => status === 401)).toBe(true)
    expect(statuses[limit]).toBe(429)
    // A person behind the same address with a valid key is served.
    expect((await accounts(ownerKey)).status).toBe(200)
    const again = await accounts("ldg_".padEnd(47, "w"))
    expect(again.status).toBe(429)
    expect(Number(again.headers.get("retry-after"))).toBeGreaterThan(0)
  })
})

/**
 * Sends `head` and then `body` (never ending it: the declared length is longer), and answers what
 * the server wrote before it closed the socket, or by `waitMs` (a bound far under the 120 s
 * request timeout, so a server that waits for the body is seen to).
 */
const partialRequest = (head: string, body: string, waitMs: number) =>
  new Promise<string>((done) => {
    const { port } = new URL(server.url)
    const socket = connect(Number(port), "127.0.0.1")
    let answer = ""
    const timer = setTimeout(() => socket.destroy(), waitMs)
    socket.on("data", (data) => (answer += data.toString()))
    socket.on("error", () => undefined)
    socket.on("close", () => {
      clearTimeout(timer)
      done(answer)
    })
    socket.write(head)
    if (body !== "") socket.write(body)
  })

const postHead = (path: string, headers: Record<string, string>, contentLength: number) =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nIdempotency-Key: body-${Math.random().toString(36).slice(2)}\r\n` +
  Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join("") +
  `Content-Length: ${contentLength}\r\n\r\n`

describe("request bodies", () => {
  it("refuses a body with no credential, or a token no credential can be, before reading it", async () => {
    for (const headers of [{}, { Authorization: "Bearer not-a-ledger-credential" }]) {
      const answer = await partialRequest(postHead("/v1/accounts", { "X-Forwarded-For": "192.0.2.60", ...headers }, 200), "{\"code\":", 8_000)
      expect(answer).toMatch(/^HTTP\/1\.1 401/)
      expect(answer.toLowerCase()).toContain("connection: close")
      expect(answer).toContain("unauthorized")
    }
  }, 30_000)

  it("answers 408 to a valid credential's body that does not arrive within its deadline", async () => {
    const created = await fetch(`${server.url}/v1/companies`, {
      method: "POST",
      headers: { authorization: `Bearer ${operatorToken}`, "idempotency-key": "public-doors-slow-body", "content-type": "application/json" },
      body: JSON.stringify({ name: "Slow Body Co", owner_name: "Owner" })
    })
    expect(created.status).toBe(201)
    const ownerKey = ((await created.json()) as { secret: string }).secret
    const answer = await partialRequest(postHead("/v1/accounts", { Authorization: `Bearer ${ownerKey}`, "X-Forwarded-For": "192.0.2.61" }, 200), "{\"code\":", 8_000)
    expect(answer).toMatch(/^HTTP\/1\.1 408/)
    expect(answer).toContain("request_timeout")
    expect(answer.toLowerCase()).toContain("connection: close")
    // The same with the whole body is served.
    const whole = await fetch(`${server.url}/v1/accounts`, {
      method: "POST",
      headers: { authorization: `Bearer ${ownerKey}`, "idempotency-key": "public-doors-whole-body", "content-type": "application/json" },
      body: JSON.stringify({ code: "1095", name: "Whole body", type: "asset", subtype: "bank" })
    })
    expect(whole.status).toBe(201)
  }, 30_000)
})

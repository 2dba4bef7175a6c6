import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { execFile } from "node:child_process"
import { createHash } from "node:crypto"
import { existsSync } from "node:fs"
import path from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { PgliteWasm } from "@ledger/server"
import { auditEvents, connectMcp, expectErrorBody, newKey } from "../support/index.ts"
import { everyStoredValue, freshStore, repositoryRoot, type RunningServer, startServer, type Store, withStore } from "../support/server-process.ts"

/**
 * The README's commands for real: `ledger serve` in a child process on a free port, over an empty
 * store (a temporary PGlite folder, or a fresh PostgreSQL database when DATABASE_URL is set).
 */

const operatorTokenPattern = /ldgop_[A-Za-z0-9_-]{43}/g
const specCoverage = path.resolve(repositoryRoot, "tools/spec-coverage.mjs")

let store: Store
let server: RunningServer
let operatorToken: string
let ownerKey: string

/** A tiny HTTP client for the spawned server. */
const call = async (method: "GET" | "POST", route: string, options: { token?: string; key?: string; body?: unknown } = {}) => {
  const headers: Record<string, string> = {}
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`
  if (options.key !== undefined) headers["idempotency-key"] = options.key
  if (options.body !== undefined) headers["content-type"] = "application/json"
  const response = await fetch(`${server.url}${route}`, {
    method,
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) })
  })
  const text = await response.text()
  return { status: response.status, headers: response.headers, body: text === "" ? null : JSON.parse(text) }
}

/** The harness's `call` shape over the network, for helpers written against it. */
const remote = { call: (method: "GET" | "POST", route: string, options: any) => call(method, route, options) } as any

/** Starting the server takes seconds, and much longer on a busy machine. */
const slow = 300_000

beforeAll(async () => {
  store = await freshStore()
  server = await startServer(store)
}, slow)
afterAll(async () => {
  await server?.stop()
  await store?.remove()
}, slow)

describe("ledger serve", () => {
  it("answers GET /health without a credential", async () => {
    const health = await call("GET", "/health")
    expect(health.status).toBe(200)
    expect(health.body).toMatchObject({ status: "ok", database: "ok", storage: store.kind, version: "0.1.0" })
    expect(Date.parse(health.body.time)).not.toBeNaN()
  }, slow)

  it("says what it runs on: PostgreSQL, or PGlite with the WebAssembly compiler it chose and why", async () => {
    const expected = store.kind === "pglite"
      ? `; ${PgliteWasm.choose("auto", PgliteWasm.processMemoryBytes()).tier} WebAssembly compiler: `
      : "with PostgreSQL"
    // The line follows the port's binding, so /health may answer a moment before it is written.
    await vi.waitFor(() => expect(server.output()).toMatch(/Ledger listening on http:\/\/127\.0\.0\.1:\d+ with /))
    expect(server.output()).toContain(expected)
  }, slow)

  it("prints a generated operator token once on first start, and it works", async () => {
    const tokens = server.output().match(operatorTokenPattern) ?? []
    expect(tokens).toHaveLength(1)
    operatorToken = tokens[0]!
    const created = await call("POST", "/v1/companies", {
      token: operatorToken,
      key: newKey(),
      body: { name: "CLI Co", owner_name: "Casey" }
    })
    expect(created.status).toBe(201)
    ownerKey = created.body.secret
    expect((await call("GET", "/v1/me", { token: ownerKey })).status).toBe(200)
    const wrong = await call("POST", "/v1/companies", { token: operatorToken.slice(0, -1) + "x", key: newKey(), body: { name: "X", owner_name: "Y" } })
    expect(wrong.status).toBe(401)
  }, slow)

  it("publishes 4.1 and 4.2 completely, as spec-coverage counts them", async () => {
    expect(existsSync(specCoverage), `${specCoverage} (the repository's spec-coverage tool)`).toBe(true)
    const { stdout } = await promisify(execFile)(process.execPath, [specCoverage, server.url])
    const line = (area: string) => stdout.split("\n").find((candidate) => candidate.endsWith(area))
    expect(line("4.1 Meta"), stdout).toMatch(/^ok\s+3\/3\s/)
    expect(line("4.2 Administration and keys"), stdout).toMatch(/^ok\s+18\/18\s/)
    expect(stdout).toMatch(/^openapi: 3\.1\.0/)
  }, slow)

  it("serves MCP over real HTTP to the SDK's client", async () => {
    // The administration toolset: the tools this test lists and calls (the default list is small, ADR 2200).
    const client: Client = await connectMcp(`${server.url}/mcp`, ownerKey, { "x-ledger-toolsets": "administration" })
    try {
      const tools = (await client.listTools()).tools
      expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["get_me", "create_user", "rotate_key", "list_audit_events"]))
      const me = await client.callTool({ name: "get_me", arguments: {} })
      expect(me.structuredContent).toMatchObject({ principal_type: "user", name: "Casey" })
      const idempotencyKey = newKey()
      const created = await client.callTool({ name: "create_user", arguments: { name: "Remy", role: "staff", idempotency_key: idempotencyKey } })
      expect(created.isError).toBeFalsy()
      const replayed = await client.callTool({ name: "create_user", arguments: { name: "Remy", role: "staff", idempotency_key: idempotencyKey } })
      expect(replayed.structuredContent).toEqual(created.structuredContent)
      const refused = await client.callTool({ name: "create_user", arguments: { name: "Remy", role: "staff" } })
      expect(refused.isError).toBe(true)
      expectErrorBody(refused.structuredContent, "idempotency_key_required")
    } finally {
      await client.close()
    }
    const events = await auditEvents(remote, ownerKey)
    expect(events.filter((event) => event.action === "createUser" && event.via === "mcp" && event.outcome === "ok")).toHaveLength(1)
    // The endpoint is stateless: no session stream to open.
    const get = await fetch(`${server.url}/mcp`, { headers: { authorization: `Bearer ${ownerKey}` } })
    expect(get.status).toBe(405)
  }, slow)

  it("prints no token on a second start over the same store, where the first still works", async () => {
    // A stop by signal is an interruption: the runtime closes storage and exits 130.
    expect([0, 130]).toContain(await server.stop())
    expect(server.output()).toContain("Ledger stopped.")
    server = await startServer(store)
    expect(server.output()).not.toMatch(operatorTokenPattern)
    expect(server.output()).not.toContain(operatorToken)
    const created = await call("POST", "/v1/companies", { token: operatorToken, key: newKey(), body: { name: "Second Co", owner_name: "Sam" } })
    expect(created.status).toBe(201)
    expect((await call("GET", "/v1/me", { token: ownerKey })).status).toBe(200)
  }, slow)

  it("loses nothing it committed when the process is killed", async () => {
    const created = await call("POST", "/v1/users", { token: ownerKey, key: newKey(), body: { name: "Durable Dee", role: "cpa" } })
    expect(created.status).toBe(201)
    await server.kill()
    server = await startServer(store)
    const users = await call("GET", "/v1/users", { token: ownerKey })
    expect(users.body.data.map((user: { name: string }) => user.name)).toContain("Durable Dee")
  }, slow)

  it("stores only the operator token's hash, and no secret anywhere", async () => {
    await server.stop()
    const hash = createHash("sha256").update(operatorToken).digest("hex")
    const stored = await withStore(store, (sql) => everyStoredValue(sql))
    expect(stored.tables).toContain("operator_credentials")
    expect(stored.values.filter((value) => value.table === "operator_credentials" && value.column === "token_hash").map((value) => value.value))
      .toEqual([hash])
    const secrets = [operatorToken, ownerKey, ownerKey.slice(4)]
    for (const value of stored.values) {
      for (const secret of secrets) expect(value.value.includes(secret), `${value.table}.${value.column}`).toBe(false)
    }
    // Not in the embedded store's files either (its write-ahead log included).
    for (const file of await store.files()) {
      for (const secret of secrets) expect(file.bytes.includes(secret), file.name).toBe(false)
    }
    server = await startServer(store)
  }, slow)
})

import { Client as McpClient } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { Effect, Stream } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createClient, isClientError } from "@ledger/client"
import { fromPromiseClient, LedgerClient } from "@ledger/client/effect"
import type { TestCompany, TestLedger } from "@ledger/testkit"
import { instrumentedFetch, testLedger } from "./support.ts"

let ledger: TestLedger
let company: TestCompany
beforeAll(async () => {
  ledger = await testLedger({ seed: 21 })
  company = await ledger.createCompany({ name: "SDK Co" })
})
afterAll(() => ledger.close())

const rejection = (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => error)

describe("lists", () => {
  it("walks every page with an async iterator and with a Stream", async () => {
    const names = ["Ann", "Ben", "Cat", "Dan", "Eve"]
    for (const name of names) await company.client.createUser({ name, role: "staff" })

    const iterated: Array<{ id: number; name: string }> = []
    for await (const user of company.client.iterate("listUsers", { limit: 2 })) iterated.push(user)
    expect(iterated.map((user) => user.name).sort()).toEqual([...names, "Owner"].sort())
    expect(new Set(iterated.map((user) => user.id)).size).toBe(iterated.length)

    const streamed = await Effect.runPromise(
      Effect.gen(function*() {
        const client = yield* LedgerClient
        return yield* Stream.runCollect(client.stream("listUsers", { limit: 4 }))
      }).pipe(Effect.provide(LedgerClient.layer({ baseUrl: ledger.baseUrl, token: company.ownerKey, fetch: ledger.fetch })))
    )
    expect(Array.from(streamed, (user) => user.id)).toEqual(iterated.map((user) => user.id))
  })

  it("a page can still be read on its own", async () => {
    const page = await company.client.listUsers({ limit: 1 })
    expect(page.data).toHaveLength(1)
    expect(page.has_more).toBe(true)
    expect(typeof page.next_cursor).toBe("string")
  })
})

describe("headers from options", () => {
  it("sends X-Agent-Model and X-Agent-Run-Id, which reach the audit log", async () => {
    const agent = await company.createAgent({ model: "acme-bookkeeper/2025-06", run_id: "run-42" })
    const rotated = await agent.client.rotateKey({ id: agent.keyId, overlap_seconds: 60 })
    expect(rotated.key.rotated_from_key_id).toBe(agent.keyId)
    const events = await company.client.listAuditEvents({ limit: 20 })
    const rotation = events.data.find((event) => event.action === "rotateKey")
    expect(rotation).toMatchObject({ agent_model: "acme-bookkeeper/2025-06", agent_run_id: "run-42", principal_type: "agent" })
  })

  it("sends X-Ledger-Company, per-call overrides, and leaves a value out with null", async () => {
    const { fetch, exchanges } = instrumentedFetch(ledger.fetch)
    const client = createClient({
      baseUrl: `${ledger.baseUrl}/`,
      token: company.ownerKey,
      fetch,
      company: company.companyId,
      agentModel: "m/1",
      headers: { "x-trace": "t1" }
    })
    await client.getMe()
    // A company key naming another company is refused, not ignored (issue 19 item 5); the headers
    // still went out as asked.
    await expect(client.getMe(undefined, { agentModel: null, company: "00000000-0000-4000-8000-000000000000", headers: { "x-trace": "t2" } }))
      .rejects.toMatchObject({ type: "invalid_request" })
    const [first, second] = exchanges
    expect(first!.url).toBe(`${ledger.baseUrl}/v1/me`)
    expect(first!.headers.get("x-ledger-company")).toBe(company.companyId)
    expect(first!.headers.get("x-agent-model")).toBe("m/1")
    expect(first!.headers.get("authorization")).toBe(`Bearer ${company.ownerKey}`)
    expect(first!.headers.get("idempotency-key")).toBeNull()
    expect(first!.headers.get("traceparent")).toBeNull()
    expect(second!.headers.get("x-agent-model")).toBeNull()
    expect(second!.headers.get("x-ledger-company")).toBe("00000000-0000-4000-8000-000000000000")
    expect(second!.headers.get("x-trace")).toBe("t2")
  })

  it("puts path and query fields in the URL and the rest in the body", async () => {
    const { fetch, exchanges } = instrumentedFetch(ledger.fetch)
    const client = fromPromiseClient(company.client).with({ fetch })
    const keys = await Effect.runPromise(client.listKeys({ include_ended: true, limit: 3 }))
    expect(keys.data.length).toBeLessThanOrEqual(3)
    expect(new URL(exchanges[0]!.url).search).toBe("?include_ended=true&limit=3")
    const key = keys.data[0]!
    const fetched = await Effect.runPromise(client.getKey({ id: key.id }))
    expect(fetched.id).toBe(key.id)
    expect(new URL(exchanges[1]!.url).pathname).toBe(`/v1/keys/${key.id}`)
  })
})

describe("errors are values with the spec's type", () => {
  it("not_found, insufficient_scope and invalid_request", async () => {
    const missing = await rejection(company.client.getKey({ id: 123_456_789 }))
    expect(isClientError(missing, "not_found")).toBe(true)
    if (isClientError(missing, "not_found")) expect(missing.status).toBe(404)

    const reader = await company.createAgent({ scopes: ["read"] })
    const scope = await rejection(reader.client.createUser({ name: "X", role: "staff" }))
    expect(isClientError(scope, "insufficient_scope")).toBe(true)

    // A field the schema does not know is sent and refused by name, never dropped silently.
    const unknown = await rejection(company.client.createUser({ name: "X", role: "staff", nickname: "x" } as never))
    expect(isClientError(unknown, "invalid_request")).toBe(true)
    if (isClientError(unknown, "invalid_request")) {
      expect(JSON.stringify(unknown.details)).toContain("nickname")
    }
  })

  it("a key reused for another request is idempotency_conflict, and a replay is marked", async () => {
    const idempotencyKey = "sdk-test-reused-key-1"
    const first = await company.client.request("createUser", { name: "Kay", role: "staff" }, { idempotencyKey })
    const again = await company.client.request("createUser", { name: "Kay", role: "staff" }, { idempotencyKey })
    expect(again.replayed).toBe(true)
    expect(again.body).toEqual(first.body)
    const conflict = await rejection(company.client.createUser({ name: "Kim", role: "staff" }, { idempotencyKey }))
    expect(isClientError(conflict, "idempotency_conflict")).toBe(true)
  })

  it("with validateResponses, a body that breaks its schema is unexpected_response", async () => {
    const { fetch } = instrumentedFetch(ledger.fetch, () =>
      new Response(JSON.stringify({ status: "ok", version: "1", storage: "pglite", database: "ok", time: "x", extra: 1 }), {
        status: 200,
        headers: { "content-type": "application/json" }
      }))
    const strict = createClient({ baseUrl: ledger.baseUrl, fetch, validateResponses: true })
    const error = await rejection(strict.getHealth())
    expect(isClientError(error, "unexpected_response")).toBe(true)
    const lenient = createClient({ baseUrl: ledger.baseUrl, fetch })
    expect(await lenient.getHealth()).toMatchObject({ extra: 1 })
  })

  it("a gateway's HTML error page is unexpected_response once retries are spent", async () => {
    const { fetch, exchanges } = instrumentedFetch(ledger.fetch, () =>
      new Response("<html>Bad Gateway</html>", { status: 502, headers: { "content-type": "text/html" } }))
    const client = createClient({ baseUrl: ledger.baseUrl, token: company.ownerKey, fetch, retry: { retriesMax: 1 }, sleep: async () => {} })
    const error = await rejection(client.getMe())
    expect(isClientError(error, "unexpected_response")).toBe(true)
    if (isClientError(error, "unexpected_response")) expect(error.status).toBe(502)
    expect(exchanges).toHaveLength(2)
  })

  it("an aborted call rejects with the signal's reason", async () => {
    const controller = new AbortController()
    const reason = new Error("user cancelled")
    controller.abort(reason)
    await expect(company.client.getMe(undefined, { signal: controller.signal })).rejects.toBe(reason)
  })
})

describe("the test ledger serves MCP clients too", () => {
  it("an MCP client over the test ledger's fetch lists tools and calls them", async () => {
    const client = new McpClient({ name: "sdk-test", version: "1.0.0" })
    // The starting list is small (issue 40); a client names the toolsets it wants on the address.
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${ledger.baseUrl}/mcp?toolsets=default,administration`), {
        fetch: ledger.fetch,
        requestInit: { headers: { authorization: `Bearer ${company.ownerKey}` } }
      })
    )
    try {
      const tools = await client.listTools()
      const names = tools.tools.map((tool) => tool.name)
      expect(names).toContain("get_me")
      expect(names).toContain("create_user")
      const me = await client.callTool({ name: "get_me", arguments: {} })
      expect(me.isError).not.toBe(true)
      expect(JSON.stringify(me.structuredContent ?? me.content)).toContain(company.companyId)
    } finally {
      await client.close()
    }
  })
})

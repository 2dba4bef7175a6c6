import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import type { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import type { Tool } from "@modelcontextprotocol/sdk/types.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { agentModel, agentWithKey, agentWithThreshold, connectMcp, expectErrorBody, makeTestApp, newKey, type TestApp, type TestCompany } from "../support/index.ts"

/**
 * Discovery at run time (issue 40 item 2, ADR 2200), driven by the official SDK client: an agent
 * that starts from the small default list finds the toolsets, reads one tool's schema, turns a
 * toolset on for its session (the server sends notifications/tools/list_changed and the client
 * reloads), and, when its client keeps no session or ignores list_changed, calls any tool by name
 * or through call_tool. Nothing the caller's scopes allow is out of reach; nothing else is let in.
 */

let app: TestApp
let company: TestCompany
beforeAll(async () => {
  app = await makeTestApp()
  company = await app.createCompany({ name: "Discovery Co" })
}, 120_000)
afterAll(() => app.close())

const names = (tools: ReadonlyArray<Tool>) => tools.map((tool) => tool.name)
const structured = (result: unknown) => (result as { structuredContent: any }).structuredContent

/** A client that reloads its list on list_changed, and the lists it reloaded, in order. */
const reloading = async (token: string, headers: Record<string, string> = {}) => {
  const reloads: Array<ReadonlyArray<string>> = []
  let waiting: Array<() => void> = []
  const client = await connectMcp(app, token, headers, {
    listChanged: {
      tools: {
        debounceMs: 0,
        onChanged: (error, tools) => {
          if (error === null) reloads.push(names(tools ?? []))
          for (const resolve of waiting) resolve()
          waiting = []
        }
      }
    }
  })
  const reloaded = (count: number) =>
    new Promise<void>((resolve) => {
      if (reloads.length >= count) return resolve()
      const check = () => (reloads.length >= count ? resolve() : waiting.push(check))
      waiting.push(check)
    })
  return { client, reloads, reloaded }
}

/** One raw JSON-RPC message to /mcp, as a client with no SDK sends it. */
const post = (token: string, message: unknown, headers: Record<string, string> = {}) =>
  app.fetch(new Request("http://ledger.test/mcp", {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json", ...headers },
    body: JSON.stringify(message)
  }))

describe("MCP discovery", () => {
  it("opens a session, lists the toolsets, describes a tool, turns banking on and off with list_changed", async () => {
    const { client, reloads, reloaded } = await reloading(company.ownerKey)
    try {
      expect(client.getServerCapabilities()?.tools?.listChanged).toBe(true)
      expect((client.transport as StreamableHTTPClientTransport).sessionId).toMatch(/^[A-Za-z0-9_-]{43}$/)
      const start = names((await client.listTools()).tools)
      expect(start).not.toContain("match_bank_line")

      const toolsets = structured(await client.callTool({ name: "list_toolsets", arguments: {} }))
      expect(toolsets.session).toBe(true)
      const banking = toolsets.toolsets.find((toolset: any) => toolset.name === "banking")
      expect(banking).toMatchObject({ enabled: false, tools: expect.arrayContaining(["match_bank_line", "import_statement"]) })
      expect(toolsets.toolsets.find((toolset: any) => toolset.name === "default")).toMatchObject({ enabled: true })
      expect(typeof banking.description).toBe("string")

      const described = structured(await client.callTool({ name: "describe_tool", arguments: { name: "match_bank_line" } }))
      expect(described).toMatchObject({ listed: false, toolsets: ["banking"], tool: { name: "match_bank_line", inputSchema: { type: "object" } } })
      expect(Object.keys(described.tool.inputSchema.properties)).toContain("id")
      // Only what to send, for an agent that reads answers as they come: about half a write's bytes.
      expect(described.tool.outputSchema).toMatchObject({ type: "object" })
      const inputOnly = structured(await client.callTool({ name: "describe_tool", arguments: { name: "match_bank_line", output_schema: false } }))
      expect(inputOnly.tool.outputSchema).toBeUndefined()
      expect(inputOnly.tool.inputSchema).toEqual(described.tool.inputSchema)
      // A client that asked for no output schemas in its list gets none here either, unless it asks.
      const lean = await connectMcp(app, company.ownerKey, { "x-ledger-output-schemas": "none" })
      expect(structured(await lean.callTool({ name: "describe_tool", arguments: { name: "match_bank_line" } })).tool.outputSchema).toBeUndefined()
      expect(structured(await lean.callTool({ name: "describe_tool", arguments: { name: "match_bank_line", output_schema: true } })).tool.outputSchema)
        .toMatchObject({ type: "object" })
      await lean.close()

      const enabled = structured(await client.callTool({ name: "enable_toolset", arguments: { toolset: "banking" } }))
      expect(enabled).toMatchObject({ toolset: "banking", enabled: true, changed: true, session: true })
      await reloaded(1)
      expect(reloads[0]).toContain("match_bank_line")
      expect(names((await client.listTools()).tools)).toEqual(reloads[0])
      expect(structured(await client.callTool({ name: "describe_tool", arguments: { name: "match_bank_line" } })).listed).toBe(true)

      // Turning it on again changes nothing, so nothing is sent.
      expect(structured(await client.callTool({ name: "enable_toolset", arguments: { toolset: "banking" } }))).toMatchObject({ changed: false })

      const disabled = structured(await client.callTool({ name: "disable_toolset", arguments: { toolset: "banking" } }))
      expect(disabled).toMatchObject({ enabled: false, changed: true })
      await reloaded(2)
      expect(reloads[1]).toEqual(start)
      expect(reloads).toHaveLength(2)

      const unknown = await client.callTool({ name: "enable_toolset", arguments: { toolset: "bankng" } })
      expect(unknown.isError).toBe(true)
      expectErrorBody(structured(unknown), "not_found")
    } finally {
      await client.close()
    }
  })

  it("sends list_changed on the toggle's own answer, an event stream, when the client takes one; JSON otherwise", async () => {
    const initialize = {
      jsonrpc: "2.0", id: 1, method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } }
    }
    const opened = await post(company.ownerKey, initialize)
    const session = opened.headers.get("mcp-session-id")!
    expect(session).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const toggle = (id: number, accept: string) =>
      post(company.ownerKey, { jsonrpc: "2.0", id, method: "tools/call", params: { name: "enable_toolset", arguments: { toolset: "mileage" } } },
        { "mcp-session-id": session, "mcp-protocol-version": "2025-06-18", accept })
    const streamed = await toggle(2, "application/json, text/event-stream")
    expect(streamed.headers.get("content-type")).toContain("text/event-stream")
    const events = (await streamed.text()).split("\n").filter((line) => line.startsWith("data: ")).map((line) => JSON.parse(line.slice(6)))
    expect(events.map((event) => event.method ?? `result ${event.id}`)).toEqual(["notifications/tools/list_changed", "result 2"])
    expect(events[1].result.structuredContent).toMatchObject({ changed: true, session: true })

    const listed = await post(company.ownerKey, { jsonrpc: "2.0", id: 3, method: "tools/list" }, { "mcp-session-id": session })
    expect((await listed.json()).result.tools.map((tool: Tool) => tool.name)).toContain("log_trip")

    // Another principal presenting the session id gets its own list, not this session's.
    const reader = await agentWithKey(app, company.ownerKey, ["read"])
    const stranger = await post(reader.key.secret, { jsonrpc: "2.0", id: 4, method: "tools/list" },
      { "mcp-session-id": session, "x-agent-model": agentModel })
    expect((await stranger.json()).result.tools.map((tool: Tool) => tool.name)).not.toContain("list_trips")

    // A session this process does not know (restarted, another replica) is taken up by the next toggle.
    const forgotten = "F".repeat(43)
    const adopted = await post(company.ownerKey, { jsonrpc: "2.0", id: 6, method: "tools/call", params: { name: "enable_toolset", arguments: { toolset: "payroll" } } },
      { "mcp-session-id": forgotten })
    expect((await adopted.json()).result.structuredContent).toMatchObject({ session: true, changed: true })
    const relisted = await post(company.ownerKey, { jsonrpc: "2.0", id: 7, method: "tools/list" }, { "mcp-session-id": forgotten })
    expect((await relisted.json()).result.tools.map((tool: Tool) => tool.name)).toContain("get_payroll_ytd")

    const plain = await post(company.ownerKey, { jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "disable_toolset", arguments: { toolset: "mileage" } } },
      { "mcp-session-id": session })
    expect(plain.headers.get("content-type")).toContain("application/json")
    expect((await plain.json()).result.structuredContent).toMatchObject({ changed: true, enabled: false })
  })

  it("reaches every tool without a session: by name, or through call_tool, with the described schema", async () => {
    // No session id: a client that keeps none, or ignores list_changed.
    const call = async (id: number, name: string, args: Record<string, unknown>, meta?: Record<string, unknown>) =>
      (await (await post(company.ownerKey, { jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args, ...(meta ? { _meta: meta } : {}) } })).json()).result

    const listed = (await (await post(company.ownerKey, { jsonrpc: "2.0", id: 1, method: "tools/list" })).json()).result.tools.map((tool: Tool) => tool.name)
    expect(listed).not.toContain("create_user")
    const enable = await call(2, "enable_toolset", { toolset: "administration" })
    expect(enable.structuredContent).toMatchObject({ session: false, changed: false, tools: expect.arrayContaining(["create_user"]) })
    expect(enable.structuredContent.note).toContain("call_tool")

    const key = newKey()
    const viaCall = await call(3, "call_tool", { name: "create_user", arguments: { name: "Dora", role: "staff", idempotency_key: key } })
    expect(viaCall.isError).toBeUndefined()
    expect(viaCall._meta["dev.ledger/status"]).toBe(201)
    expect(viaCall.structuredContent).toMatchObject({ name: "Dora", role: "staff" })
    // The same key by name replays the same user: call_tool is the same call.
    const byName = await call(4, "create_user", { name: "Dora", role: "staff", idempotency_key: key })
    expect(byName.structuredContent).toEqual(viaCall.structuredContent)
    // _meta travels with call_tool: the key given there.
    const metaKey = await call(5, "call_tool", { name: "create_user", arguments: { name: "Dora", role: "staff" } }, { "dev.ledger/idempotency_key": key })
    expect(metaKey.structuredContent).toEqual(viaCall.structuredContent)

    const refused = await call(6, "call_tool", { name: "create_user", arguments: { name: "Eve", role: "staff" } })
    expect(refused.isError).toBe(true)
    expectErrorBody(refused.structuredContent, "idempotency_key_required")
    expect(refused.structuredContent.error.message).toContain("idempotency_key argument")
    expectErrorBody((await call(7, "call_tool", { name: "call_tool", arguments: {} })).structuredContent, "invalid_request")
    expectErrorBody((await call(8, "call_tool", { name: "no_such_tool" })).structuredContent, "not_found")
    // Discovery through call_tool too, for a client that lists nothing but call_tool.
    expect((await call(9, "call_tool", { name: "list_toolsets" })).structuredContent.session).toBe(false)
  })

  it("keeps scopes: a read-only agent discovers every tool it may use and nothing else", async () => {
    const reader = await agentWithKey(app, company.ownerKey, ["read"])
    const headers = { "x-agent-model": agentModel }
    const agent = await connectMcp(app, reader.key.secret, headers)
    const everything = await connectMcp(app, reader.key.secret, { ...headers, "x-ledger-toolsets": "all" })
    const ownerAll = await connectMcp(app, company.ownerKey, { "x-ledger-toolsets": "all" })
    try {
      const discoverable = async (client: Client) => {
        const toolsets = structured(await client.callTool({ name: "list_toolsets", arguments: {} })).toolsets as Array<{ tools: Array<string> }>
        return new Set(toolsets.flatMap((toolset) => toolset.tools))
      }
      const usable = names((await everything.listTools()).tools).filter((name) => !name.endsWith("_toolset") && !["list_toolsets", "describe_tool", "call_tool"].includes(name))
      expect([...await discoverable(agent)].sort()).toEqual([...usable].sort())
      const ownerUsable = names((await ownerAll.listTools()).tools).filter((name) => !name.endsWith("_toolset") && !["list_toolsets", "describe_tool", "call_tool"].includes(name))
      expect([...await discoverable(ownerAll)].sort()).toEqual([...ownerUsable].sort())
      expect(ownerUsable.length).toBeGreaterThan(usable.length)

      const describe = await agent.callTool({ name: "describe_tool", arguments: { name: "propose_journal_entry" } })
      expect(describe.isError).toBe(true)
      expectErrorBody(structured(describe), "insufficient_scope")
      const write = await agent.callTool({
        name: "call_tool",
        arguments: { name: "propose_journal_entry", arguments: { entry_date: "2026-01-01", lines: [], dry_run: true } }
      })
      expect(write.isError).toBe(true)
      expectErrorBody(structured(write), "insufficient_scope")
      // Turning a toolset on lists only what the scopes allow.
      const sales = structured(await agent.callTool({ name: "enable_toolset", arguments: { toolset: "sales" } }))
      expect(sales.tools).toContain("list_contacts")
      expect(sales.tools).not.toContain("create_invoice")
      const after = names((await agent.listTools()).tools)
      expect(after).toContain("get_contact")
      expect(after).not.toContain("create_invoice")
    } finally {
      await agent.close()
      await everything.close()
      await ownerAll.close()
    }
  })

  it("teaches: descriptions say what a write costs and what follows; refusals and proposals say the next step", async () => {
    const agent = await agentWithThreshold(app, company, { thresholdCents: 1_000 })
    const client = await connectMcp(app, agent.key, agent.headers)
    try {
      const tools = new Map((await client.listTools()).tools.map((tool) => [tool.name, tool.description ?? ""]))
      expect(tools.get("propose_journal_entry")).toMatch(/Governed write: posts within your threshold, else queues a proposal \(202\).*dry_run: true previews/)
      expect(tools.get("propose_journal_entry")).toMatch(/Next: a 202 is a proposal/)
      expect(tools.get("list_bank_lines")).toMatch(/Next: categorize_bank_line or match_bank_line/)
      expect(tools.get("list_accounts")).not.toMatch(/write/i)

      const lines = [{ account: "6070", debit_cents: 5_000 }, { account: "1010", credit_cents: 5_000 }]
      const queued = await client.callTool({ name: "propose_journal_entry", arguments: { entry_date: "2026-03-02", lines, idempotency_key: newKey() } })
      expect(queued._meta?.["dev.ledger/status"]).toBe(202)
      const id = (queued.structuredContent as { proposal: { id: number } }).proposal.id
      expect(queued._meta?.["dev.ledger/hint"]).toContain(`proposal ${id}: do not retry`)
      expect((queued.content as Array<{ text: string }>)[1]!.text).toMatch(/^Next: Queued for a person's approval/)

      const missingKey = await client.callTool({ name: "propose_journal_entry", arguments: { entry_date: "2026-03-02", lines } })
      expect(missingKey.isError).toBe(true)
      expect(missingKey._meta?.["dev.ledger/hint"]).toMatch(/^Add idempotency_key/)
      // The first block and the structured content stay the API's error body.
      expect(JSON.parse((missingKey.content as Array<{ text: string }>)[0]!.text)).toEqual(missingKey.structuredContent)
      const unknownAccount = await client.callTool({
        name: "propose_journal_entry",
        arguments: { entry_date: "2026-03-02", lines: [{ account: "9999", debit_cents: 5 }, { account: "1010", credit_cents: 5 }], dry_run: true }
      })
      expectErrorBody(unknownAccount.structuredContent, "unknown_account")
      expect((unknownAccount.content as Array<{ text: string }>)[1]!.text).toBe("Next: list_accounts gives the account codes that exist.")
      const unknownTool = await client.callTool({ name: "describe_tool", arguments: { name: "nope" } })
      expect(unknownTool._meta?.["dev.ledger/hint"]).toMatch(/list_ tool/)
    } finally {
      await client.close()
    }
  })
})

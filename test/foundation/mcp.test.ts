import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Catalog, Operation } from "@ledger/api"
import { agentWithKey, allTools, auditEvents, catalogTools, connectMcp, discoveryToolNames, expectErrorBody, makeTestApp, newKey, personWithKey, type TestApp, type TestCompany } from "../support/index.ts"

/**
 * The MCP endpoint, driven by the official SDK's client in process (through the harness's fetch).
 * test/server/cli.test.ts drives the same checks over real HTTP against the spawned server.
 */

let app: TestApp
let company: TestCompany
let owner: Client
beforeAll(async () => {
  app = await makeTestApp()
  company = await app.createCompany({ name: "MCP Co" })
  // Every tool the owner may use, by naming the toolset `all` (the default list is small, ADR 2200).
  owner = await connectMcp(app, company.ownerKey, allTools)
})
afterAll(async () => {
  await owner?.close()
  await app.close()
})

// What an owner (a person with every scope) may call over MCP: company operations, not the
// browser session's own.
const tools = (Catalog.operations as ReadonlyArray<Operation.Any>).filter((operation) =>
  operation.mcpTool && operation.credential === "company" && !operation.browserSessionOnly)

describe("MCP tools", () => {
  it("initializes as the ledger server with tools", () => {
    expect(owner.getServerVersion()?.name).toBe("ledger")
    expect(owner.getServerCapabilities()?.tools).toBeDefined()
  })

  it("lists one tool per catalog operation, named in snake_case, with sensible annotations", async () => {
    const everything = (await owner.listTools()).tools
    expect(everything.slice(0, discoveryToolNames.length).map((tool) => tool.name)).toEqual(discoveryToolNames)
    const listed = catalogTools(everything)
    expect(listed.map((tool) => tool.name).sort()).toEqual(tools.map((operation) => Operation.toolName(operation.id)).sort())
    for (const tool of listed) {
      expect(tool.name).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/)
      const operation = tools.find((candidate) => Operation.toolName(candidate.id) === tool.name)!
      expect(tool.inputSchema.type).toBe("object")
      expect((tool.inputSchema as { additionalProperties?: unknown }).additionalProperties).toBe(false)
      expect(tool.annotations?.readOnlyHint).toBe(operation.mode === "R")
      if (operation.mode === "R") expect(tool.annotations?.destructiveHint).toBe(false)
      if (operation.mode === "K") {
        expect(tool.annotations?.idempotentHint).toBe(true)
        expect(tool.inputSchema.properties).toHaveProperty("idempotency_key")
        // Required as the pipeline requires it: outright, or unless dry_run is true.
        const schema = tool.inputSchema as { required?: Array<string>; anyOf?: Array<{ required: Array<string> }> }
        const keyed = schema.required?.includes("idempotency_key") === true ||
          (schema.anyOf?.some((rule) => rule.required.includes("idempotency_key")) === true &&
            schema.anyOf.some((rule) => rule.required.includes("dry_run")))
        expect(keyed, tool.name).toBe(true)
      } else {
        expect(tool.inputSchema.properties ?? {}).not.toHaveProperty("idempotency_key")
      }
    }
    const byName = new Map(listed.map((tool) => [tool.name, tool]))
    expect(byName.get("get_me")?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false })
    expect(byName.get("create_user")?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: true })
    expect(byName.get("revoke_key")?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true })
    expect(byName.get("revoke_agent")?.annotations).toMatchObject({ destructiveHint: true })
    expect(byName.get("create_user")?.inputSchema.required).toEqual(expect.arrayContaining(["name", "role"]))
    expect(byName.get("get_key")?.inputSchema.required).toEqual(["id"])
  })

  it("reads with get_me", async () => {
    const result = await owner.callTool({ name: "get_me", arguments: {} })
    expect(result.isError).toBeFalsy()
    expect(result.structuredContent).toMatchObject({ principal_type: "user", role: "owner", company: { company_id: company.companyId } })
    expect(JSON.parse((result.content as Array<{ text: string }>)[0]!.text)).toEqual(result.structuredContent)
  })

  it("writes with create_user and an idempotency key, and replays the same key", async () => {
    const idempotencyKey = newKey()
    const first = await owner.callTool({ name: "create_user", arguments: { name: "Mia", role: "staff", idempotency_key: idempotencyKey } })
    expect(first.isError).toBeFalsy()
    expect(first._meta?.["dev.ledger/status"]).toBe(201)
    expect(first.structuredContent).toMatchObject({ name: "Mia", role: "staff", scopes: ["read", "propose"] })
    const again = await owner.callTool({ name: "create_user", arguments: { name: "Mia", role: "staff", idempotency_key: idempotencyKey } })
    expect(again.structuredContent).toEqual(first.structuredContent)
    const viaMeta = await owner.callTool({
      name: "create_user",
      arguments: { name: "Mia", role: "staff" },
      _meta: { "dev.ledger/idempotency_key": idempotencyKey }
    })
    expect(viaMeta.structuredContent).toEqual(first.structuredContent)
    const users = await app.call("GET", "/v1/users", { token: company.ownerKey })
    expect(users.body.data.filter((user: { name: string }) => user.name === "Mia")).toHaveLength(1)
  })

  it("passes query and path arguments to reads", async () => {
    const page = await owner.callTool({ name: "list_users", arguments: { limit: 1 } })
    expect(page.structuredContent).toMatchObject({ has_more: true })
    expect((page.structuredContent as { data: Array<unknown> }).data).toHaveLength(1)
    const me = await owner.callTool({ name: "get_me", arguments: {} })
    const keyId = (me.structuredContent as { key_id: number }).key_id
    const key = await owner.callTool({ name: "get_key", arguments: { id: keyId } })
    expect(key.structuredContent).toMatchObject({ id: keyId, status: "active" })
  })

  it("answers a refused call with isError and the API's error body", async () => {
    const missingKey = await owner.callTool({ name: "create_user", arguments: { name: "Ned", role: "staff" } })
    expect(missingKey.isError).toBe(true)
    expectErrorBody(missingKey.structuredContent, "idempotency_key_required")
    const overHttp = await app.call("POST", "/v1/users", { token: company.ownerKey, body: { name: "Ned", role: "staff" } })
    // The same refusal, worded for each caller: MCP names the argument, HTTP the header.
    const mcpError = (missingKey.structuredContent as { error: { type: string; message: string } }).error
    const httpError = (overHttp.body as { error: { type: string; message: string } }).error
    expect(mcpError.type).toBe(httpError.type)
    expect(mcpError.message).toContain("idempotency_key argument")
    expect(mcpError.message).not.toContain("Idempotency-Key")
    expect(httpError.message).toContain("Idempotency-Key")
    expect(missingKey._meta?.["dev.ledger/status"]).toBe(overHttp.status)

    const invalid = await owner.callTool({ name: "create_user", arguments: { name: "", role: "boss", idempotency_key: newKey() } })
    expect(invalid.isError).toBe(true)
    expectErrorBody(invalid.structuredContent, "invalid_request")

    const unknownTool = await owner.callTool({ name: "no_such_tool", arguments: {} })
    expect(unknownTool.isError).toBe(true)
    expectErrorBody(unknownTool.structuredContent, "not_found")
  })

  it("refuses a read key's write with insufficient_scope", async () => {
    const reader = await personWithKey(app, company.ownerKey, "accountant", ["read"])
    const client = await connectMcp(app, reader.key.secret)
    try {
      const result = await client.callTool({ name: "create_user", arguments: { name: "Ola", role: "staff", idempotency_key: newKey() } })
      expect(result.isError).toBe(true)
      expectErrorBody(result.structuredContent, "insufficient_scope")
    } finally {
      await client.close()
    }
  })

  it("carries an agent's _meta model and run id into the audit log", async () => {
    const { agent, key } = await agentWithKey(app, company.ownerKey, ["read", "propose"])
    const client = await connectMcp(app, key.secret)
    try {
      const refused = await client.callTool({ name: "rotate_key", arguments: { id: key.id, idempotency_key: newKey() } })
      expect(refused.isError).toBe(true)
      expectErrorBody(refused.structuredContent, "agent_model_required")

      const rotated = await client.callTool({
        name: "rotate_key",
        arguments: { id: key.id, overlap_seconds: 600, idempotency_key: newKey() },
        _meta: { "dev.ledger/model": "claude-test-4", "dev.ledger/run_id": "run-42" }
      })
      expect(rotated.isError, JSON.stringify(rotated.structuredContent)).toBeFalsy()
      expect(rotated.structuredContent).toMatchObject({ key: { agent_id: agent.id, rotated_from_key_id: key.id } })
    } finally {
      await client.close()
    }
    const events = await auditEvents(app, company.ownerKey)
    const write = events.find((event) => event.action === "rotateKey" && event.outcome === "ok" && event.key_id === key.id)
    expect(write).toMatchObject({ principal_type: "agent", agent_model: "claude-test-4", agent_run_id: "run-42", via: "mcp" })
    const refusal = events.find((event) => event.action === "rotateKey" && event.error_type === "agent_model_required")
    expect(refusal).toMatchObject({ outcome: "refused", principal_type: "agent", via: "mcp" })
  })

  it("refuses a call with no credential without reaching any operation", async () => {
    const client = await connectMcp(app, "")
    try {
      const result = await client.callTool({ name: "get_me", arguments: {} })
      expect(result.isError).toBe(true)
      expectErrorBody(result.structuredContent, "unauthorized")
    } finally {
      await client.close()
    }
  })
})

describe("MCP sized for agents", () => {
  const sizeOf = (listed: ReadonlyArray<unknown>) => Buffer.byteLength(JSON.stringify(listed))

  it("lists for each caller only what it can use, and prints the list's size for each", async () => {
    const reader = await agentWithKey(app, company.ownerKey, ["read"])
    const proposer = await agentWithKey(app, company.ownerKey, ["read", "propose"])
    const staff = await personWithKey(app, company.ownerKey, "staff")
    const sizes: Record<string, { tools: number; bytes: number }> = {}
    // Each with every tool it may use (`all`), or a toolset; the catalog's tools, discovery's set aside.
    const listFor = async (label: string, key: string, headers: Record<string, string> = {}) => {
      const client = await connectMcp(app, key, { ...allTools, ...headers })
      try {
        const listed = catalogTools((await client.listTools()).tools)
        sizes[label] = { tools: listed.length, bytes: sizeOf(listed) }
        return listed
      } finally {
        await client.close()
      }
    }
    const ownerTools = await listFor("owner", company.ownerKey)
    const readerTools = await listFor("read-only agent", reader.key.secret, { "x-agent-model": "test-model" })
    const proposerTools = await listFor("read-and-propose agent", proposer.key.secret, { "x-agent-model": "test-model" })
    await listFor("staff person", staff.key.secret)
    const booksOnly = await listFor("read-and-propose agent, books toolset", proposer.key.secret, { "x-agent-model": "test-model", "x-ledger-toolsets": "books" })
    console.log(`MCP tool lists by caller:\n${Object.entries(sizes).map(([label, size]) =>
      `  ${label.padEnd(40)} ${String(size.tools).padStart(4)} tools ${String(Math.round(size.bytes / 1024)).padStart(5)} KB`).join("\n")}`)

    // A read-only agent carries reads (and the rotation of its own key), a fraction of the owner's list.
    expect(readerTools.filter((tool) => tool.annotations?.readOnlyHint !== true).map((tool) => tool.name)).toEqual(["rotate_key"])
    expect(sizes["read-only agent"]!.bytes).toBeLessThan(sizes.owner!.bytes / 2)
    expect(proposerTools.map((tool) => tool.name)).not.toContain("create_key")
    expect(ownerTools.map((tool) => tool.name)).toContain("create_key")
    // No one's company key lists the operator's company creation.
    expect(ownerTools.map((tool) => tool.name)).not.toContain("create_company")
    // A toolset narrows further: the books are the ledger and its reports.
    const books = booksOnly.map((tool) => tool.name)
    expect(books).toContain("propose_journal_entry")
    expect(books).toContain("get_trial_balance")
    expect(books).not.toContain("list_invoices")
    expect(booksOnly.length).toBeLessThan(proposerTools.length)
  })

  it("takes toolsets from the MCP address too, and names the known ones when asked for an unknown one", async () => {
    const viaQuery = await app.fetch(new Request("http://ledger.test/mcp?toolsets=banking", {
      method: "POST",
      headers: { authorization: `Bearer ${company.ownerKey}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} })
    }))
    const listed = (await viaQuery.json()).result.tools.map((tool: { name: string }) => tool.name)
    expect(listed).toContain("import_statement")
    expect(listed).not.toContain("list_invoices")
    const unknown = await app.fetch(new Request("http://ledger.test/mcp?toolsets=bokks", {
      method: "POST",
      headers: { authorization: `Bearer ${company.ownerKey}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} })
    }))
    const error = (await unknown.json()).error
    expect(error.message).toMatch(/Unknown toolsets: bokks\. Known: all, .*books/)
  })

  it("tells clients how Ledger's tools fit together when they connect", () => {
    const instructions = owner.getInstructions() ?? ""
    expect(instructions).toMatch(/idempotency_key/)
    expect(instructions).toMatch(/dry_run/)
    expect(instructions).toMatch(/proposal/)
  })
})

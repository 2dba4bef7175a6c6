import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type Agent,
  agentModel,
  agentWithKey,
  agentWithThreshold,
  allTools,
  connectMcp,
  type McpTestApp,
  newKey,
  startMcpApp,
  type TestApp,
  type TestCompany
} from "../support/index.ts"

/**
 * Tool schemas sized and described for agents (issue 20 item 5): every input property says what it
 * is, every tool has an object output schema, and the official SDK client, which validates each
 * call's `structuredContent` against the tool's `outputSchema` once it has listed the tools, takes
 * reads, governed writes (posted, queued, previewed), file answers and refusals without complaint.
 */

let started: McpTestApp
let app: TestApp
let company: TestCompany
let owner: Client
let agent: Agent
let agentClient: Client
beforeAll(async () => {
  // The owner lists every tool (`all`); the agent its default list, which holds every tool it calls here.
  started = await startMcpApp("MCP Schemas Co", allTools)
  app = started.app
  company = started.company
  owner = started.owner
  agent = await agentWithThreshold(app, company, { thresholdCents: 5000, scopes: ["read", "propose"] })
  agentClient = await connectMcp(app, agent.key, { "x-agent-model": agentModel })
})
afterAll(async () => {
  await agentClient?.close()
  await started?.close()
})

type Schema = { type?: unknown; description?: unknown; properties?: Record<string, Schema>; anyOf?: Array<Schema>; $defs?: unknown }

const today = () => new Date().toISOString().slice(0, 10)
const lines = (cents: number) => [{ account: "6070", debit_cents: cents }, { account: "2100", credit_cents: cents }]

describe("MCP tool schemas", () => {
  it("describes every input property of every tool", async () => {
    const tools = (await owner.listTools()).tools
    expect(tools.length).toBeGreaterThan(100)
    const undescribed = tools.flatMap((tool) =>
      Object.entries((tool.inputSchema.properties ?? {}) as Record<string, Schema>)
        .filter(([, property]) => typeof property.description !== "string" || property.description.trim() === "")
        .map(([name]) => `${tool.name}.${name}`))
    const total = tools.reduce((sum, tool) => sum + Object.keys(tool.inputSchema.properties ?? {}).length, 0)
    console.log(`MCP input properties without a description: ${undescribed.length} of ${total}\n  ${undescribed.join("\n  ")}`)
    expect(undescribed).toEqual([])
  })

  it("gives every tool an object output schema: its success answers and the error body", async () => {
    const tools = (await owner.listTools()).tools
    for (const tool of tools) {
      const output = tool.outputSchema as Schema | undefined
      expect(output?.type, tool.name).toBe("object")
      // call_tool answers what the tool it calls answers: that tool's schema says which (describe_tool).
      if (tool.name === "call_tool") continue
      // The refusal is one alternative, beside at least one success answer.
      expect(output?.anyOf?.length ?? 0, tool.name).toBeGreaterThanOrEqual(2)
    }
    const byName = new Map(tools.map((tool) => [tool.name, tool.outputSchema as Schema]))
    // A governed write answers the entry (201), a queued proposal (202) or a preview (200).
    const governed = JSON.stringify(byName.get("propose_journal_entry"))
    expect(governed).toContain("pending_approval")
    expect(governed).toContain("A preview (200, dry_run)")
    // A report answers its data or a file's envelope.
    expect(byName.get("get_trial_balance")?.anyOf?.some((answer) => answer.properties?.filename !== undefined)).toBe(true)
  })

  it("answers reads, posted, queued and previewed writes, files and refusals as their output schemas say", async () => {
    // The client validates against the schemas of the tools it listed last.
    await agentClient.listTools()
    const me = await agentClient.callTool({ name: "get_me", arguments: {} })
    expect(me.isError).toBeFalsy()
    const accounts = await agentClient.callTool({ name: "list_accounts", arguments: { limit: 2 } })
    expect((accounts.structuredContent as { data: Array<unknown> }).data).toHaveLength(2)

    const preview = await agentClient.callTool({
      name: "propose_journal_entry",
      arguments: { entry_date: today(), memo: "Paper", lines: lines(4000), dry_run: true }
    })
    expect(preview._meta?.["dev.ledger/status"]).toBe(200)
    expect(preview.structuredContent).toMatchObject({ dry_run: true })
    const posted = await agentClient.callTool({
      name: "propose_journal_entry",
      arguments: { entry_date: today(), memo: "Paper", lines: lines(4000), idempotency_key: newKey() }
    })
    expect(posted._meta?.["dev.ledger/status"]).toBe(201)
    const queued = await agentClient.callTool({
      name: "propose_journal_entry",
      arguments: { entry_date: today(), memo: "Monitor", lines: lines(6000), idempotency_key: newKey() }
    })
    expect(queued._meta?.["dev.ledger/status"]).toBe(202)
    expect(queued.structuredContent).toMatchObject({ status: "pending_approval" })

    const report = await agentClient.callTool({ name: "get_trial_balance", arguments: {} })
    expect(report.isError).toBeFalsy()
    const csv = await agentClient.callTool({ name: "get_trial_balance", arguments: { format: "csv" } })
    expect(csv.isError).toBeFalsy()
    expect(csv.structuredContent).toHaveProperty("filename")

    const refused = await agentClient.callTool({
      name: "propose_journal_entry",
      arguments: { entry_date: today(), lines: lines(4000) }
    })
    expect(refused.isError).toBe(true)
    expect((refused.structuredContent as { error: { type: string } }).error.type).toBe("idempotency_key_required")
  })

  it("refuses a structured answer that does not match: the SDK's check is live", async () => {
    // A client validates with the schema it was given; a server answer outside it is an error.
    const schema = (await owner.listTools()).tools.find((tool) => tool.name === "get_me")!.outputSchema!
    const { AjvJsonSchemaValidator } = await import("@modelcontextprotocol/sdk/validation/ajv")
    const validator = new AjvJsonSchemaValidator()
    const validate = validator.getValidator(schema as unknown as Parameters<typeof validator.getValidator>[0])
    expect(validate({ principal_type: 42 }).valid).toBe(false)
    const me = await owner.callTool({ name: "get_me", arguments: {} })
    expect(validate(me.structuredContent).valid).toBe(true)
  })

  it("prints the list's size, the output schemas' share and the SDK client's listing time, for each caller", async () => {
    const reader = await agentWithKey(app, company.ownerKey, ["read"])
    const sizes: Array<string> = []
    for (const [label, key, headers] of [
      ["owner, all", company.ownerKey, allTools],
      ["owner, all, output_schemas=none", company.ownerKey, { ...allTools, "x-ledger-output-schemas": "none" }],
      ["owner, default", company.ownerKey, {}],
      ["read-only agent, all", reader.key.secret, { ...allTools, "x-agent-model": "test-model" }],
      ["read-and-propose agent, books toolset", agent.key, { "x-agent-model": "test-model", "x-ledger-toolsets": "books" }]
    ] as const) {
      const client = await connectMcp(app, key, headers)
      try {
        // The SDK client compiles every listed output schema here: the time is the server's
        // answer plus that, printed for the docs, never asserted (machines differ).
        const started = performance.now()
        const tools = (await client.listTools()).tools
        const elapsed = performance.now() - started
        const bytes = Buffer.byteLength(JSON.stringify(tools))
        const outputs = Buffer.byteLength(JSON.stringify(tools.map((tool) => tool.outputSchema ?? null)))
        sizes.push(`  ${label.padEnd(40)} ${String(tools.length).padStart(4)} tools ${String(Math.round(bytes / 1024)).padStart(5)} KB ` +
          `(output schemas ${String(Math.round(outputs / 1024)).padStart(3)} KB), listTools ${Math.round(elapsed)} ms`)
        expect(outputs).toBeLessThan(bytes)
        if (label.includes("none")) expect(tools.every((tool) => tool.outputSchema === undefined)).toBe(true)
      } finally {
        await client.close()
      }
    }
    console.log(`MCP tool lists with output schemas:\n${sizes.join("\n")}`)
  })
})

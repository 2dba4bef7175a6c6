import type { Tool } from "@modelcontextprotocol/sdk/types.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { allTools, type McpTestApp, startMcpApp } from "../support/index.ts"

/**
 * The `idempotency_key` input is on every write an owner lists (about 140 of them), so its
 * description is a few shared words (packages/server/src/mcp/Mcp.ts); the server's instructions,
 * sent once at initialization, explain the key in full.
 */

type Property = { readonly description?: string }

let started: McpTestApp
let tools: ReadonlyArray<Tool>
beforeAll(async () => {
  // Every write the owner may call, not the default list's few (ADR 2200).
  started = await startMcpApp("Idempotency Key Co", allTools)
  tools = (await started.owner.listTools()).tools
})
afterAll(async () => {
  await started?.close()
})

const keyOf = (tool: Tool): Property | undefined => (tool.inputSchema.properties as Record<string, Property> | undefined)?.idempotency_key

describe("MCP idempotency_key", () => {
  it("says the same few words on every write, and when dry_run makes it optional", () => {
    const keyed = tools.filter((tool) => keyOf(tool) !== undefined)
    expect(keyed.length).toBeGreaterThan(100)
    const wordings = new Set(keyed.map((tool) => keyOf(tool)!.description))
    // One wording, and the same with the dry_run note.
    expect(wordings.size).toBe(2)
    for (const wording of wordings) expect(wording?.length ?? 0).toBeLessThanOrEqual(80)
    const previewing = keyed.filter((tool) => "dry_run" in (tool.inputSchema.properties ?? {}))
    expect(previewing.length).toBeGreaterThan(0)
    for (const tool of previewing) expect(keyOf(tool)!.description, tool.name).toMatch(/dry_run/)
    for (const tool of keyed.filter((tool) => !previewing.includes(tool))) expect(keyOf(tool)!.description, tool.name).not.toMatch(/dry_run/)
  })

  it("is explained in full once, in the server's instructions", () => {
    expect(started.owner.getInstructions()).toMatch(/idempotency_key.*retry.*replayed/s)
  })
})

import type { Tool } from "@modelcontextprotocol/sdk/types.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { allTools, catalogTools, type McpTestApp, startMcpApp } from "../support/index.ts"

/**
 * How much an output schema spells out (packages/server/src/mcp/OutputSchema.ts, `trim`): sized
 * for agents, an answer's fields and its records' fields with their types, no deeper; no
 * `required` but the refusal's; no description of a shared scalar (a record id, a timestamp).
 */

type Json = Record<string, unknown>

let started: McpTestApp
let tools: ReadonlyArray<Tool>
beforeAll(async () => {
  // Every write the owner may call, not the default list's few (ADR 2200).
  started = await startMcpApp("Output Detail Co", allTools)
  // The catalog's tools, whose output schemas OutputSchema.ts derives; the discovery tools' are written by hand.
  tools = catalogTools((await started.owner.listTools()).tools)
})
afterAll(async () => {
  await started?.close()
})

const inline = (schema: Json): Json => {
  const defs = (schema.$defs ?? {}) as Record<string, Json>
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk)
    if (node === null || typeof node !== "object") return node
    const ref = (node as Json).$ref
    if (typeof ref === "string") return walk(defs[ref.replace("#/$defs/", "")])
    return Object.fromEntries(Object.entries(node as Json).filter(([key]) => key !== "$defs").map(([key, value]) => [key, walk(value)]))
  }
  return walk(schema) as Json
}

/** The deepest nesting of `properties` under a node, and every `required` and description met. */
const survey = (node: unknown, found: { depth: number; required: number; descriptions: Array<string> }, depth = 0) => {
  if (Array.isArray(node)) return node.forEach((item) => survey(item, found, depth))
  if (node === null || typeof node !== "object") return
  for (const [key, value] of Object.entries(node as Json)) {
    if (key === "properties") {
      found.depth = Math.max(found.depth, depth + 1)
      for (const child of Object.values(value as Json)) survey(child, found, depth + 1)
    } else if (key === "required") found.required++
    else if (key === "description" && typeof value === "string") found.descriptions.push(value)
    else survey(value, found, depth)
  }
}

describe("MCP output schemas, sized for agents", () => {
  it("spell out an answer's fields and its records' fields, and nothing that polices", () => {
    let deepest = 0
    expect(tools.length).toBeGreaterThan(100)
    for (const tool of tools) {
      const alternatives = inline(tool.outputSchema as Json).anyOf as Array<Json>
      expect(alternatives.at(-1), tool.name).toEqual({ type: "object", required: ["error"] })
      // An answer that is not an object is wrapped under `result` (none is today): one level more.
      const wrapped = alternatives.length === 2 && (alternatives[0]!.required as Array<string> | undefined)?.[0] === "result"
      const found = { depth: 0, required: 0, descriptions: [] as Array<string> }
      survey(alternatives.slice(0, -1), found)
      expect(found.depth, tool.name).toBeLessThanOrEqual(wrapped ? 3 : 2)
      expect(found.required, tool.name).toBe(wrapped ? 1 : 0)
      expect(found.descriptions.filter((text) => /^(A record id|An ISO 8601 timestamp)/.test(text)), tool.name).toEqual([])
      deepest = Math.max(deepest, found.depth)
    }
    // Records inside answers (a document's lines, a list's items) still list their fields.
    expect(deepest).toBe(2)
  })

  it("keep a document's lines with their fields and types", () => {
    const createInvoice = tools.find((tool) => tool.name === "create_invoice")!
    const alternatives = inline(createInvoice.outputSchema as Json).anyOf as Array<Json>
    const record = alternatives.find((answer) => (answer.properties as Json | undefined)?.kind !== undefined) as { properties: Record<string, Json> }
    expect(record.properties.lines).toMatchObject({ type: "array", items: { type: "object", properties: { amount_cents: { type: "integer" } } } })
    expect(record.properties.status).toMatchObject({ type: "string", enum: expect.arrayContaining(["open", "paid", "void"]) })
  })
})

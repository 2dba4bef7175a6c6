import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { allTools, connectMcp, type McpTestApp, startMcpApp, type TestApp, type TestCompany } from "../support/index.ts"

/**
 * The client's choice to list tools without their output schemas (issue 20 item 5):
 * `?output_schemas=none` on the MCP address or `X-Ledger-Output-Schemas: none`. The list shrinks
 * to the input schemas; every call answers exactly as it does for a client that has them.
 */

let started: McpTestApp
let app: TestApp
let company: TestCompany
let full: Client
let bare: Client
beforeAll(async () => {
  // Every tool the owner may use (`all`), with output schemas and without.
  started = await startMcpApp("Output Schemas Co", allTools)
  app = started.app
  company = started.company
  full = started.owner
  bare = await connectMcp(app, company.ownerKey, { ...allTools, "x-ledger-output-schemas": "none" })
})
afterAll(async () => {
  await bare?.close()
  await started?.close()
})

/** The app's fetch with a query string added to the MCP address. */
const withQuery = (query: string) => ({
  fetch: (request: Request) => app.fetch(new Request(`${request.url}?${query}`, request))
})

describe("MCP output schemas, on request", () => {
  it("lists the same tools without output schemas, by header or query string", async () => {
    const listed = (await full.listTools()).tools
    const without = (await bare.listTools()).tools
    expect(without.map((tool) => tool.name)).toEqual(listed.map((tool) => tool.name))
    expect(listed.every((tool) => tool.outputSchema !== undefined)).toBe(true)
    expect(without.every((tool) => tool.outputSchema === undefined)).toBe(true)
    expect(without.map(({ name, inputSchema }) => ({ name, inputSchema }))).toEqual(listed.map(({ name, inputSchema }) => ({ name, inputSchema })))

    const byQuery = await connectMcp(withQuery("output_schemas=none&toolsets=books"), company.ownerKey)
    try {
      const books = (await byQuery.listTools()).tools
      expect(books.length).toBeGreaterThan(0)
      expect(books.length).toBeLessThan(listed.length)
      expect(books.every((tool) => tool.outputSchema === undefined)).toBe(true)
    } finally {
      await byQuery.close()
    }
  })

  it("answers calls the same either way", async () => {
    await full.listTools()
    await bare.listTools()
    for (const [name, args] of [["list_accounts", { limit: 3 }], ["get_trial_balance", {}], ["get_journal_entry", { id: 999_999 }]] as const) {
      const [a, b] = await Promise.all([full.callTool({ name, arguments: args }), bare.callTool({ name, arguments: args })])
      expect(b, name).toEqual(a)
    }
  })

  it("refuses a value it does not know, rather than ignoring it", async () => {
    const typo = await connectMcp(app, company.ownerKey, { "x-ledger-output-schemas": "nope" })
    try {
      await expect(typo.listTools()).rejects.toThrow(/output_schemas/)
    } finally {
      await typo.close()
    }
  })
})

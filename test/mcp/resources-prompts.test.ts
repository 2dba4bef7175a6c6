import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { agentModel, agentWithKey, agentWithThreshold, connectMcp, makeTestApp, newKey, type TestApp, type TestCompany } from "../support/index.ts"

/**
 * Resources and prompts (issue 40 item 3, ADR 2201), with the official SDK client: the books an
 * agent reads rather than calls (chart of accounts, trial balance, periods, pending proposals),
 * each read through its tool, so scopes and company hold as for the call; and the common
 * workflows as prompts, each naming only tools that exist.
 */

let app: TestApp
let company: TestCompany
let owner: Client
beforeAll(async () => {
  app = await makeTestApp()
  company = await app.createCompany({ name: "Resources Co" })
  owner = await connectMcp(app, company.ownerKey)
}, 120_000)
afterAll(() => app.close())

const json = (result: { contents: ReadonlyArray<{ uri: string; mimeType?: string | undefined }> }) => {
  expect(result.contents).toHaveLength(1)
  expect(result.contents[0]!.mimeType).toBe("application/json")
  return JSON.parse(String((result.contents[0] as { text?: unknown }).text))
}

describe("MCP resources", () => {
  it("lists the four books resources and reads each as the tool answers it", async () => {
    const listed = await owner.listResources()
    expect(listed.resources.map((resource) => resource.uri)).toEqual([
      "ledger://books/chart-of-accounts", "ledger://books/trial-balance", "ledger://books/periods", "ledger://books/proposals/pending"
    ])
    const chart = json(await owner.readResource({ uri: "ledger://books/chart-of-accounts" }))
    const accounts = (await app.call("GET", "/v1/accounts?limit=1000", { token: company.ownerKey })).body
    expect(chart.data.map((account: { code: string }) => account.code)).toEqual(accounts.data.map((account: { code: string }) => account.code))
    expect(chart.data.length).toBeGreaterThan(10)
    const trial = json(await owner.readResource({ uri: "ledger://books/trial-balance" }))
    expect(trial.total_debit_cents).toBe(trial.total_credit_cents)
    const periods = json(await owner.readResource({ uri: "ledger://books/periods" }))
    expect(Array.isArray(periods.data)).toBe(true)
  })

  it("shows a read-only agent the proposals waiting for a person, through its own scopes", async () => {
    const proposer = await agentWithThreshold(app, company, { thresholdCents: 1_000 })
    const proposed = await app.call("POST", "/v1/journal-entries/propose", {
      token: proposer.key,
      key: newKey(),
      headers: proposer.headers,
      body: { entry_date: "2025-01-10", memo: "Waits for a person", lines: [{ account: "6070", debit_cents: 5_000 }, { account: "2100", credit_cents: 5_000 }] }
    })
    expect(proposed.status).toBe(202)
    const reader = await agentWithKey(app, company.ownerKey, ["read"])
    const client = await connectMcp(app, reader.key.secret, { "x-agent-model": agentModel })
    const pending = json(await client.readResource({ uri: "ledger://books/proposals/pending" }))
    expect(pending.data.map((proposal: { id: number }) => proposal.id)).toContain(proposed.body.proposal.id)
    expect(pending.data.every((proposal: { status: string }) => proposal.status === "pending")).toBe(true)
  })

  it("refuses a resource it does not have", async () => {
    await expect(owner.readResource({ uri: "ledger://books/payroll" })).rejects.toThrow(/No resource/u)
  })
})

describe("MCP prompts", () => {
  it("lists the common workflows, and each names only tools the server has", async () => {
    const listed = await owner.listPrompts()
    expect(listed.prompts.map((prompt) => prompt.name)).toEqual(["month_end_close", "reconcile_bank_account", "categorize_imported_lines", "chase_overdue_invoices"])
    const every = await connectMcp(app, company.ownerKey, { "x-ledger-toolsets": "all" })
    const tools = new Set((await every.listTools()).tools.map((tool) => tool.name))
    for (const prompt of listed.prompts) {
      const args = Object.fromEntries((prompt.arguments ?? []).map((argument) => [argument.name, "2025-01"]))
      const got = await owner.getPrompt({ name: prompt.name, arguments: args })
      const named = /Tools: ([a-z_, ]+)\./u.exec(got.description ?? "")![1]!.split(", ")
      expect(named.length, prompt.name).toBeGreaterThan(2)
      for (const tool of named) expect(tools.has(tool), `${prompt.name} names ${tool}`).toBe(true)
      const text = (got.messages[0]!.content as { text: string }).text
      // The steps name the tools they use.
      expect(named.filter((tool) => text.includes(tool)).length, prompt.name).toBeGreaterThanOrEqual(Math.ceil(named.length / 2))
    }
  })

  it("fills a prompt's arguments and refuses one without a required argument", async () => {
    const close = await owner.getPrompt({ name: "month_end_close", arguments: { month: "2025-03" } })
    expect((close.messages[0]!.content as { text: string }).text).toMatch(/^Close the month 2025-03/u)
    await expect(owner.getPrompt({ name: "month_end_close", arguments: {} })).rejects.toThrow(/needs: month/u)
    await expect(owner.getPrompt({ name: "no_such_prompt" })).rejects.toThrow(/No prompt/u)
  })
})

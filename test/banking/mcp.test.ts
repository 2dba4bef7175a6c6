import { readFileSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type BankingApp, makeBankingApp, repositoryFolder } from "./support.ts"

/**
 * The same month over MCP: an agent imports a statement, reads unmatched lines with their rule
 * suggestions, categorizes within its threshold and leaves a proposal for the rest; a person
 * approves it and reconciles the month to zero.
 */

let app: BankingApp
beforeAll(async () => {
  app = await makeBankingApp()
}, 120_000)
afterAll(async () => {
  await app?.close()
})

const connect = async (token: string, headers: Record<string, string> = {}) => {
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js")
  const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js")
  const client = new Client({ name: "banking-test", version: "1.0.0" })
  const transport = new StreamableHTTPClientTransport(new URL("http://ledger.test/mcp"), {
    requestInit: { headers: { authorization: `Bearer ${token}`, ...headers } },
    fetch: (input: string | URL | Request, init?: RequestInit) => app.fetch(new Request(input, init))
  })
  await client.connect(transport)
  return client
}

let keyCounter = 0
const key = () => `mcp-bank-${Date.now()}-${keyCounter++}`

const call = async (client: Awaited<ReturnType<typeof connect>>, name: string, args: Record<string, unknown>) => {
  const result = await client.callTool({ name, arguments: args })
  return { isError: result.isError === true, body: result.structuredContent as any }
}

describe("banking over MCP", () => {
  it("lists the banking tools", async () => {
    const company = await app.createCompany()
    const client = await connect(company.ownerKey, { "x-ledger-toolsets": "banking" })
    const tools = (await client.listTools()).tools.map((tool) => tool.name)
    for (const name of ["import_statement", "list_bank_lines", "categorize_bank_line", "match_bank_line", "auto_match_bank_lines",
      "start_reconciliation", "finish_reconciliation", "sync_bank_feed", "create_bank_rule"]) {
      expect(tools).toContain(name)
    }
    await client.close()
  })

  it("imports, suggests, categorizes within policy, queues the rest and reconciles", async () => {
    const company = await app.createCompany()
    const owner = await connect(company.ownerKey)
    const bank = await call(owner, "create_bank_account", { idempotency_key: key(), name: "Operating", kind: "checking", ledger_account: "1010" })
    expect(bank.isError).toBe(false)
    await call(owner, "create_bank_rule", { idempotency_key: key(), name: "Hancock", priority: 1, payee_contains: "Hancock", account: "6030" })

    const agentIdentity = await app.createAgent(company, 12_000)
    const agent = await connect(agentIdentity.key, { "x-agent-model": "mcp-test-model" })
    const imported = await call(agent, "import_statement", {
      idempotency_key: key(),
      id: bank.body.id,
      format: "ofx",
      content: readFileSync(`${repositoryFolder}test/fixtures/ofx/asgrim_ofxdata.ofx`, "utf8")
    })
    expect(imported.isError).toBe(false)
    expect(imported.body.lines_imported).toBe(3)

    const unmatched = await call(agent, "list_bank_lines", { bank_account_id: bank.body.id, status: "unmatched" })
    expect(unmatched.body.data).toHaveLength(3)
    const results = []
    for (const line of unmatched.body.data) {
      const account = line.suggestion?.account ?? (line.amount_cents > 0 ? "4900" : "6990")
      results.push(await call(agent, "categorize_bank_line", { idempotency_key: key(), id: line.id, account, confidence: 0.8 }))
    }
    // The agent may post up to 120.00: the 100.00 withdrawal posts; the 150.00 and 200.00 deposits wait for a person.
    const statuses = results.map((result) => result.body.status ?? "posted").sort()
    expect(statuses).toEqual(["categorized", "pending_approval", "pending_approval"])
    const refused = await call(agent, "categorize_bank_line", { id: unmatched.body.data[0].id, account: "6990" })
    expect(refused.isError).toBe(true)
    expect(refused.body.error.type).toBe("idempotency_key_required")

    for (const result of results.filter((item) => item.body.status === "pending_approval")) {
      const ownApproval = await call(agent, "approve_proposal", { idempotency_key: key(), id: result.body.proposal.id })
      expect(ownApproval.isError).toBe(true)
      const approved = await call(owner, "approve_proposal", { idempotency_key: key(), id: result.body.proposal.id })
      expect(approved.isError).toBe(false)
    }
    const categorized = await call(owner, "list_bank_lines", { bank_account_id: bank.body.id, status: "categorized" })
    expect(categorized.body.data).toHaveLength(3)

    const started = await call(owner, "start_reconciliation", {
      idempotency_key: key(),
      id: bank.body.id,
      statement_date: "2007-07-31",
      statement_ending_balance_cents: 25000,
      auto_clear: true
    })
    expect(started.body.difference_cents).toBe(0)
    const finished = await call(owner, "finish_reconciliation", { idempotency_key: key(), id: started.body.id })
    expect(finished.body.status).toBe("finished")
    const agentFinish = await call(agent, "undo_reconciliation", { idempotency_key: key(), id: started.body.id, reason: "no" })
    expect(agentFinish.isError).toBe(true)
    expect(agentFinish.body.error.type).toBe("insufficient_scope")
    await owner.close()
    await agent.close()
  })
})

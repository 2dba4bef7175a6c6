import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { agentModel, agentWithKey, connectMcp, newKey } from "../support/index.ts"
import { type AuthApp, connectedApp, makeAiApp, type Owner, ownerSignedIn } from "../support/ai-apps.ts"

/**
 * The default tool list (issue 40 item 1, ADR 2200): with no toolset named, every kind of caller
 * starts from at most 40 tools and 48 KB (output schemas included), the discovery tools among
 * them, chosen for its common work. Prints each kind's list and each toolset's, in bytes and in
 * estimated tokens (bytes / 4), and bounds them.
 */

const toolsMax = 40
const bytesMax = 48 * 1024
/** A whole area is bigger than the default but never the whole catalog: sales, the largest, is ~170 KB. */
const toolsetBytesMax = 220 * 1024
const discovery = ["list_toolsets", "describe_tool", "enable_toolset", "disable_toolset", "call_tool"]

let app: AuthApp
let owner: Owner
const kinds: Array<{ readonly label: string; readonly token: string; readonly headers: Record<string, string> }> = []
beforeAll(async () => {
  app = await makeAiApp()
  owner = await ownerSignedIn(app)
  const company = owner.company
  const reader = await agentWithKey(app, company.ownerKey, ["read"])
  const proposer = await agentWithKey(app, company.ownerKey, ["read", "propose"])
  const approver = await agentWithKey(app, company.ownerKey, ["read", "propose", "approve"])
  // A firm with full access to the company, a cpa and an agent of it, each with a key.
  const call = async (token: string, path: string, body: unknown) => {
    const answer = await app.call("POST", path, { token, key: newKey(), body })
    expect(answer.status, JSON.stringify(answer.body)).toBe(201)
    return answer.body
  }
  const firm = await call(app.operatorToken, "/v1/firms", { name: "Default List CPAs", admin_name: "Ada Admin" })
  await call(company.ownerKey, "/v1/firm-access", { firm_id: firm.firm.id, scopes: ["read", "propose", "approve", "admin"], billing: "client", reason: "Our accountants" })
  const member = await call(firm.secret, "/v1/firm/members", { name: "A cpa", role: "cpa" })
  const cpa = { key: (await call(firm.secret, "/v1/firm/keys", { principal_type: "member", member_id: member.id, scopes: member.scopes })).secret as string }
  const agentOfFirm = await call(firm.secret, "/v1/firm/agents", { name: "Categorizer", scopes: ["read", "propose"] })
  const firmAgent = { key: (await call(firm.secret, "/v1/firm/keys", { principal_type: "agent", firm_agent_id: agentOfFirm.id, scopes: ["read", "propose"] })).secret as string }
  const aiRead = await connectedApp(app, owner, "read")
  const aiSuggest = await connectedApp(app, owner, "suggest")
  const agent = { "x-agent-model": agentModel }
  kinds.push(
    { label: "owner key", token: company.ownerKey, headers: {} },
    { label: "agent key, read", token: reader.key.secret, headers: agent },
    { label: "agent key, read+propose", token: proposer.key.secret, headers: agent },
    { label: "agent key, read+propose+approve", token: approver.key.secret, headers: agent },
    { label: "firm member (cpa), no client named", token: cpa.key, headers: {} },
    { label: "firm member (cpa) in a client", token: cpa.key, headers: { "x-ledger-company": company.companyId } },
    { label: "firm agent in a client", token: firmAgent.key, headers: { ...agent, "x-ledger-company": company.companyId } },
    { label: "AI app, read level", token: aiRead.tokens.access_token, headers: agent },
    { label: "AI app, suggest level", token: aiSuggest.tokens.access_token, headers: agent }
  )
}, 240_000)
afterAll(() => app.close())

const listed = async (token: string, headers: Record<string, string>) => {
  const client: Client = await connectMcp(app, token, headers)
  try {
    return (await client.listTools()).tools
  } finally {
    await client.close()
  }
}

const size = (tools: ReadonlyArray<unknown>) => {
  const bytes = Buffer.byteLength(JSON.stringify(tools))
  return { bytes, tokens: Math.round(bytes / 4) }
}

const row = (label: string, tools: ReadonlyArray<unknown>) => {
  const { bytes, tokens } = size(tools)
  return `  ${label.padEnd(40)} ${String(tools.length).padStart(4)} tools ${String((bytes / 1024).toFixed(1)).padStart(7)} KB ~${String(tokens).padStart(7)} tokens`
}

describe("the default tool list", () => {
  it("is at most 40 tools and 48 KB for every kind of caller, discovery tools first, and prints each", async () => {
    const rows: Array<string> = []
    const byKind = new Map<string, ReadonlyArray<string>>()
    for (const kind of kinds) {
      const tools = await listed(kind.token, kind.headers)
      rows.push(row(kind.label, tools))
      expect(tools.length, kind.label).toBeLessThanOrEqual(toolsMax)
      expect(size(tools).bytes, kind.label).toBeLessThanOrEqual(bytesMax)
      expect(tools.slice(0, discovery.length).map((tool) => tool.name), kind.label).toEqual(discovery)
      expect(tools.every((tool) => tool.outputSchema !== undefined || tool.name === "call_tool"), kind.label).toBe(true)
      byKind.set(kind.label, tools.map((tool) => tool.name))
    }
    console.log(`Default MCP tool lists (no toolset named), output schemas included:\n${rows.join("\n")}`)

    // Chosen for the kind's work: reads for all; writes by level; approvals for people who may approve.
    const owner = byKind.get("owner key")!
    expect(owner).toEqual(expect.arrayContaining(["get_me", "list_accounts", "get_trial_balance", "list_bank_lines", "categorize_bank_line",
      "propose_journal_entry", "create_invoice", "list_proposals", "approve_proposal", "reject_proposal"]))
    const reader = byKind.get("agent key, read")!
    expect(reader).toEqual(expect.arrayContaining(["list_accounts", "get_trial_balance", "get_profit_and_loss", "get_balance_sheet", "list_bank_lines"]))
    expect(reader).not.toContain("propose_journal_entry")
    const proposer = byKind.get("agent key, read+propose")!
    expect(proposer).toEqual(expect.arrayContaining(["propose_journal_entry", "categorize_bank_line", "create_invoice"]))
    // Approving a proposal is a person's (people only), whatever the agent's scopes.
    expect(byKind.get("agent key, read+propose+approve")).not.toContain("approve_proposal")
    expect(byKind.get("AI app, read level")).not.toContain("propose_journal_entry")
    expect(byKind.get("AI app, suggest level")).toContain("propose_journal_entry")
    expect(byKind.get("firm member (cpa), no client named")).toEqual(expect.arrayContaining(["get_firm", "list_firm_clients", "list_accounts"]))
    expect(byKind.get("firm member (cpa) in a client")).toContain("approve_proposal")
  })

  it("prints and bounds each toolset, for the owner and for a read-only agent", async () => {
    const toolsets = ["default", "books", "administration", "ledger", "sales", "banking", "reports", "receipts", "profile", "tax", "taxforms",
      "payroll", "mileage", "estimated-taxes", "crypto", "integrations", "migrations", "webhooks", "ai-apps", "ai-consent", "online-payments", "billing"]
    const rows: Array<string> = []
    for (const kind of [kinds[0]!, kinds[1]!]) {
      for (const toolset of toolsets) {
        const tools = await listed(kind.token, { ...kind.headers, "x-ledger-toolsets": toolset })
        rows.push(row(`${kind.label}: ${toolset}`, tools))
        expect(size(tools).bytes, `${kind.label}: ${toolset}`).toBeLessThanOrEqual(toolset === "default" ? bytesMax : toolsetBytesMax)
        expect(tools.slice(0, discovery.length).map((tool) => tool.name)).toEqual(discovery)
      }
      const all = await listed(kind.token, { ...kind.headers, "x-ledger-toolsets": "all" })
      rows.push(row(`${kind.label}: all`, all))
    }
    console.log(`MCP tool lists by toolset, output schemas included:\n${rows.join("\n")}`)
  })
})

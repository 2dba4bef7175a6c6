import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { connectMcp, makeTestApp, newKey, type TestApp } from "../support/index.ts"
import { createFirm, expectStatus, firmAgentWithKey, firmCall, grantAccess, lines, memberWithKey, today } from "./support.ts"

let app: TestApp
beforeAll(async () => {
  app = await makeTestApp()
})
afterAll(() => app.close())

const structured = (result: any) => result.structuredContent ?? JSON.parse(result.content[0].text)

describe("firms over MCP", () => {
  it("a firm credential names its client in _meta dev.ledger/company; firm tools take none", async () => {
    const firm = await createFirm(app)
    const client = await app.createCompany({ name: "MCP Client" })
    const stranger = await app.createCompany({ name: "MCP Stranger" })
    await grantAccess(app, client, firm)
    const cpa = await memberWithKey(app, firm, "cpa")
    const agent = await firmAgentWithKey(app, firm)
    expectStatus(await firmCall(app, firm.adminKey, "POST", `/v1/firm/agents/${agent.id}/assign`, { body: { company_id: client.companyId, posting_threshold_cents: 1000 } }), 200)
    const mcp = await connectMcp(app, cpa.key)
    try {
      const firmInfo = await mcp.callTool({ name: "get_firm", arguments: {} })
      expect(firmInfo.isError ?? false).toBe(false)
      expect(structured(firmInfo).firm.id).toBe(firm.firmId)
      const company = await mcp.callTool({ name: "get_company", arguments: {}, _meta: { "dev.ledger/company": client.companyId } })
      expect(structured(company).company_id).toBe(client.companyId)
      const refused = await mcp.callTool({ name: "get_company", arguments: {}, _meta: { "dev.ledger/company": stranger.companyId } })
      expect(refused.isError).toBe(true)
      expect(structured(refused).error.type).toBe("not_found")
      const clients = await mcp.callTool({ name: "list_firm_clients", arguments: {} })
      expect(structured(clients).data.map((item: any) => item.company_id)).toEqual([client.companyId])
    } finally {
      await mcp.close()
    }
    const agentMcp = await connectMcp(app, agent.key, { "x-ledger-company": client.companyId })
    try {
      const queued = await agentMcp.callTool({
        name: "propose_journal_entry",
        arguments: { entry_date: today(), lines: lines("6070", "1010", 2000), idempotency_key: newKey() },
        _meta: { "dev.ledger/model": "test-model/1.0" }
      })
      expect(structured(queued).status).toBe("pending_approval")
    } finally {
      await agentMcp.close()
    }
    // A bookkeeper's entry waits for approval over MCP too; the cpa's posts (ADR 0903).
    const bookkeeper = await memberWithKey(app, firm, "bookkeeper")
    const propose = async (key: string) => {
      const session = await connectMcp(app, key)
      try {
        return structured(await session.callTool({
          name: "propose_journal_entry",
          arguments: { entry_date: today(), lines: lines("6070", "1010", 800), idempotency_key: newKey() },
          _meta: { "dev.ledger/company": client.companyId }
        }))
      } finally {
        await session.close()
      }
    }
    const byBookkeeper = await propose(bookkeeper.key)
    expect(byBookkeeper).toMatchObject({ status: "pending_approval", proposal: { created_by: { type: "firm_member", id: bookkeeper.id } } })
    const byCpa = await propose(cpa.key)
    expect(byCpa).toMatchObject({ posted_by: { type: "firm_member", id: cpa.id }, total_cents: 800 })
  })
})

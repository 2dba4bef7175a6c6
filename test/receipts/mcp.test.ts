import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { agentModel, agentWithThreshold, connectMcp } from "../support/index.ts"
import { type Company, makeReceiptsApp, png, type ReceiptsApp } from "./support.ts"

/** An agent's routine over MCP: upload a receipt, read it and its candidates, ask to post it (a proposal for a person). */

let app: ReceiptsApp
let company: Company
let counter = 0
const key = () => `mcp-receipt-${Date.now()}-${counter++}`

beforeAll(async () => {
  app = await makeReceiptsApp()
  company = await app.createCompany()
})
afterAll(() => app.close())

describe("receipts over MCP", () => {
  it("lets an agent upload and read receipts; its expense waits for a person", async () => {
    const agent = await agentWithThreshold(app.app, { ...company, body: {} }, { thresholdCents: 1_000_000 })
    const client = await connectMcp(app, agent.key, { "x-agent-model": agentModel, "x-ledger-toolsets": "receipts,profile" })
    const tools = (await client.listTools()).tools.map((tool) => tool.name)
    for (const name of ["upload_receipt", "get_receipt", "create_receipt_expense", "get_receipt_inbox", "get_company_profile"]) expect(tools).toContain(name)
    app.reader.answer({ vendor: "Paper Co", date: "2026-06-01", total_cents: 3300 })
    const uploaded = await client.callTool({
      name: "upload_receipt",
      arguments: { idempotency_key: key(), file_name: "paper.png", content_base64: Buffer.from(png(3, 3, 250)).toString("base64") }
    })
    expect(uploaded.isError).not.toBe(true)
    const receipt = uploaded.structuredContent as { id: number; total_cents: number; created: boolean }
    expect(receipt).toMatchObject({ total_cents: 3300, created: true })
    const read = await client.callTool({ name: "get_receipt", arguments: { id: receipt.id } })
    expect((read.structuredContent as { vendor: string }).vendor).toBe("Paper Co")
    const expense = await client.callTool({
      name: "create_receipt_expense",
      arguments: { idempotency_key: key(), id: receipt.id, payment_account: "1010", account: "6070" }
    })
    expect(expense.isError).not.toBe(true)
    expect(JSON.stringify(expense.structuredContent)).toContain("pending_approval")
    await client.close()
  })
})

import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeTestApp, newKey, type TestApp } from "../support/app.ts"
import { accountantOf, accountTotals, agentOf, connectMcp, salesCompany } from "./support.ts"

let app: TestApp
beforeAll(async () => {
  app = await makeTestApp()
})
afterAll(() => app.close())

const count = async (table: string, companyId: string) =>
  Number((await app.query<{ count: string }>(`SELECT count(*) AS count FROM ${table} WHERE company_id = $1`, [companyId]))[0]!.count)

describe("sales on the governed write path", () => {
  it("an agent's invoice over its threshold waits (202), posts nothing, and a person's approval posts it", async () => {
    const company = await salesCompany(app, "Governed Co")
    const agent = await agentOf(company, { threshold: 50_000 })
    const small = await company.post("/v1/invoices", { contact_id: company.customerId, doc_date: "2026-08-01", lines: [{ amount_cents: 40_000 }] }, agent.token, agent.headers)
    expect(small.status).toBe(201)
    expect(small.body.number).toBe("INV-0001")

    const entriesBefore = await count("journal_entries", company.companyId)
    const large = await company.post("/v1/invoices", {
      contact_id: company.customerId,
      doc_date: "2026-08-02",
      tax_rate_id: company.combinedRateId,
      lines: [{ description: "Annual retainer", amount_cents: 120_000, taxable: true }],
      confidence: 0.8
    }, agent.token, agent.headers)
    expect(large.status).toBe(202)
    expect(large.body).toMatchObject({ status: "pending_approval", proposal: { kind: "invoice", amount_cents: 129_900 } })
    expect(await count("journal_entries", company.companyId)).toBe(entriesBefore)
    expect(await count("documents", company.companyId)).toBe(1)
    expect((await company.get("/v1/documents?kind=invoice")).body.data).toHaveLength(1)

    // The number is taken when it posts, not when it was proposed: a person's invoice meanwhile gets INV-0002.
    const meanwhile = await company.post("/v1/invoices", { contact_id: company.customerId, doc_date: "2026-08-03", lines: [{ amount_cents: 1_000 }] })
    expect(meanwhile.body.number).toBe("INV-0002")

    const proposalId = large.body.proposal.id
    const selfApproval = await company.post(`/v1/proposals/${proposalId}/approve`, {}, agent.token, agent.headers)
    expect(selfApproval.status).toBe(403)
    const accountant = await accountantOf(company)
    const approved = await company.post(`/v1/proposals/${proposalId}/approve`, { reason: "Signed retainer" }, accountant.token)
    expect(approved.status).toBe(201)
    const invoices = (await company.get("/v1/documents?kind=invoice")).body.data
    expect(invoices).toHaveLength(3)
    const posted = invoices.find((invoice: any) => invoice.total_cents === 129_900)
    expect(posted).toMatchObject({ number: "INV-0003", status: "open" })
    expect(posted.tax_lines.map((line: any) => line.tax_cents)).toEqual([7_500, 1_800, 600])
    const entry = (await company.get(`/v1/journal-entries/${posted.entry_id}`)).body
    expect(entry).toMatchObject({ proposal_id: proposalId, total_cents: 129_900 })
  })

  it("a rejected payment proposal posts nothing; an approved one applies to the invoice", async () => {
    const company = await salesCompany(app, "Governed Pay Co")
    const agent = await agentOf(company, { threshold: 1_000 })
    const invoice = (await company.post("/v1/invoices", { contact_id: company.customerId, doc_date: "2026-08-01", lines: [{ amount_cents: 9_000 }] })).body
    const payment = { contact_id: company.customerId, payment_date: "2026-08-05", account: "1010", applications: [{ document_id: invoice.id, amount_cents: 9_000 }] }
    const first = await company.post("/v1/payments/received", payment, agent.token, agent.headers)
    expect(first.status).toBe(202)
    const accountant = await accountantOf(company)
    const rejected = await company.post(`/v1/proposals/${first.body.proposal.id}/reject`, { reason: "Not received yet" }, accountant.token)
    expect(rejected.status).toBe(200)
    expect((await company.get(`/v1/documents/${invoice.id}`)).body.status).toBe("open")
    const second = await company.post("/v1/payments/received", payment, agent.token, agent.headers)
    const approved = await company.post(`/v1/proposals/${second.body.proposal.id}/approve`, {}, accountant.token)
    expect(approved.status).toBe(201)
    expect((await company.get(`/v1/documents/${invoice.id}`)).body.status).toBe("paid")
    expect((await accountTotals(app, company.companyId)).get("1010")).toBe(9_000)
  })

  it("works the same over MCP: the queued invoice posts only on a person's approval", async () => {
    const company = await salesCompany(app, "MCP Sales Co")
    const agent = await agentOf(company, { threshold: 10_000 })
    const agentClient = await connectMcp(app, agent.token, agent.headers)
    const tools = (await agentClient.listTools()).tools.map((tool) => tool.name)
    for (const name of ["create_invoice", "receive_payment", "void_document", "email_document", "run_recurring_template", "get_ar_aging"]) {
      expect(tools).toContain(name)
    }
    const preview = await agentClient.callTool({
      name: "create_invoice",
      arguments: { contact_id: company.customerId, doc_date: "2026-08-10", lines: [{ amount_cents: 25_000 }], dry_run: true }
    })
    expect(preview.structuredContent).toMatchObject({ dry_run: true, verdict: "propose", number: "INV-0001" })
    const queued = await agentClient.callTool({
      name: "create_invoice",
      arguments: { contact_id: company.customerId, doc_date: "2026-08-10", lines: [{ amount_cents: 25_000 }], idempotency_key: newKey() }
    })
    expect(queued.isError).toBeFalsy()
    const proposal = (queued.structuredContent as any).proposal
    expect(proposal).toMatchObject({ kind: "invoice", amount_cents: 25_000 })
    expect(await count("documents", company.companyId)).toBe(0)

    const approverClient = await connectMcp(app, (await accountantOf(company)).token)
    const approved = await approverClient.callTool({ name: "approve_proposal", arguments: { id: proposal.id, idempotency_key: newKey() } })
    expect(approved.isError).toBeFalsy()
    const listed = await approverClient.callTool({ name: "list_documents", arguments: { kind: "invoice" } })
    expect((listed.structuredContent as any).data).toMatchObject([{ number: "INV-0001", total_cents: 25_000, status: "open" }])
    await agentClient.close()
    await approverClient.close()
  })
})

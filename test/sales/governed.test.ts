import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { accountTotals, connectMcp, makeTestApp, newKey, type TestApp } from "../support/index.ts"
import { accountantOf, agentOf, salesCompany } from "./support.ts"

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

  it("a payment from a bank line takes its account, date and amount; the line follows the payment", async () => {
    const company = await salesCompany(app, "Bank Line Co")
    const bank = await company.post("/v1/bank-accounts", { name: "Checking", kind: "checking", ledger_account: "1010" })
    expect(bank.status).toBe(201)
    const csv = "Date,Description,Amount\n2026-08-11,Deposit Acme,120.00\n2026-08-12,Deposit Acme,80.00\n2026-08-13,Paper Supply,-45.00\n"
    expect((await company.post(`/v1/bank-accounts/${bank.body.id}/imports`, { format: "csv", content: csv })).status).toBe(201)
    const lines = (await company.get(`/v1/bank-lines?bank_account_id=${bank.body.id}`)).body.data
    const deposit = lines.find((line: any) => line.amount_cents === 12_000)
    const second = lines.find((line: any) => line.amount_cents === 8_000)
    const withdrawal = lines.find((line: any) => line.amount_cents === -4_500)
    const invoice = (await company.post("/v1/invoices", { contact_id: company.customerId, doc_date: "2026-08-01", lines: [{ amount_cents: 12_000 }] })).body

    const wrongWay = await company.post("/v1/payments/received", { contact_id: company.customerId, bank_line_id: withdrawal.id })
    expect(wrongWay.status).toBe(422)
    const paid = await company.post("/v1/payments/received", {
      contact_id: company.customerId,
      bank_line_id: deposit.id,
      applications: [{ document_id: invoice.id, amount_cents: 12_000 }]
    })
    expect(paid.status).toBe(201)
    expect(paid.body).toMatchObject({ account: "1010", payment_date: "2026-08-11", amount_cents: 12_000, bank_line_id: deposit.id })
    const categorized = (await company.get(`/v1/bank-lines?bank_account_id=${bank.body.id}&status=categorized`)).body.data
    expect(categorized.map((line: any) => line.id)).toEqual([deposit.id])
    const twice = await company.post("/v1/payments/received", { contact_id: company.customerId, bank_line_id: deposit.id })
    expect(twice.status).toBe(409)

    // An agent's payment over its threshold holds the line as proposed; rejection frees it.
    const agent = await agentOf(company, { threshold: 1_000 })
    const queued = await company.post("/v1/payments/received", { contact_id: company.customerId, bank_line_id: second.id }, agent.token, agent.headers)
    expect(queued.status).toBe(202)
    expect((await company.get(`/v1/bank-lines?bank_account_id=${bank.body.id}&status=proposed`)).body.data.map((line: any) => line.id)).toEqual([second.id])
    const accountant = await accountantOf(company)
    await company.post(`/v1/proposals/${queued.body.proposal.id}/reject`, { reason: "Wrong customer" }, accountant.token)
    expect((await company.get(`/v1/bank-lines?bank_account_id=${bank.body.id}&status=unmatched`)).body.data.map((line: any) => line.id).sort())
      .toEqual([second.id, withdrawal.id].sort())

    // Voiding the payment returns its line to unmatched.
    const voided = await company.post(`/v1/payments/${paid.body.id}/void`, { reason: "Deposit was for another invoice", void_date: "2026-08-20" })
    expect(voided.status).toBe(200)
    expect((await company.get(`/v1/bank-lines?bank_account_id=${bank.body.id}&status=unmatched`)).body.data.map((line: any) => line.id))
      .toContain(deposit.id)
  })

  it("an agent's void over its threshold waits; approval voids the document", async () => {
    const company = await salesCompany(app, "Void Proposal Co")
    const agent = await agentOf(company, { threshold: 100, scopes: ["read", "propose", "approve"], name: "Closing agent" })
    const invoice = (await company.post("/v1/invoices", { contact_id: company.customerId, doc_date: "2026-08-01", lines: [{ amount_cents: 5_000 }] })).body
    const queued = await company.post(`/v1/documents/${invoice.id}/void`, { reason: "Customer cancelled" }, agent.token, agent.headers)
    expect(queued.status).toBe(202)
    expect(queued.body.proposal.kind).toBe("document_void")
    expect((await company.get(`/v1/documents/${invoice.id}`)).body.status).toBe("open")
    const accountant = await accountantOf(company)
    expect((await company.post(`/v1/proposals/${queued.body.proposal.id}/approve`, {}, accountant.token)).status).toBe(201)
    const voided = (await company.get(`/v1/documents/${invoice.id}`)).body
    expect(voided).toMatchObject({ status: "void", void_reason: "Customer cancelled" })
    expect((await accountTotals(app, company.companyId)).get("1100")).toBe(0)
  })

  it("works the same over MCP: the queued invoice posts only on a person's approval", async () => {
    const company = await salesCompany(app, "MCP Sales Co")
    const agent = await agentOf(company, { threshold: 10_000 })
    // The sales toolset, whose tools this test lists and calls (the default list is small, ADR 2200).
    const agentClient = await connectMcp(app, agent.token, { ...agent.headers, "x-ledger-toolsets": "sales" })
    const tools = (await agentClient.listTools()).tools.map((tool) => tool.name)
    for (const name of ["create_invoice", "receive_payment", "email_document", "run_recurring_template", "get_ar_aging"]) {
      expect(tools).toContain(name)
    }
    // Voiding needs the approve scope: not this read-and-propose agent's to carry.
    expect(tools).not.toContain("void_document")
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

/** Row counts of every table and the id sequence's position. */
const snapshot = async () => {
  const tables = await app.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`
  )
  const counts: Record<string, number> = {}
  for (const { table_name } of tables) {
    counts[table_name] = Number((await app.query<{ count: string }>(`SELECT count(*) AS count FROM "${table_name}"`))[0]!.count)
  }
  counts["sequence ledger_ids"] = Number((await app.query<{ last_value: string }>(`SELECT last_value FROM ledger_ids`))[0]!.last_value)
  const counters = await app.query<{ prefix: string; last_value: string }>(`SELECT prefix, last_value FROM number_counters ORDER BY company_id, prefix`)
  for (const counter of counters) counts[`counter ${counter.prefix}`] = (counts[`counter ${counter.prefix}`] ?? 0) + Number(counter.last_value)
  return counts
}

describe("sales dry runs", () => {
  it("write nothing and consume no number, whatever the operation", async () => {
    const company = await salesCompany(app, "Dry Run Co")
    const invoice = (await company.post("/v1/invoices", { contact_id: company.customerId, doc_date: "2026-03-01", lines: [{ amount_cents: 10_000 }] })).body
    const memo = (await company.post("/v1/credit-memos", { contact_id: company.customerId, doc_date: "2026-03-02", lines: [{ amount_cents: 1_000 }] })).body
    const payment = (await company.post("/v1/payments/received", { contact_id: company.customerId, payment_date: "2026-03-03", account: "1010", amount_cents: 2_000 })).body
    const estimate = (await company.post("/v1/estimates", { contact_id: company.customerId, estimate_date: "2026-03-01", lines: [{ amount_cents: 4_000 }] })).body
    const template = (await company.post("/v1/recurring-templates", {
      name: "Monthly",
      kind: "invoice",
      frequency: "monthly",
      start_date: "2026-01-15",
      request: { contact_id: company.customerId, lines: [{ amount_cents: 500 }] }
    })).body

    const before = await snapshot()
    const previews = [
      await company.post("/v1/invoices", { contact_id: company.customerId, doc_date: "2026-03-04", tax_rate_id: company.combinedRateId, lines: [{ amount_cents: 5_000 }], dry_run: true }),
      await company.post("/v1/bills", { contact_id: company.vendorId, doc_date: "2026-03-04", lines: [{ amount_cents: 5_000, account: "6070" }], dry_run: true }),
      await company.post("/v1/sales-receipts", { contact_id: company.customerId, doc_date: "2026-03-04", account: "1000", lines: [{ amount_cents: 5_000 }], dry_run: true }),
      await company.post("/v1/payments/received", { contact_id: company.customerId, account: "1010", applications: [{ document_id: invoice.id, amount_cents: 3_000 }], dry_run: true }),
      await company.post(`/v1/payments/${payment.id}/apply`, { applications: [{ document_id: invoice.id, amount_cents: 2_000 }], dry_run: true }),
      await company.post(`/v1/documents/${memo.id}/apply`, { applications: [{ document_id: invoice.id, amount_cents: 1_000 }], dry_run: true }),
      await company.post(`/v1/payments/${payment.id}/void`, { reason: "Preview", dry_run: true }),
      await company.post(`/v1/documents/${memo.id}/void`, { reason: "Preview", dry_run: true }),
      await company.post("/v1/estimates", { contact_id: company.customerId, estimate_date: "2026-03-05", lines: [{ amount_cents: 4_000 }], dry_run: true }),
      await company.post(`/v1/estimates/${estimate.id}/convert`, { dry_run: true }),
      await company.post(`/v1/documents/${invoice.id}/email`, { dry_run: true }),
      await company.post(`/v1/estimates/${estimate.id}/email`, { dry_run: true }),
      await company.post(`/v1/recurring-templates/${template.id}/run`, { through: "2026-06-30", dry_run: true }),
      await company.post("/v1/recurring/run", { through: "2026-06-30", dry_run: true })
    ]
    expect(previews.map((preview) => preview.status)).toEqual(previews.map(() => 200))
    expect(previews[0]!.body.number).toBe("INV-0002")
    expect(previews[0]!.body.balances.map((balance: any) => balance.account).sort()).toEqual(["1100", "2200", "4000"])
    expect(previews[12]!.body.occurrences).toHaveLength(6)
    expect(await snapshot()).toEqual(before)
  })
})

import { extractText, getDocumentProxy } from "unpdf"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { getFile, makeTestApp, type TestApp } from "../support/index.ts"
import { agentOf, salesCompany } from "./support.ts"

let app: TestApp
beforeAll(async () => {
  app = await makeTestApp()
})
afterAll(() => app.close())

const pdfText = async (base64: string) =>
  (await extractText(await getDocumentProxy(Uint8Array.from(Buffer.from(base64, "base64"))), { mergePages: true })).text

describe("estimates", () => {
  it("moves through its lifecycle and converts into an invoice through the governed path", async () => {
    const company = await salesCompany(app, "Estimate Co")
    const preview = await company.post("/v1/estimates", {
      contact_id: company.customerId,
      estimate_date: "2026-02-01",
      expiry_date: "2026-02-28",
      tax_rate_id: company.stateRateId,
      lines: [{ description: "Kitchen remodel", amount_cents: 800_000, taxable: true }],
      dry_run: true
    })
    expect(preview.status).toBe(200)
    expect(preview.body.number).toBe("EST-0001")
    const created = await company.post("/v1/estimates", {
      contact_id: company.customerId,
      estimate_date: "2026-02-01",
      expiry_date: "2026-02-28",
      tax_rate_id: company.stateRateId,
      lines: [{ description: "Kitchen remodel", amount_cents: 800_000, taxable: true }]
    })
    expect(created.status).toBe(201)
    const estimate = created.body
    expect(estimate).toMatchObject({ number: "EST-0001", status: "open", tax_cents: 50_000, total_cents: 850_000 })
    expect(await app.query(`SELECT 1 FROM journal_entries WHERE company_id = $1`, [company.companyId])).toHaveLength(0)

    const declined = await company.post(`/v1/estimates/${estimate.id}/status`, { status: "declined" })
    expect(declined.body.status).toBe("declined")
    const refused = await company.post(`/v1/estimates/${estimate.id}/convert`, {})
    expect(refused.body.error.type).toBe("invalid_transition")
    const voidWithoutReason = await company.post(`/v1/estimates/${estimate.id}/status`, { status: "void" })
    expect(voidWithoutReason.status).toBe(422)
    expect((await company.post(`/v1/estimates/${estimate.id}/status`, { status: "open" })).body.status).toBe("open")
    expect((await company.post(`/v1/estimates/${estimate.id}/status`, { status: "accepted" })).body.status).toBe("accepted")

    const pdf = await getFile(app.fetch, `/v1/estimates/${estimate.id}/pdf`, company.ownerKey)
    expect(pdf.contentType).toBe("application/pdf")
    expect(pdf.filename).toMatch(/\.pdf$/)
    const text = await pdfText(Buffer.from(pdf.bytes).toString("base64"))
    expect(text).toContain("ESTIMATE EST-0001")
    expect(text).toContain("Kitchen remodel")
    expect(text).toContain("8,500.00")

    const emailed = await company.post(`/v1/estimates/${estimate.id}/email`, { cc: ["owner@acme.test"] })
    expect(emailed.status).toBe(201)
    expect(emailed.body).toMatchObject({ kind: "estimate", status: "queued", to: "ap@acme.test", attachment: { filename: "EST-0001.pdf" } })

    // An agent over its threshold: queued; the estimate converts only when the invoice posts.
    const agent = await agentOf(company, { threshold: 100_000 })
    const queued = await company.post(`/v1/estimates/${estimate.id}/convert`, { doc_date: "2026-02-10" }, agent.token, agent.headers)
    expect(queued.status).toBe(202)
    expect((await company.get(`/v1/estimates/${estimate.id}`)).body.status).toBe("accepted")
    const converted = await company.post(`/v1/estimates/${estimate.id}/convert`, { doc_date: "2026-02-10" })
    expect(converted.status).toBe(201)
    expect(converted.body).toMatchObject({ kind: "invoice", total_cents: 850_000, estimate_id: estimate.id, reference: "EST-0001", due_date: "2026-03-12" })
    expect((await company.get(`/v1/estimates/${estimate.id}`)).body).toMatchObject({ status: "converted", invoice_id: converted.body.id })
    const twice = await company.post(`/v1/estimates/${estimate.id}/convert`, {})
    expect(twice.body.error.type).toBe("invalid_transition")
  })
})

describe("recurring templates", () => {
  it("generates month-end dates through the governed path, once per occurrence", async () => {
    const company = await salesCompany(app, "Recurring Co")
    const created = await company.post("/v1/recurring-templates", {
      name: "Monthly hosting",
      kind: "invoice",
      frequency: "monthly",
      start_date: "2024-01-31",
      end_date: "2024-06-30",
      request: { contact_id: company.customerId, terms_days: 10, lines: [{ description: "Hosting", amount_cents: 4_900 }] }
    })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ next_date: "2024-01-31", occurrences: [] })
    const template = created.body
    const dryRun = await company.post(`/v1/recurring-templates/${template.id}/run`, { through: "2024-04-15", dry_run: true })
    expect(dryRun.body.occurrences.map((occurrence: any) => [occurrence.occurrence_date, occurrence.status])).toEqual([
      ["2024-01-31", "would_post"],
      ["2024-02-29", "would_post"],
      ["2024-03-31", "would_post"]
    ])
    expect(await app.query(`SELECT 1 FROM documents WHERE company_id = $1`, [company.companyId])).toHaveLength(0)

    const run = await company.post(`/v1/recurring-templates/${template.id}/run`, { through: "2024-04-15" })
    expect(run.status).toBe(200)
    expect(run.body.occurrences.map((occurrence: any) => [occurrence.occurrence_date, occurrence.status, occurrence.number])).toEqual([
      ["2024-01-31", "posted", "INV-0001"],
      ["2024-02-29", "posted", "INV-0002"],
      ["2024-03-31", "posted", "INV-0003"]
    ])
    const again = await company.post(`/v1/recurring-templates/${template.id}/run`, { through: "2024-04-15" })
    expect(again.body.occurrences).toEqual([])
    const invoices = (await company.get(`/v1/documents?kind=invoice`)).body.data
    expect(invoices.map((invoice: any) => [invoice.doc_date, invoice.due_date, invoice.recurring_template_id])).toEqual([
      ["2024-03-31", "2024-04-10", template.id],
      ["2024-02-29", "2024-03-10", template.id],
      ["2024-01-31", "2024-02-10", template.id]
    ])

    // Paused templates generate nothing; the run-all operation catches up the rest to the end date.
    await company.post(`/v1/recurring-templates/${template.id}/update`, { active: false, reason: "Customer on holiday" })
    expect((await company.post("/v1/recurring/run", { through: "2024-12-31" })).body.results).toEqual([])
    await company.post(`/v1/recurring-templates/${template.id}/update`, { active: true })
    const all = await company.post("/v1/recurring/run", { through: "2024-12-31" })
    expect(all.body.results[0].occurrences.map((occurrence: any) => occurrence.occurrence_date)).toEqual(["2024-04-30", "2024-05-31", "2024-06-30"])
    const detail = (await company.get(`/v1/recurring-templates/${template.id}`)).body
    expect(detail.occurrences).toHaveLength(6)
    expect(detail.next_date).toBeNull()
  })

  it("an agent's occurrences over its threshold wait as proposals and are not generated twice", async () => {
    const company = await salesCompany(app, "Recurring Agent Co")
    const agent = await agentOf(company, { threshold: 1_000 })
    const template = (await company.post("/v1/recurring-templates", {
      name: "Quarterly rent",
      kind: "bill",
      frequency: "quarterly",
      start_date: "2024-11-30",
      request: { contact_id: company.vendorId, lines: [{ description: "Rent", amount_cents: 150_000, account: "6080" }] }
    })).body
    const run = await company.post(`/v1/recurring-templates/${template.id}/run`, { through: "2025-06-01" }, agent.token, agent.headers)
    expect(run.body.occurrences.map((occurrence: any) => [occurrence.occurrence_date, occurrence.status])).toEqual([
      ["2024-11-30", "pending_approval"],
      ["2025-02-28", "pending_approval"],
      ["2025-05-30", "pending_approval"]
    ])
    const again = await company.post(`/v1/recurring-templates/${template.id}/run`, { through: "2025-06-01" }, agent.token, agent.headers)
    expect(again.body.occurrences).toEqual([])
    expect(await app.query(`SELECT 1 FROM documents WHERE company_id = $1`, [company.companyId])).toHaveLength(0)
  })
})

describe("aging", () => {
  it("buckets open invoices by days past due and agrees with the customers' balances", async () => {
    const company = await salesCompany(app, "Aging Co")
    await company.post("/v1/invoices", { contact_id: company.customerId, doc_date: "2026-03-31", terms_days: 0, lines: [{ amount_cents: 100 }] })
    await company.post("/v1/invoices", { contact_id: company.customerId, doc_date: "2026-03-15", terms_days: 0, lines: [{ amount_cents: 200 }] })
    await company.post("/v1/invoices", { contact_id: company.customerId, doc_date: "2026-02-15", terms_days: 0, lines: [{ amount_cents: 400 }] })
    await company.post("/v1/invoices", { contact_id: company.customerId, doc_date: "2026-01-15", terms_days: 0, lines: [{ amount_cents: 800 }] })
    await company.post("/v1/invoices", { contact_id: company.customerId, doc_date: "2025-11-15", terms_days: 0, lines: [{ amount_cents: 1_600 }] })
    await company.post("/v1/bills", { contact_id: company.vendorId, doc_date: "2026-03-01", terms_days: 15, lines: [{ amount_cents: 3_000, account: "6070" }] })
    await company.post("/v1/payments/received", { contact_id: company.customerId, payment_date: "2026-03-31", account: "1010", amount_cents: 50 })

    const ar = (await company.get("/v1/reports/ar-aging?as_of=2026-03-31")).body
    expect(ar.totals).toEqual({
      current_cents: 100,
      days_1_30_cents: 200,
      days_31_60_cents: 400,
      days_61_90_cents: 800,
      over_90_cents: 1_600,
      total_cents: 3_100
    })
    expect(ar.rows).toMatchObject([{ contact_id: company.customerId, name: "Acme Ltd", total_cents: 3_100, unapplied_credit_cents: 50 }])
    const contact = (await company.get(`/v1/contacts/${company.customerId}?as_of=2026-03-31`)).body
    expect(contact.open_balance_cents).toBe(ar.totals.total_cents - ar.rows[0].unapplied_credit_cents)
    expect(contact.overdue_balance_cents).toBe(ar.totals.total_cents - ar.totals.current_cents)

    const ap = (await company.get("/v1/reports/ap-aging?as_of=2026-03-31")).body
    expect(ap.totals).toMatchObject({ days_1_30_cents: 3_000, total_cents: 3_000 })
    const earlier = (await company.get("/v1/reports/ar-aging?as_of=2026-01-31")).body
    expect(earlier.totals.total_cents).toBe(2_400)
    const csv = await getFile(app.fetch, "/v1/reports/ar-aging?as_of=2026-03-31&format=csv", company.ownerKey)
    expect(csv.contentType).toBe("text/csv; charset=utf-8")
    expect(csv.text.split("\r\n")[1]).toBe(`${company.customerId},Acme Ltd,1.00,2.00,4.00,8.00,16.00,31.00,0.50`)
  })
})

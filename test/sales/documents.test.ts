import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { accountTotals, makeTestApp, subscribeToEvents, type TestApp, trialBalanceDifference } from "../support/index.ts"
import { salesCompany } from "./support.ts"

let app: TestApp
beforeAll(async () => {
  app = await makeTestApp()
})
afterAll(() => app.close())

const threeLines = [
  { description: "Design", quantity: "10", unit_price_cents: 9_950, taxable: true },
  { description: "Printing", quantity: "3.5", unit_price_cents: 1_233, taxable: true },
  { description: "Delivery", amount_cents: 2_500, taxable: false }
]

describe("invoices, payments and credits", () => {
  it("posts one tax line per jurisdiction, each rounded on its own, and AR equals the total", async () => {
    const company = await salesCompany(app)
    await subscribeToEvents(app, company)
    const created = await company.post("/v1/invoices", {
      contact_id: company.customerId,
      doc_date: "2026-03-01",
      tax_rate_id: company.combinedRateId,
      lines: threeLines
    })
    expect(created.status).toBe(201)
    const invoice = created.body
    // 10 x 99.50 = 995.00; 3.5 x 12.33 = 43.155 -> 43.16; taxable subtotal 1038.16
    expect(invoice.lines.map((line: any) => line.amount_cents)).toEqual([99_500, 4_316, 2_500])
    expect(invoice.tax_lines.map((line: any) => [line.name, line.tax_cents])).toEqual([
      ["State", 6_489], // 103816 x 6.25% = 6488.5 -> 6489
      ["County", 1_557], // 103816 x 1.5% = 1557.24 -> 1557
      ["City", 519] // 103816 x 0.5% = 519.08 -> 519
    ])
    expect(invoice.total_cents).toBe(106_316 + 6_489 + 1_557 + 519)
    expect(invoice.number).toMatch(/^INV-\d{4}$/)
    expect(invoice.due_date).toBe("2026-03-31")
    expect(invoice.status).toBe("open")

    const entry = await company.get(`/v1/journal-entries/${invoice.entry_id}`)
    expect(entry.status).toBe(200)
    const ar = entry.body.lines.filter((line: any) => line.account === "1100")
    expect(ar).toHaveLength(1)
    expect(ar[0].debit_cents).toBe(invoice.total_cents)
    expect(entry.body.lines.filter((line: any) => line.account === "2200").map((line: any) => line.credit_cents)).toEqual([6_489, 1_557, 519])
    expect(await trialBalanceDifference(app, company.companyId)).toBe(0)

    // A partial payment makes it partial, the rest paid.
    const first = await company.post("/v1/payments/received", {
      contact_id: company.customerId,
      payment_date: "2026-03-10",
      account: "1010",
      amount_cents: 50_000,
      applications: [{ document_id: invoice.id, amount_cents: 50_000 }]
    })
    expect(first.status).toBe(201)
    expect((await company.get(`/v1/documents/${invoice.id}`)).body).toMatchObject({ status: "partial", open_balance_cents: invoice.total_cents - 50_000 })
    const rest = invoice.total_cents - 50_000
    const second = await company.post("/v1/payments/received", {
      contact_id: company.customerId,
      payment_date: "2026-03-20",
      account: "1010",
      amount_cents: rest + 1_000,
      applications: [{ document_id: invoice.id, amount_cents: rest }]
    })
    expect(second.status).toBe(201)
    expect(second.body.unapplied_cents).toBe(1_000)
    const paid = (await company.get(`/v1/documents/${invoice.id}`)).body
    expect(paid).toMatchObject({ status: "paid", open_balance_cents: 0 })
    const contact = (await company.get(`/v1/contacts/${company.customerId}`)).body
    expect(contact.open_balance_cents).toBe(-1_000)
    expect(contact.unapplied_credit_cents).toBe(1_000)
    const events = await app.query<{ event_type: string }>(`SELECT event_type FROM outbox_events WHERE company_id = $1 ORDER BY id`, [company.companyId])
    expect(events.map((event) => event.event_type)).toEqual(expect.arrayContaining(["invoice.created", "payment.received", "invoice.paid"]))
  })

  it("applies a credit memo to another open invoice of the same customer", async () => {
    const company = await salesCompany(app, "Credit Co")
    const invoice = (await company.post("/v1/invoices", { contact_id: company.customerId, doc_date: "2026-04-01", lines: [{ amount_cents: 20_000 }] })).body
    const memo = await company.post("/v1/credit-memos", { contact_id: company.customerId, doc_date: "2026-04-05", lines: [{ amount_cents: 5_000, description: "Goodwill" }] })
    expect(memo.status).toBe(201)
    expect(memo.body.number).toMatch(/^CM-/)
    const over = await company.post(`/v1/documents/${memo.body.id}/apply`, { applications: [{ document_id: invoice.id, amount_cents: 6_000 }] })
    expect(over.status).toBe(422)
    const applied = await company.post(`/v1/documents/${memo.body.id}/apply`, { applications: [{ document_id: invoice.id, amount_cents: 5_000 }], applied_on: "2026-04-05" })
    expect(applied.status).toBe(200)
    expect(applied.body.status).toBe("applied")
    expect((await company.get(`/v1/documents/${invoice.id}`)).body).toMatchObject({ status: "partial", open_balance_cents: 15_000 })
    const unpaid = await company.get(`/v1/documents?status=unpaid&contact_id=${company.customerId}`)
    expect(unpaid.body.data.map((document: any) => document.id)).toEqual([invoice.id])
  })

  it("refuses to void an invoice with a payment; voiding the payment then the invoice returns everything to zero", async () => {
    const company = await salesCompany(app, "Void Co")
    const invoice = (await company.post("/v1/invoices", {
      contact_id: company.customerId,
      doc_date: "2026-05-01",
      tax_rate_id: company.combinedRateId,
      lines: threeLines
    })).body
    const payment = (await company.post("/v1/payments/received", {
      contact_id: company.customerId,
      payment_date: "2026-05-02",
      account: "1010",
      applications: [{ document_id: invoice.id, amount_cents: 10_000 }]
    })).body
    const refused = await company.post(`/v1/documents/${invoice.id}/void`, { reason: "Entered twice" })
    expect(refused.status).toBe(409)
    expect(refused.body.error.type).toBe("document_has_applications")
    const noReason = await company.post(`/v1/documents/${invoice.id}/void`, {})
    expect(noReason.status).toBe(400)

    const voidedPayment = await company.post(`/v1/payments/${payment.id}/void`, { reason: "Bounced", void_date: "2026-05-03" })
    expect(voidedPayment.status).toBe(200)
    expect(voidedPayment.body.status).toBe("void")
    const voided = await company.post(`/v1/documents/${invoice.id}/void`, { reason: "Entered twice", void_date: "2026-05-03" })
    expect(voided.status).toBe(200)
    expect(voided.body.status).toBe("void")
    const again = await company.post(`/v1/documents/${invoice.id}/void`, { reason: "Again" })
    expect(again.body.error.type).toBe("already_void")

    for (const [code, total] of await accountTotals(app, company.companyId)) expect([code, total]).toEqual([code, 0])
    const contact = (await company.get(`/v1/contacts/${company.customerId}`)).body
    expect(contact).toMatchObject({ open_balance_cents: 0, overdue_balance_cents: 0, unapplied_credit_cents: 0 })
    const reversal = await company.get(`/v1/journal-entries/${voided.body.void_entry_id}`)
    expect(reversal.body.entry_date).toBe("2026-05-03")
  })

  it("previews a dry run with the number it would take, consuming nothing", async () => {
    const company = await salesCompany(app, "Dry Co")
    const preview = await company.post("/v1/invoices", { contact_id: company.customerId, doc_date: "2026-06-01", lines: [{ amount_cents: 1_000 }], dry_run: true })
    expect(preview.status).toBe(200)
    expect(preview.body).toMatchObject({ dry_run: true, verdict: "post", number: "INV-0001" })
    expect(preview.body.entry.lines).toHaveLength(2)
    const again = await company.post("/v1/invoices", { contact_id: company.customerId, doc_date: "2026-06-01", lines: [{ amount_cents: 1_000 }], dry_run: true })
    expect(again.body.number).toBe("INV-0001")
    const real = await company.post("/v1/invoices", { contact_id: company.customerId, doc_date: "2026-06-01", lines: [{ amount_cents: 1_000 }] })
    expect(real.body.number).toBe("INV-0001")
    const next = await company.post("/v1/invoices", { contact_id: company.customerId, doc_date: "2026-06-01", lines: [{ amount_cents: 1_000 }] })
    expect(next.body.number).toBe("INV-0002")
    const taken = await company.post("/v1/invoices", { contact_id: company.customerId, number: "INV-0002", doc_date: "2026-06-01", lines: [{ amount_cents: 1_000 }] })
    expect(taken.status).toBe(409)
    expect(taken.body.error.type).toBe("number_in_use")
    const beyond = await company.post("/v1/invoices", { contact_id: company.customerId, doc_date: "9999-12-01", terms_days: 3650, lines: [{ amount_cents: 1_000 }] })
    expect(beyond.status).toBe(422)
    const huge = await company.post("/v1/invoices", {
      contact_id: company.customerId,
      doc_date: "2026-06-02",
      lines: [{ quantity: "999999999999", unit_price_cents: 1_000_000_000_000_000 }]
    })
    expect(huge.status).toBe(422)
    const hugeTotal = await company.post("/v1/invoices", {
      contact_id: company.customerId,
      doc_date: "2026-06-02",
      lines: Array.from({ length: 3 }, () => ({ amount_cents: 1_000_000_000_000_000 }))
    })
    expect(hugeTotal.status).toBe(422)
  })

  it("emits the bill and payment events, and the void events", async () => {
    const company = await salesCompany(app, "Events Co")
    await subscribeToEvents(app, company)
    const bill = (await company.post("/v1/bills", { contact_id: company.vendorId, doc_date: "2026-06-10", lines: [{ amount_cents: 3_000, account: "6070" }] })).body
    expect(bill).toMatchObject({ number: "BILL-0001", due_date: "2026-06-25", control_account: "2000" })
    const paid = await company.post("/v1/payments/made", { contact_id: company.vendorId, payment_date: "2026-06-11", account: "1010", applications: [{ document_id: bill.id, amount_cents: 3_000 }] })
    expect(paid.status).toBe(201)
    const other = (await company.post("/v1/bills", { contact_id: company.vendorId, doc_date: "2026-06-12", lines: [{ amount_cents: 700, account: "6070" }] })).body
    await company.post(`/v1/documents/${other.id}/void`, { reason: "Duplicate bill" })
    const invoice = (await company.post("/v1/invoices", { contact_id: company.customerId, doc_date: "2026-06-12", lines: [{ amount_cents: 700 }] })).body
    await company.post(`/v1/documents/${invoice.id}/void`, { reason: "Wrong customer" })
    const events = await app.query<{ event_type: string; payload: any }>(`SELECT event_type, payload FROM outbox_events WHERE company_id = $1 ORDER BY id`, [company.companyId])
    const types = events.map((event) => event.event_type)
    for (const type of ["bill.created", "payment.made", "bill.paid", "bill.voided", "invoice.created", "invoice.voided"]) expect(types).toContain(type)
    const billPaid = events.find((event) => event.event_type === "bill.paid")!
    expect(typeof billPaid.payload === "string" ? JSON.parse(billPaid.payload) : billPaid.payload).toMatchObject({ document_id: bill.id, payment_id: paid.body.id })
  })
})

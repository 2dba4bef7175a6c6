import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeTestApp, subscribeToEvents, type TestApp } from "../../support/index.ts"
import { accountantOf, agentOf, salesCompany, type SalesCompany } from "../support.ts"

/**
 * Every entry a sales document or a payment posts names it as its source (`source.kind` and
 * `source.id`), in the journal and in the `entry.posted` event, whichever path posted it: a
 * person, an agent within policy, an approved proposal, an estimate, a recurring template, a void.
 */

let app: TestApp
beforeAll(async () => {
  app = await makeTestApp()
})
afterAll(() => app.close())

/** The entry and its `entry.posted` event (the webhook event feed) both name `kind` and `id`. */
const expectSource = async (company: SalesCompany, entryId: number, kind: string, id: number) => {
  expect(typeof id).toBe("number")
  const entry = (await company.get(`/v1/journal-entries/${entryId}`)).body
  expect(entry.source, `entry ${entryId}`).toEqual({ kind, id })
  const feed = (await company.get("/v1/webhook-events?type=entry.posted&limit=100")).body.data
  const event = feed.find((candidate: any) => candidate.data.entry_id === entryId)
  expect(event, `entry.posted of ${entryId}`).toBeDefined()
  expect(event.data.source).toEqual({ kind, id })
}

/** A sales company with an endpoint that wants `entry.posted`: events exist only when one does. */
const sourceCompany = async (name: string) => {
  const company = await salesCompany(app, name)
  await subscribeToEvents(app, company, ["entry.posted"])
  return company
}

const sequence = async () => Number((await app.query<{ last_value: string }>(`SELECT last_value FROM ledger_ids`))[0]!.last_value)

const documentRequests = (company: SalesCompany) => {
  const sales = { contact_id: company.customerId, doc_date: "2026-04-01", lines: [{ amount_cents: 2_000 }] }
  const purchases = { contact_id: company.vendorId, doc_date: "2026-04-01", lines: [{ amount_cents: 2_000, account: "6070" }] }
  return [
    ["/v1/invoices", "invoice", sales],
    ["/v1/credit-memos", "credit_memo", sales],
    ["/v1/bills", "bill", purchases],
    ["/v1/vendor-credits", "vendor_credit", purchases],
    ["/v1/sales-receipts", "sales_receipt", { ...sales, account: "1000" }],
    ["/v1/refunds", "refund", { ...sales, account: "1000" }],
    ["/v1/vendor-refunds", "vendor_refund", { ...purchases, account: "1010" }]
  ] as const
}

describe("the source of a sales entry", () => {
  it("names the document a person posts, of each kind, and its void names it too", async () => {
    const company = await sourceCompany("Source Co")
    for (const [path, kind, body] of documentRequests(company)) {
      const created = await company.post(path, body)
      expect(created.status, path).toBe(201)
      expect(created.body.kind).toBe(kind)
      await expectSource(company, created.body.entry_id, kind, created.body.id)
    }
    const invoice = (await company.post("/v1/invoices", { contact_id: company.customerId, doc_date: "2026-04-02", lines: [{ amount_cents: 700 }] })).body
    const voided = await company.post(`/v1/documents/${invoice.id}/void`, { reason: "Entered twice", void_date: "2026-04-03" })
    expect(voided.status).toBe(200)
    await expectSource(company, voided.body.void_entry_id, "document_void", invoice.id)
  })

  it("names the payment received or made, and the payment's void", async () => {
    const company = await sourceCompany("Source Pay Co")
    const invoice = (await company.post("/v1/invoices", { contact_id: company.customerId, doc_date: "2026-04-01", lines: [{ amount_cents: 5_000 }] })).body
    const received = await company.post("/v1/payments/received", {
      contact_id: company.customerId,
      payment_date: "2026-04-05",
      account: "1010",
      applications: [{ document_id: invoice.id, amount_cents: 5_000 }]
    })
    expect(received.status).toBe(201)
    await expectSource(company, received.body.entry_id, "payment_received", received.body.id)
    const made = await company.post("/v1/payments/made", { contact_id: company.vendorId, payment_date: "2026-04-05", account: "1010", amount_cents: 1_200 })
    expect(made.status).toBe(201)
    await expectSource(company, made.body.entry_id, "payment_made", made.body.id)
    const voided = await company.post(`/v1/payments/${received.body.id}/void`, { reason: "Bounced", void_date: "2026-04-06" })
    expect(voided.status).toBe(200)
    await expectSource(company, voided.body.void_entry_id, "payment_void", received.body.id)
  })

  it("names the document and payment of an agent within policy, and of an approved proposal", async () => {
    const company = await sourceCompany("Source Agent Co")
    const agent = await agentOf(company, { threshold: 10_000 })
    const accountant = await accountantOf(company)
    const within = await company.post("/v1/bills", { contact_id: company.vendorId, doc_date: "2026-04-01", lines: [{ amount_cents: 900, account: "6070" }] }, agent.token, agent.headers)
    expect(within.status).toBe(201)
    await expectSource(company, within.body.entry_id, "bill", within.body.id)

    const queued = await company.post("/v1/invoices", { contact_id: company.customerId, doc_date: "2026-04-02", lines: [{ amount_cents: 50_000 }] }, agent.token, agent.headers)
    expect(queued.status).toBe(202)
    const approved = await company.post(`/v1/proposals/${queued.body.proposal.id}/approve`, {}, accountant.token)
    expect(approved.status).toBe(201)
    expect(approved.body.result.entry_id).toBe(approved.body.entry_id)
    await expectSource(company, approved.body.entry_id, "invoice", approved.body.result.id)
    expect((await company.get(`/v1/documents/${approved.body.result.id}`)).body.entry_id).toBe(approved.body.entry_id)

    const payment = await company.post("/v1/payments/received", {
      contact_id: company.customerId,
      payment_date: "2026-04-03",
      account: "1010",
      applications: [{ document_id: approved.body.result.id, amount_cents: 50_000 }]
    }, agent.token, agent.headers)
    expect(payment.status).toBe(202)
    const paid = await company.post(`/v1/proposals/${payment.body.proposal.id}/approve`, {}, accountant.token)
    expect(paid.status).toBe(201)
    await expectSource(company, paid.body.entry_id, "payment_received", paid.body.result.id)

    const voidAgent = await agentOf(company, { threshold: 100, scopes: ["read", "propose", "approve"], name: "Closing agent" })
    const voidQueued = await company.post(`/v1/documents/${within.body.id}/void`, { reason: "Duplicate" }, voidAgent.token, voidAgent.headers)
    expect(voidQueued.status).toBe(202)
    const voidApproved = await company.post(`/v1/proposals/${voidQueued.body.proposal.id}/approve`, {}, accountant.token)
    expect(voidApproved.status).toBe(201)
    await expectSource(company, voidApproved.body.entry_id, "document_void", within.body.id)
    const paymentVoid = await company.post(`/v1/payments/${paid.body.result.id}/void`, { reason: "Reversed by bank" }, voidAgent.token, voidAgent.headers)
    expect(paymentVoid.status).toBe(202)
    const paymentVoidApproved = await company.post(`/v1/proposals/${paymentVoid.body.proposal.id}/approve`, {}, accountant.token)
    expect(paymentVoidApproved.status).toBe(201)
    await expectSource(company, paymentVoidApproved.body.entry_id, "payment_void", paid.body.result.id)
  })

  it("names the invoice made from an estimate and those a recurring template makes", async () => {
    const company = await sourceCompany("Source Made Co")
    const estimate = (await company.post("/v1/estimates", { contact_id: company.customerId, estimate_date: "2026-04-01", lines: [{ amount_cents: 4_000 }] })).body
    const converted = await company.post(`/v1/estimates/${estimate.id}/convert`, { doc_date: "2026-04-02" })
    expect(converted.status).toBe(201)
    expect(converted.body.estimate_id).toBe(estimate.id)
    await expectSource(company, converted.body.entry_id, "invoice", converted.body.id)

    const template = (await company.post("/v1/recurring-templates", {
      name: "Monthly",
      kind: "bill",
      frequency: "monthly",
      start_date: "2026-01-15",
      request: { contact_id: company.vendorId, lines: [{ amount_cents: 500, account: "6070" }] }
    })).body
    const run = await company.post(`/v1/recurring-templates/${template.id}/run`, { through: "2026-02-28" })
    expect(run.body.occurrences.map((occurrence: any) => occurrence.status)).toEqual(["posted", "posted"])
    for (const occurrence of run.body.occurrences) {
      const bill = (await company.get(`/v1/documents/${occurrence.document_id}`)).body
      expect(bill.recurring_template_id).toBe(template.id)
      await expectSource(company, bill.entry_id, "bill", bill.id)
    }
  })

  it("a dry run shows no reserved id and takes none", async () => {
    const company = await sourceCompany("Source Dry Co")
    const before = await sequence()
    const previews = [
      await company.post("/v1/invoices", { contact_id: company.customerId, doc_date: "2026-04-01", lines: [{ amount_cents: 2_000 }], dry_run: true }),
      await company.post("/v1/payments/made", { contact_id: company.vendorId, payment_date: "2026-04-05", account: "1010", amount_cents: 1_200, dry_run: true })
    ]
    for (const preview of previews) {
      expect(preview.status).toBe(200)
      expect(preview.body.dry_run).toBe(true)
      expect(preview.body.document?.id ?? null).toBeNull()
      expect(preview.body.entry?.source?.id ?? null).toBeNull()
    }
    expect(await sequence()).toBe(before)
  })
})

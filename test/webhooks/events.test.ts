import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { agentWithThreshold, newKey, type TestApp } from "../support/index.ts"
import { appForDelivery, createEndpoint, drain, postEntry, type Receiver, startReceiver, verify } from "./support.ts"

/**
 * Every kind of change a receiver hears of (issue 23): postings, reversals, invoices, payments,
 * proposals and period changes, each delivered signed to a real receiver and verified with the SDK.
 */

let app: TestApp
let receiver: Receiver

beforeAll(async () => {
  app = await appForDelivery("2026-05-04T12:00:00Z")
  receiver = await startReceiver()
}, 60_000)
afterAll(async () => {
  await receiver?.close()
  await app?.close()
})

describe("events from the operations that cause them", () => {
  it("delivers postings, reversals, invoices, payments, proposals, period changes and reconciliations", async () => {
    const company = await app.createCompany({ name: "Busy Co" })
    const { secret } = await createEndpoint(app, company, { url: receiver.url, event_types: ["*"] })
    const post = async (path: string, body: unknown, token = company.ownerKey, headers: Record<string, string> = {}) => {
      const result = await app.call("POST", path, { token, key: newKey(), body, headers })
      expect(result.status, `${path}: ${JSON.stringify(result.body)}`).toBeLessThan(300)
      return result.body
    }
    const entry = (await postEntry(app, company, 4_200, "2026-05-04")).body
    await post(`/v1/journal-entries/${entry.id}/reverse`, {})
    const customer = await post("/v1/contacts", { kind: "customer", name: "Acme Ltd" })
    const invoice = await post("/v1/invoices", { contact_id: customer.id, doc_date: "2026-05-04", lines: [{ amount_cents: 20_000 }] })
    await post("/v1/payments/received", {
      contact_id: customer.id,
      payment_date: "2026-05-04",
      account: "1010",
      amount_cents: invoice.total_cents,
      applications: [{ document_id: invoice.id, amount_cents: invoice.total_cents }]
    })
    const agent = await agentWithThreshold(app, company, { thresholdCents: 100 })
    const queued = await post("/v1/journal-entries/propose", {
      entry_date: "2026-05-04",
      lines: [{ account: "6070", debit_cents: 50_000 }, { account: "1010", credit_cents: 50_000 }]
    }, agent.key, agent.headers)
    await post(`/v1/proposals/${queued.proposal.id}/approve`, {})
    const periods = (await app.call("GET", "/v1/periods?limit=100", { token: company.ownerKey })).body.data
    await post(`/v1/periods/${periods[periods.length - 1].id}/status`, { status: "hard_locked", reason: "Closed year" })
    // A statement with nothing on it reconciles at once: difference zero.
    const bank = await post("/v1/bank-accounts", { name: "Operating", kind: "checking", ledger_account: "1010" })
    const reconciliation = await post(`/v1/bank-accounts/${bank.id}/reconciliations`, { statement_date: "2026-05-31", statement_ending_balance_cents: 0 })
    await post(`/v1/reconciliations/${reconciliation.id}/finish`, {})

    await drain(app)
    const received = receiver.received.splice(0)
    const types = new Set(received.map((delivery) => delivery.body.type))
    for (const type of [
      "entry.posted",
      "entry.reversed",
      "invoice.created",
      "payment.received",
      "invoice.paid",
      "proposal.created",
      "proposal.decided",
      "period.status_changed",
      "reconciliation.finished"
    ]) expect(types, type).toContain(type)
    for (const delivery of received) {
      expect(await verify(delivery, secret, app.clock!.currentTimeMillisUnsafe()), delivery.body.type).toMatchObject({ valid: true })
      expect(delivery.headers["ledger-event-type"]).toBe(delivery.body.type)
    }
    // One delivery per event: no event id twice.
    const ids = received.map((delivery) => delivery.body.id)
    expect(new Set(ids).size).toBe(ids.length)
    const feed = await app.call("GET", "/v1/webhook-events?limit=100", { token: company.ownerKey })
    expect(feed.body.data.map((event: any) => event.id).sort()).toEqual([...ids].sort())
  })

  it("delivers only the types an endpoint subscribes to, and nothing for a turned-off endpoint", async () => {
    const company = await app.createCompany({ name: "Picky Co" })
    const { webhook } = await createEndpoint(app, company, { url: receiver.url, event_types: ["entry.reversed"] })
    await postEntry(app, company, 1_000, "2026-05-04")
    await drain(app)
    expect(receiver.received.splice(0)).toEqual([])
    await app.call("POST", `/v1/webhooks/${webhook.id}`, { token: company.ownerKey, body: { event_types: ["entry.posted"], enabled: false } })
    await postEntry(app, company, 1_001, "2026-05-04")
    await drain(app)
    expect(receiver.received.splice(0)).toEqual([])
    await app.call("POST", `/v1/webhooks/${webhook.id}`, { token: company.ownerKey, body: { enabled: true } })
    await postEntry(app, company, 1_002, "2026-05-04")
    await drain(app)
    expect(receiver.received.splice(0).map((delivery) => delivery.body.data.total_cents)).toEqual([1_002])
  })
})

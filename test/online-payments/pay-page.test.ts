import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { agentWithKey, expectErrorBody, makeTestApp, signInAs } from "../support/index.ts"
import { deliver, get, invoiceWithLink, makePaymentsApp, onboardedShop, type PaymentsApp, post } from "./support.ts"

/** The public pay page reveals nothing beyond the invoice's payable facts; refusals of the area. */
let world: PaymentsApp

beforeAll(async () => {
  world = await makePaymentsApp({ clock: true })
})
afterAll(async () => {
  await world.app.close()
  await world.processor.close()
})

const guess = () => `pay_${"A".repeat(43)}`

describe("the pay page", () => {
  it("shows only the payable facts of its own invoice, and the same 404 for guessed or malformed tokens", async () => {
    const { app } = world
    const shop = await onboardedShop(world)
    const other = await onboardedShop(world)
    const mine = await invoiceWithLink(app, shop, 40_00)
    const theirs = await invoiceWithLink(app, other, 70_00)
    const page = await app.call("GET", `/v1/pay/${mine.token}`)
    expect(Object.keys(page.body).sort()).toEqual(["allow_partial", "company_name", "currency", "doc_date", "due_date", "expires_at", "invoice_number", "methods", "open_balance_cents", "total_cents"])
    expect(JSON.stringify(page.body)).not.toContain(shop.companyId)
    expect(JSON.stringify(page.body)).not.toContain("Acme")
    expect((await app.call("GET", `/v1/pay/${theirs.token}`)).body.total_cents).toBe(70_00)
    const guessed = await app.call("GET", `/v1/pay/${guess()}`)
    expect(guessed.status).toBe(404)
    expectErrorBody(guessed.body, "not_found")
    // A token one character off is another token.
    const flipped = mine.token.slice(0, -1) + (mine.token.endsWith("A") ? "B" : "A")
    expect((await app.call("GET", `/v1/pay/${flipped}`)).status).toBe(404)
    expect((await app.call("GET", "/v1/pay/not-a-token")).status).toBe(400)
    expect((await app.call("POST", `/v1/pay/${guess()}`, { body: { method: "card" } })).status).toBe(404)
    // Refusals on the page: a method not taken, more than the open balance.
    expectErrorBody((await app.call("POST", `/v1/pay/${mine.token}`, { body: { method: "ach" } })).body, "method_not_accepted")
    expectErrorBody((await app.call("POST", `/v1/pay/${mine.token}`, { body: { method: "card", amount_cents: 40_01 } })).body, "validation_failed")
  })

  it("expires", async () => {
    const { app } = world
    const shop = await onboardedShop(world)
    const invoice = await post(app, shop.ownerKey, "/v1/invoices", { contact_id: shop.customerId, doc_date: "2026-01-05", terms_days: 30, lines: [{ amount_cents: 10_00 }] })
    const link = await post(app, shop.ownerKey, "/v1/online-payments/pay-links", { document_id: invoice.body.id, expires_days: 1 })
    expect((await app.call("GET", `/v1/pay/${link.body.token}`)).status).toBe(200)
    app.clock!.advance("25 hours")
    const expired = await app.call("GET", `/v1/pay/${link.body.token}`)
    expectErrorBody(expired.body, "pay_link_expired")
    app.clock!.advance("-25 hours")
  })

  it("refuses pay links for a bill, settings from agents, and events that are unsigned, stale or tampered", async () => {
    const { app, processor } = world
    const shop = await onboardedShop(world)
    const bill = await post(app, shop.ownerKey, "/v1/bills", { contact_id: shop.customerId, doc_date: "2026-01-05", terms_days: 30, lines: [{ amount_cents: 10_00, account: "6070" }] })
    if (bill.status === 201) expectErrorBody((await post(app, shop.ownerKey, "/v1/online-payments/pay-links", { document_id: bill.body.id })).body, "document_not_payable")
    const { key } = await agentWithKey(app, shop.ownerKey, ["read", "propose", "approve", "admin"])
    expectErrorBody((await post(app, key.secret, "/v1/online-payments/settings", { enabled: false })).body, "insufficient_scope")
    expectErrorBody((await post(app, shop.session, "/v1/online-payments/settings", { fees_account: "9999" })).body, "unknown_account")
    // Settings, onboarding, sync and refunds are for the owner or CPA signed in: the owner's own
    // API key is refused (it cannot step up, concepts 5.5), before anything is asked of the processor.
    const charges = processor.state.intents.size
    for (const [path, body] of [["/v1/online-payments/settings", { enabled: false }], ["/v1/online-payments/onboarding", {}], ["/v1/online-payments/sync", {}], ["/v1/online-payments/charges/1/refund", { reason: "By key" }]] as const) {
      const byKey = await post(app, shop.ownerKey, path, body)
      expect(byKey.status, `${path}: ${JSON.stringify(byKey.body)}`).toBe(403)
      expectErrorBody(byKey.body, "session_required")
    }
    expect(processor.state.intents.size).toBe(charges)
    expect((await get(app, shop.ownerKey, "/v1/online-payments/settings")).body.enabled).toBe(true)
    const payload = JSON.stringify({ id: "evt_forged", type: "payout.paid", created: 1, account: shop.accountId, data: { object: { id: "po_x", amount: 100, arrival_date: 1 } } })
    const now = Math.floor(app.clock!.now() / 1000)
    expectErrorBody((await deliver(processor, { payload, signature: processor.sign(payload, now, "whsec_guess") })).body, "invalid_signature")
    expectErrorBody((await deliver(processor, { payload, signature: processor.sign(payload, now - 301) })).body, "invalid_signature")
    expectErrorBody((await deliver(processor, { payload, signature: "" })).body, "invalid_signature")
    const signed = processor.sign(payload, now)
    expectErrorBody((await deliver(processor, { payload: payload.replace("100", "900"), signature: signed })).body, "invalid_signature")
    const accepted = await deliver(processor, { payload, signature: signed })
    expect(accepted.body).toEqual({ received: true, duplicate: false, event_id: "evt_forged" })
    // An event of an account no company holds is acknowledged and changes nothing.
    const stranger = JSON.stringify({ id: "evt_stranger", type: "payout.paid", created: now, account: "acct_nobody", data: { object: { id: "po_y", amount: 5, arrival_date: 1 } } })
    expect((await deliver(processor, { payload: stranger, signature: processor.sign(stranger, now) })).body).toEqual({ received: true, duplicate: false, event_id: "evt_stranger" })
  })
})

describe("without a processor", () => {
  it("answers 503 online_payments_not_configured and billing_not_configured", async () => {
    const app = await makeTestApp()
    try {
      const company = await app.createCompany()
      const { secret } = await signInAs(app, company)
      const onboarding = await app.call("POST", "/v1/online-payments/onboarding", { token: secret, body: {} })
      expect(onboarding.status).toBe(503)
      expectErrorBody(onboarding.body, "online_payments_not_configured")
      const checkout = await app.call("POST", "/v1/billing/checkout", { token: secret, body: { plan: "solo", interval: "month" } })
      expect(checkout.status).toBe(503)
      expectErrorBody(checkout.body, "billing_not_configured")
      expect((await app.call("GET", "/v1/online-payments/settings", { token: company.ownerKey })).body.account_status).toBe("not_connected")
    } finally {
      await app.close()
    }
  }, 180_000)
})

import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { requestProblems, responseProblems } from "../support/providers/stripe.ts"
import { agentWithKey, signInAs, type TestCompany } from "../support/index.ts"
import { type BillingApp, deliver, deliverAll, get, makeBillingAppAt, moveTo, ownerPost, post } from "./support.ts"

/**
 * Billing over HTTP against the loopback fake processor, on a clock moved by hand (the app's and
 * the processor's together): trial to paid, a free change in the trial, an upgrade with proration,
 * a downgrade at period end, a cancel that turns the books read-only after the period.
 */
let world: BillingApp
const start = Date.parse("2026-03-01T00:00:00Z")
const day = 86_400_000

beforeAll(async () => {
  world = await makeBillingAppAt(start)
})
afterAll(async () => {
  await world.app.close()
  await world.processor.close()
})

const subscribe = async (company: TestCompany) => {
  const { app, processor } = world
  const checkout = await ownerPost(app, company, "/v1/billing/checkout", { plan: "solo", interval: "month" })
  expect(checkout.status, JSON.stringify(checkout.body)).toBe(200)
  expect(checkout.body.url).toMatch(/^https:\/\/checkout\.processor\.test\//)
  processor.completeCheckout(checkout.body.session_id)
  await deliverAll(processor)
  return checkout.body.session_id as string
}

describe("billing", () => {
  it("goes from trial to paid, upgrades at once with proration, downgrades at period end, and cancels into read-only", async () => {
    const { app, processor } = world
    const company = await app.createCompany({ name: "Billed Co" })
    expect((await get(app, company.ownerKey, "/v1/billing")).body).toMatchObject({ status: "none", plan: null, read_only: false })
    await subscribe(company)
    let billing = (await get(app, company.ownerKey, "/v1/billing")).body
    expect(billing).toMatchObject({ status: "trialing", plan: "solo", interval: "month", trial_ends_on: "2026-03-15", payment_method: true })
    expect(billing.prices).toContainEqual({ item: "business", interval: "year", unit_amount_cents: 490_00 })

    // In the trial: at once and free.
    const inTrial = await ownerPost(app, company, "/v1/billing/plan", { plan: "business", interval: "month" })
    expect(inTrial.body).toMatchObject({ change: "trial", effective: "now", charged_now_cents: 0 })
    await deliverAll(processor)
    expect((await get(app, company.ownerKey, "/v1/billing")).body.plan).toBe("business")
    expect((await app.query<{ plan: string }>("SELECT plan FROM companies WHERE company_id = $1", [company.companyId]))[0]!.plan).toBe("business")

    // The trial ends: the first paid period.
    moveTo(world, start + 14 * day)
    await deliverAll(processor)
    billing = (await get(app, company.ownerKey, "/v1/billing")).body
    expect(billing).toMatchObject({ status: "active", trial_ends_on: null, current_period_ends_on: "2026-04-14" })

    // Half way: an upgrade charges half the difference now.
    moveTo(world, start + 29 * day)
    const upgrade = await ownerPost(app, company, "/v1/billing/plan", { plan: "advanced", interval: "month" })
    expect(upgrade.body).toMatchObject({ change: "upgrade", effective: "now", charged_now_cents: 25_00 })
    expect(processor.state.invoices).toHaveLength(1)
    await deliverAll(processor)
    expect((await get(app, company.ownerKey, "/v1/billing")).body.plan).toBe("advanced")

    // A downgrade: the processor's price changes now, without proration (so the next period is
    // invoiced at the new price); the company keeps its plan until the period's end.
    const subscription = [...processor.state.subscriptions.values()].at(-1)!
    const planItem = subscription.items.data[0].id
    const invoicesBefore = processor.state.invoices.length
    const downgrade = await ownerPost(app, company, "/v1/billing/plan", { plan: "solo", interval: "month" })
    expect(downgrade.body).toMatchObject({ change: "downgrade", effective: "period_end", charged_now_cents: 0 })
    expect(downgrade.body.billing).toMatchObject({ plan: "advanced", scheduled_change: { plan: "solo", interval: "month", effective_on: "2026-04-14" } })
    expect(subscription.items.data.map((item: any) => [item.id, item.price.id])).toEqual([[planItem, "ledger_solo_month"]])
    expect(processor.state.invoices).toHaveLength(invoicesBefore)
    const asked = processor.state.requests.filter((request) => request.method === "POST" && request.path.startsWith("/v1/subscriptions/")).at(-1)!
    expect(new URLSearchParams(asked.body).get("proration_behavior")).toBe("none")
    expect(new URLSearchParams(asked.body).get("items[0][id]")).toBe(planItem)
    await deliverAll(processor)
    expect((await get(app, company.ownerKey, "/v1/billing")).body).toMatchObject({ plan: "advanced", scheduled_change: { plan: "solo" } })
    expect((await app.query<{ plan: string }>("SELECT plan FROM companies WHERE company_id = $1", [company.companyId]))[0]!.plan).toBe("advanced")
    moveTo(world, Date.parse("2026-04-14T00:00:01Z"))
    await deliverAll(processor)
    await deliverAll(processor)
    billing = (await get(app, company.ownerKey, "/v1/billing")).body
    expect(billing).toMatchObject({ plan: "solo", scheduled_change: null, current_period_ends_on: "2026-05-14" })
    // Nothing more was asked of the processor when the period turned: the new period was already at the new price.
    expect(processor.state.requests.filter((request) => request.method === "POST" && request.path.startsWith("/v1/subscriptions/")).at(-1)).toBe(asked)

    // Cancel: still writable until the period ends, then read-only.
    const cancelled = await ownerPost(app, company, "/v1/billing/cancel", { cancel: true })
    expect(cancelled.status).toBe(200)
    await deliverAll(processor)
    expect((await get(app, company.ownerKey, "/v1/billing")).body).toMatchObject({ cancel_at_period_end: true, read_only: false })
    moveTo(world, Date.parse("2026-05-14T00:00:01Z"))
    await deliverAll(processor)
    expect((await get(app, company.ownerKey, "/v1/billing")).body).toMatchObject({ status: "canceled", read_only: true })
  })

  it("sets add-ons and the overage cap, opens the portal, syncs a checkout and sells a license", async () => {
    const { app, processor } = world
    const company = await app.createCompany({ name: "Addon Co" })
    expect((await ownerPost(app, company, "/v1/billing/portal", {})).body.error?.type).toBe("billing_no_subscription")
    expect((await ownerPost(app, company, "/v1/billing/feed-accounts", { quantity: 2 })).body.error?.type).toBe("billing_no_subscription")
    const session = await ownerPost(app, company, "/v1/billing/checkout", { plan: "business", interval: "year", feed_accounts: 1 })
    processor.completeCheckout(session.body.session_id)
    processor.take()
    // The events are lost: a sync reads the checkout from the processor.
    const synced = await ownerPost(app, company, "/v1/billing/sync", { session_id: session.body.session_id })
    expect(synced.body).toMatchObject({ plan: "business", interval: "year", feed_accounts: 1, status: "trialing" })
    const other = await app.createCompany({ name: "Snoop Co" })
    expect((await ownerPost(app, other, "/v1/billing/sync", { session_id: session.body.session_id })).status).toBe(404)
    await ownerPost(app, company, "/v1/billing/feed-accounts", { quantity: 4 })
    await ownerPost(app, company, "/v1/billing/crypto-addon", { on: true })
    await deliverAll(processor)
    const cap = await ownerPost(app, company, "/v1/billing/overage-cap", { cap_cents: 50_00 })
    expect(cap.body).toMatchObject({ feed_accounts: 4, crypto_addon: true, overage_cap_cents: 50_00 })
    const sub = [...processor.state.subscriptions.values()].at(-1)!
    expect(sub.items.data.map((item: any) => item.price.id)).toEqual(["ledger_business_year", "ledger_feed_account_year", "ledger_crypto_year"])
    expect(sub.items.data[1].quantity).toBe(4)
    // Each change named the items it kept (`items[n][id]`); only the add-on was added (no id).
    const updates = processor.state.requests.filter((request) => request.method === "POST" && request.path === `/v1/subscriptions/${sub.id}`)
    expect(updates.map((request) => request.status)).toEqual([200, 200])
    const feeds = new URLSearchParams(updates[0]!.body)
    expect([feeds.get("items[0][id]"), feeds.get("items[0][price]"), feeds.get("items[1][id]"), feeds.get("items[1][quantity]")]).toEqual([sub.items.data[0].id, null, sub.items.data[1].id, "4"])
    const crypto = new URLSearchParams(updates[1]!.body)
    expect([crypto.get("items[2][id]"), crypto.get("items[2][price]")]).toEqual([null, "ledger_crypto_year"])
    expect((await ownerPost(app, company, "/v1/billing/portal", {})).body.url).toMatch(/^https:\/\/billing\.processor\.test\//)
    const license = await ownerPost(app, company, "/v1/billing/license/checkout", {})
    expect(license.body.url).toMatch(/^https:\/\/checkout\.processor\.test\//)
    expect(processor.state.sessions.get(license.body.session_id)!.line_items).toEqual([{ price: "ledger_license_year", quantity: "1" }])
  })

  it("refuses agents, unsigned or tampered subscription events, and changes no plan without the processor", async () => {
    const { app, processor } = world
    const company = await app.createCompany({ name: "Guarded Co" })
    const sessionsBefore = processor.state.sessions.size
    const { key } = await agentWithKey(app, company.ownerKey, ["read", "propose", "approve", "admin"])
    expect((await post(app, key.secret, "/v1/billing/checkout", { plan: "solo", interval: "month" })).body.error?.type).toBe("insufficient_scope")
    expect((await get(app, key.secret, "/v1/billing")).status).toBe(200)
    // Billing's writes are for the owner signed in: the owner's own key is refused (it cannot step
    // up), and a session whose step-up is older than 10 minutes is asked one (ADR 2001).
    const byKey = await post(app, company.ownerKey, "/v1/billing/checkout", { plan: "solo", interval: "month" })
    expect(byKey.status, JSON.stringify(byKey.body)).toBe(403)
    expect(byKey.body.error.type).toBe("session_required")
    const { secret } = await signInAs(app, company)
    moveTo(world, world.app.clock!.now() + 11 * 60_000)
    const stale = await post(app, secret, "/v1/billing/checkout", { plan: "solo", interval: "month" })
    expect(stale.status, JSON.stringify(stale.body)).toBe(403)
    expect(stale.body.error.type).toBe("step_up_required")
    expect(processor.state.sessions.size).toBe(sessionsBefore)
    await subscribe(company)
    const forged = JSON.stringify({ id: "evt_forged", type: "customer.subscription.updated", created: 1, account: null, data: { object: { object: "subscription", id: "sub_x", metadata: { company_id: company.companyId } } } })
    const now = Math.floor(world.app.clock!.now() / 1000)
    const wrongKey = await deliver(processor, { payload: forged, signature: processor.sign(forged, now, "whsec_guess") })
    expect(wrongKey.status).toBe(400)
    expect(wrongKey.body.error?.type).toBe("invalid_signature")
    expect((await get(app, company.ownerKey, "/v1/billing")).body.plan).toBe("solo")
  })

  it("sent the processor only requests Stripe's description has, and had answers it describes", () => {
    const requests = world.processor.state.requests
    expect(requests.length).toBeGreaterThan(20)
    expect(requests.flatMap((request) => requestProblems(request))).toEqual([])
    expect(requests.flatMap(responseProblems)).toEqual([])
  })
})

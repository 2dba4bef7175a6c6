import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { newKey, subscribeToEvents } from "../support/index.ts"
import { type AuthApp, makeAuthApp, personWithEmail, signInByEmail } from "../support/sign-in.ts"
import { type CryptoApp, fixture, freshKey, makeCryptoApp } from "./support.ts"

/**
 * Crypto writes follow the books' governance: a posting dated in a soft-locked period needs a
 * reason (kept on the entry), as the ledger's own writes do; wallets are a sensitive change that a
 * browser session makes only within 10 minutes of a step-up (spec 5.5); an invoice paid on chain is
 * recorded by sales' own payment code (its `payment.received` and `invoice.paid` events); and a
 * descriptor whose BIP 380 checksum is wrong is refused.
 */

let t: CryptoApp
beforeAll(async () => {
  t = await makeCryptoApp({ clock: "2026-03-10T12:00:00Z" })
})
afterAll(() => t.close())

const periodOf = async (token: string, date: string) => {
  const listed = (await t.get("/v1/periods?fiscal_year=2026&limit=100", token)).body.data as Array<any>
  const found = listed.find((period) => period.start_date <= date && date <= period.end_date)
  if (found !== undefined) return found
  const month = date.slice(0, 7)
  const end = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).toISOString().slice(0, 10)
  return t.ok("/v1/periods", token, { start_date: `${month}-01`, end_date: end })
}

describe("soft-locked periods", () => {
  it("refuses an acquisition, a disposal and an assignment dated in one without a reason, and keeps the reason given", async () => {
    const owner = await t.company({ btc_confirmations: 1 })
    const wallet = await t.wallet(owner, { key: freshKey() })
    const invoice = await t.invoice(owner, 50_00, "2026-01-02")
    t.prices.set("BTC", "50000")
    const quote = await t.ok("/v1/crypto/quotes", owner.ownerKey, { document_id: invoice.id, wallet_id: wallet.id })
    t.chain.pay({ address: quote.address, units: quote.amount_units, confirmations: 1 })
    await t.watch(owner)
    const [receipt] = (await t.get(`/v1/crypto/receipts?document_id=${invoice.id}`, owner.ownerKey)).body.data

    const period = await periodOf(owner.ownerKey, "2026-01-15")
    const locked = await t.post(`/v1/periods/${period.id}/status`, owner.ownerKey, { status: "soft_locked", reason: "January reviewed" })
    expect(locked.status, JSON.stringify(locked.body)).toBe(200)

    const acquisition = { quantity: "0.1", cost_cents: 4_000_00, acquired_at: "2026-01-15", offset_account: "1010" }
    const refused = await t.post(`/v1/crypto/wallets/${wallet.id}/acquisitions`, owner.session, acquisition)
    expect(refused.status).toBe(422)
    expect(refused.body.error.type).toBe("soft_lock_reason_required")
    const lot = await t.ok(`/v1/crypto/wallets/${wallet.id}/acquisitions`, owner.session, { ...acquisition, soft_lock_override_reason: "Late broker statement" })
    const entry = (await t.get(`/v1/journal-entries/${lot.entry_id}`, owner.ownerKey)).body
    expect(entry.soft_lock_override_reason).toBe("Late broker statement")

    const disposal = { kind: "sell", quantity: "0.01", disposed_at: "2026-01-20", proceeds_cents: 500_00, counter_account: "1010" }
    expect((await t.post(`/v1/crypto/wallets/${wallet.id}/disposals`, owner.session, disposal)).body.error.type).toBe("soft_lock_reason_required")
    expect((await t.post(`/v1/crypto/wallets/${wallet.id}/disposals`, owner.session, { ...disposal, soft_lock_override_reason: "Missed sale" })).status).toBe(201)

    // The receipt is dated when it confirmed (2026-03-10, the clock): lock March too.
    const march = await periodOf(owner.ownerKey, "2026-03-10")
    expect((await t.post(`/v1/periods/${march.id}/status`, owner.ownerKey, { status: "soft_locked", reason: "March reviewed" })).status).toBe(200)
    expect((await t.post(`/v1/crypto/receipts/${receipt.id}/assign`, owner.session, {})).body.error.type).toBe("soft_lock_reason_required")
    const assigned = await t.ok(`/v1/crypto/receipts/${receipt.id}/assign`, owner.session, { soft_lock_override_reason: "Customer paid late" })
    expect(assigned.status).toBe("assigned")
    expect((await t.get(`/v1/journal-entries/${assigned.entry_id}`, owner.ownerKey)).body.soft_lock_override_reason).toBe("Customer paid late")
  })

  it("needs the reason for a remeasurement and its reversal in a soft-locked month", async () => {
    const owner = await t.company({ remeasure: true })
    const wallet = await t.wallet(owner, { key: freshKey() })
    await t.ok(`/v1/crypto/wallets/${wallet.id}/acquisitions`, owner.session, { quantity: "1", cost_cents: 40_000_00, acquired_at: "2026-01-05", offset_account: "1010" })
    t.prices.set("BTC", "45000", "2026-01-31T00:00:00Z")
    const period = await periodOf(owner.ownerKey, "2026-01-31")
    expect((await t.post(`/v1/periods/${period.id}/status`, owner.ownerKey, { status: "soft_locked", reason: "Closed" })).status).toBe(200)
    const refused = await t.post("/v1/crypto/remeasurements", owner.session, { period_end: "2026-01-31" })
    expect(refused.body.error.type).toBe("soft_lock_reason_required")
    const done = await t.ok("/v1/crypto/remeasurements", owner.session, { period_end: "2026-01-31", soft_lock_override_reason: "Year-end fair value" })
    expect(done.entry_id).toBeGreaterThan(0)
    expect((await t.get(`/v1/journal-entries/${done.entry_id}`, owner.ownerKey)).body.soft_lock_override_reason).toBe("Year-end fair value")
  })
})

describe("an invoice paid on chain, through sales' payment code", () => {
  it("emits payment.received and invoice.paid as a payment recorded in sales does", async () => {
    const owner = await t.company({ btc_confirmations: 1 })
    await subscribeToEvents(t.app, owner)
    const wallet = await t.wallet(owner, { key: freshKey() })
    const invoice = await t.invoice(owner, 80_00, "2026-03-01")
    t.prices.set("BTC", "40000")
    const quote = await t.ok("/v1/crypto/quotes", owner.ownerKey, { document_id: invoice.id, wallet_id: wallet.id })
    t.chain.pay({ address: quote.address, units: quote.amount_units, confirmations: 1 })
    await t.watch(owner)
    const [receipt] = (await t.get(`/v1/crypto/receipts?document_id=${invoice.id}`, owner.ownerKey)).body.data
    const assigned = await t.ok(`/v1/crypto/receipts/${receipt.id}/assign`, owner.session, {})
    const events = await t.app.query<{ event_type: string; payload: any }>(
      `SELECT event_type, payload FROM outbox_events WHERE company_id = $1 AND event_type IN ('payment.received', 'invoice.paid') ORDER BY id`, [owner.companyId])
    expect(events.map((event) => event.event_type)).toEqual(["invoice.paid", "payment.received"])
    const received = events.find((event) => event.event_type === "payment.received")!
    const payload = typeof received.payload === "string" ? JSON.parse(received.payload) : received.payload
    expect(payload).toMatchObject({ amount_cents: 80_00, entry_id: assigned.entry_id, applications: [{ document_id: invoice.id, amount_cents: 80_00 }] })
    const payment = (await t.get(`/v1/payments/${payload.payment_id}`, owner.ownerKey)).body
    expect(payment).toMatchObject({ direction: "received", amount_cents: 80_00, reference: String(receipt.txid).slice(0, 100) })
  })
})

describe("descriptor checksums over HTTP", () => {
  it("refuses a wallet whose descriptor checksum is wrong, and takes it with the right one", async () => {
    const owner = await t.company()
    const [descriptor] = fixture("bip380_descriptor_checksum_vectors.json").derived.descriptors as Array<string>
    const wrong = `${descriptor!.slice(0, -1)}${descriptor!.endsWith("q") ? "p" : "q"}`
    const refused = await t.post("/v1/crypto/wallets", owner.session, { rail: "btc", name: "Typo", key: wrong })
    expect(refused.status).toBe(422)
    expect(refused.body.error.type).toBe("crypto_key_invalid")
    expect((await t.post("/v1/crypto/wallets", owner.session, { rail: "btc", name: "Right", key: descriptor })).status).toBe(201)
  })
})

describe("step-up on wallets", () => {
  let app: AuthApp
  beforeAll(async () => {
    app = await makeAuthApp({ clock: "2026-03-02T09:00:00Z" })
  }, 120_000)
  afterAll(() => app?.close())

  it("lets a fresh session add, set and archive wallets, and asks a stale one to step up first", async () => {
    const company = await app.createCompany({ name: "Step-up Crypto Co", plan: "owned" })
    const post = (token: string, path: string, body: unknown) => app.call("POST", path, { token, key: newKey(), body })
    const person = await personWithEmail(app, company)
    const { secret } = await signInByEmail(app, person.email)
    expect((await post(secret, "/v1/crypto/settings", { enabled: true })).status).toBe(200)
    const fresh = await post(secret, "/v1/crypto/wallets", { rail: "btc", name: "Fresh", key: freshKey() })
    expect(fresh.status, JSON.stringify(fresh.body)).toBe(201)

    app.clock!.advance("11 minutes")
    const stale = await post(secret, "/v1/crypto/wallets", { rail: "btc", name: "Stale", key: freshKey() })
    expect(stale.status).toBe(403)
    expect(stale.body.error.type).toBe("step_up_required")
    expect((await post(secret, `/v1/crypto/wallets/${fresh.body.id}/lot-method`, { lot_method: "specific" })).body.error.type).toBe("step_up_required")
    expect((await post(secret, `/v1/crypto/wallets/${fresh.body.id}/archive`, { reason: "test" })).body.error.type).toBe("step_up_required")
    // Reads need none. The owner's API key is no browser session and cannot step up: refused, not
    // a way around the step-up (DECISIONS "People-only and signed-in operations").
    expect((await app.call("GET", `/v1/crypto/wallets/${fresh.body.id}`, { token: secret })).status).toBe(200)
    const byKey = await post(company.ownerKey, `/v1/crypto/wallets/${fresh.body.id}/archive`, { reason: "test" })
    expect(byKey.status, JSON.stringify(byKey.body)).toBe(403)
    expect(byKey.body.error.type).toBe("session_required")
    // Stepping up (signing in again counts) lets the session archive.
    const { secret: again } = await signInByEmail(app, person.email)
    expect((await post(again, `/v1/crypto/wallets/${fresh.body.id}/archive`, { reason: "test" })).status).toBe(200)
  })
})

import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type CryptoApp, makeCryptoApp, zpubAddresses } from "./support.ts"

let t: CryptoApp
beforeAll(async () => {
  t = await makeCryptoApp({ clock: "2026-01-10T12:00:00Z" })
})
afterAll(() => t.close())

describe("an invoice paid on chain", () => {
  it("quotes, sees the payment, waits for confirmations and posts the receipt against the invoice", async () => {
    const owner = await t.company({ btc_confirmations: 3 })
    const wallet = await t.wallet(owner)
    expect(wallet.address).toBe(zpubAddresses[0])
    const invoice = await t.invoice(owner, 250_00)
    t.prices.set("BTC", "50000")
    const quote = await t.ok("/v1/crypto/quotes", owner.ownerKey, { document_id: invoice.id, wallet_id: wallet.id })
    expect(quote).toMatchObject({ address: zpubAddresses[0], amount_cents: 250_00, price: "50000", amount_units: "500000", amount: "0.005", status: "open" })
    expect(quote.uri).toBe(`bitcoin:${zpubAddresses[0]}?amount=0.005`)

    const txid = t.chain.pay({ address: quote.address, units: "500000", confirmations: 1 })
    await t.watch(owner)
    const seen = (await t.get(`/v1/crypto/receipts?document_id=${invoice.id}`, owner.ownerKey)).body.data
    expect(seen).toHaveLength(1)
    expect(seen[0]).toMatchObject({ txid, status: "pending", payment: "exact", quantity: "0.005", confirmations: 1 })
    const early = await t.post(`/v1/crypto/receipts/${seen[0].id}/assign`, owner.session, {})
    expect(early.status).toBe(409)
    expect(early.body.error.type).toBe("crypto_receipt_state")

    t.chain.confirm(txid, 3)
    await t.watch(owner)
    const confirmed = (await t.get(`/v1/crypto/receipts/${seen[0].id}`, owner.ownerKey)).body
    expect(confirmed.status).toBe("confirmed")
    expect((await t.get(`/v1/crypto/quotes/${quote.id}`, owner.ownerKey)).body.status).toBe("paid")

    const assigned = await t.ok(`/v1/crypto/receipts/${seen[0].id}/assign`, owner.session, {})
    expect(assigned).toMatchObject({ status: "assigned", document_id: invoice.id, value_cents: 250_00, price: "50000" })
    expect(assigned.entry_id).toBeGreaterThan(0)
    const paid = (await t.get(`/v1/documents/${invoice.id}`, owner.ownerKey)).body
    expect(paid).toMatchObject({ open_balance_cents: 0, status: "paid" })
    const lots = (await t.get(`/v1/crypto/lots?wallet_id=${wallet.id}`, owner.ownerKey)).body.data
    expect(lots).toMatchObject([{ source: "receipt", units: "500000", cost_cents: 250_00 }])
  })
})

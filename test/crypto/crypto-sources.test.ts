import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { entriesWithoutSourceId, expectSource } from "../support/sources.ts"
import { type CryptoApp, makeCryptoApp } from "./support.ts"

/**
 * Every crypto entry names its record as `source.id` (issue 38 item 11): an acquisition its lot, a
 * disposal itself, an assigned receipt the receipt, and a remeasurement and its next-day reversal
 * the remeasurement. They used to post with `source.id` null.
 */

let t: CryptoApp
beforeAll(async () => {
  t = await makeCryptoApp({ clock: "2026-02-10T12:00:00Z" })
})
afterAll(() => t.close())

describe("the source of a crypto entry", () => {
  it("names the lot, the disposal, the receipt and the remeasurement", async () => {
    const owner = await t.company({ remeasure: true, btc_confirmations: 1 })
    const wallet = await t.wallet(owner)
    const lot = await t.ok(`/v1/crypto/wallets/${wallet.id}/acquisitions`, owner.session, {
      quantity: "0.5", cost_cents: 20_000_00, acquired_at: "2026-01-05", offset_account: "3010"
    })
    await expectSource(t.app, owner.ownerKey, lot.entry_id, "crypto_acquisition", lot.id)

    const sold = await t.ok(`/v1/crypto/wallets/${wallet.id}/disposals`, owner.session, {
      kind: "sell", quantity: "0.1", disposed_at: "2026-01-06", proceeds_cents: 5_000_00, counter_account: "1010"
    })
    await expectSource(t.app, owner.ownerKey, sold.entry_id, "crypto_disposal", sold.id)
    const listed = (await t.get(`/v1/crypto/disposals?wallet_id=${wallet.id}&from=2026-01-01`, owner.ownerKey)).body.data
    expect(listed.map((disposal: any) => disposal.id)).toContain(sold.id)

    // A payment on chain for an invoice, seen and confirmed by the watcher, then assigned.
    const invoice = await t.invoice(owner, 250_00)
    t.prices.set("BTC", "50000")
    const quote = await t.ok("/v1/crypto/quotes", owner.ownerKey, { document_id: invoice.id, wallet_id: wallet.id })
    t.chain.pay({ address: quote.address, units: "500000", confirmations: 1 })
    await t.watch(owner)
    const receipt = (await t.get(`/v1/crypto/receipts?document_id=${invoice.id}`, owner.ownerKey)).body.data[0]
    const assigned = await t.ok(`/v1/crypto/receipts/${receipt.id}/assign`, owner.session, {})
    await expectSource(t.app, owner.ownerKey, assigned.entry_id, "crypto_receipt", receipt.id)

    await t.ok("/v1/crypto/valuations", owner.ownerKey, { asset: "BTC", at: "2026-01-31T20:00:00Z", price: "48000", reason: "Month-end close price" })
    const remeasured = await t.ok("/v1/crypto/remeasurements", owner.session, { period_end: "2026-01-31" })
    await expectSource(t.app, owner.ownerKey, remeasured.entry_id, "crypto_remeasurement", remeasured.id)
    await expectSource(t.app, owner.ownerKey, remeasured.reversal_entry_id, "crypto_remeasurement", remeasured.id)

    expect(await entriesWithoutSourceId(t.app, owner.companyId)).toEqual([])
  })
})

import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Company, type CryptoApp, fixture, freshKey, makeCryptoApp, zpubAddresses } from "./support.ts"

/** Quotes paid short, paid late, never paid; the gap limit; archiving. */

let t: CryptoApp
beforeAll(async () => {
  t = await makeCryptoApp({ clock: "2026-03-02T10:00:00Z" })
})
afterAll(() => t.close())

const quoteFor = async (owner: Company, walletId: number, amountCents: number) => {
  const invoice = await t.invoice(owner, amountCents, "2026-03-01")
  return { invoice, quote: await t.ok("/v1/crypto/quotes", owner.ownerKey, { document_id: invoice.id, wallet_id: walletId }) }
}

describe("quotes", () => {
  it("an under-payment leaves the invoice partly open and the quote underpaid", async () => {
    const owner = await t.company({ btc_confirmations: 1 })
    const wallet = await t.wallet(owner)
    const { invoice, quote } = await quoteFor(owner, wallet.id, 100_00)
    expect(quote.amount_units).toBe("200000")
    t.chain.pay({ address: quote.address, units: "150000", confirmations: 1 })
    await t.watch(owner)
    expect((await t.get(`/v1/crypto/quotes/${quote.id}`, owner.ownerKey)).body).toMatchObject({ status: "underpaid", received_units: "150000" })
    const [receipt] = (await t.get(`/v1/crypto/receipts?wallet_id=${wallet.id}&status=confirmed`, owner.ownerKey)).body.data
    expect(receipt).toMatchObject({ payment: "under", document_id: invoice.id })
    const assigned = await t.ok(`/v1/crypto/receipts/${receipt.id}/assign`, owner.session, {})
    expect(assigned.value_cents).toBe(75_00)
    expect((await t.get(`/v1/documents/${invoice.id}`, owner.ownerKey)).body).toMatchObject({ open_balance_cents: 25_00 })
    // A second quote for what is left takes the next address.
    const rest = await t.ok("/v1/crypto/quotes", owner.ownerKey, { document_id: invoice.id, wallet_id: wallet.id })
    expect(rest).toMatchObject({ amount_cents: 25_00, address: zpubAddresses[1], address_index: 1 })
  })

  it("expires unpaid, and a payment after expiry is priced again when it is assigned", async () => {
    const owner = await t.company({ btc_confirmations: 1, quote_minutes: 15 })
    const wallet = await t.wallet(owner, { key: freshKey() })
    const unpaid = await quoteFor(owner, wallet.id, 50_00)
    const late = await quoteFor(owner, wallet.id, 100_00)
    t.app.clock!.advance("20 minutes")
    expect((await t.get(`/v1/crypto/quotes/${unpaid.quote.id}`, owner.ownerKey)).body.status).toBe("expired")
    t.prices.set("BTC", "40000", "2026-03-02T10:10:00Z")
    t.chain.pay({ address: late.quote.address, units: late.quote.amount_units, confirmations: 2 })
    await t.watch(owner)
    const rows = await t.app.query<{ id: string; status: string }>(`SELECT id::text, status FROM crypto_quotes WHERE company_id = $1 ORDER BY id`, [owner.companyId])
    expect(rows.map((row) => row.status)).toEqual(["expired", "paid"])
    const [receipt] = (await t.get(`/v1/crypto/receipts?document_id=${late.invoice.id}`, owner.ownerKey)).body.data
    expect(receipt.payment).toBe("late")
    const assigned = await t.ok(`/v1/crypto/receipts/${receipt.id}/assign`, owner.session, {})
    expect(assigned).toMatchObject({ price: "40000", value_cents: 80_00 })
    expect((await t.get(`/v1/documents/${late.invoice.id}`, owner.ownerKey)).body.open_balance_cents).toBe(20_00)
    t.app.clock!.set("2026-03-02T10:00:00Z")
  })

  it("refuses more addresses than the gap limit past the last one paid", async () => {
    const owner = await t.company()
    const wallet = await t.wallet(owner, { gap_limit: 2 })
    await quoteFor(owner, wallet.id, 10_00)
    await quoteFor(owner, wallet.id, 10_00)
    const invoice = await t.invoice(owner, 10_00, "2026-03-01")
    const third = await t.post("/v1/crypto/quotes", owner.ownerKey, { document_id: invoice.id, wallet_id: wallet.id })
    expect(third.status).toBe(409)
    expect(third.body.error).toMatchObject({ type: "crypto_gap_limit_reached", details: { gap_limit: 2, unpaid: 2 } })
  })

  it("archiving a wallet cancels its open quotes and refuses new ones", async () => {
    const owner = await t.company()
    const wallet = await t.wallet(owner)
    const { invoice, quote } = await quoteFor(owner, wallet.id, 10_00)
    const archived = await t.ok(`/v1/crypto/wallets/${wallet.id}/archive`, owner.session, { reason: "Moved to a new device" }, 200)
    expect(archived).toMatchObject({ archived: true, archive_reason: "Moved to a new device" })
    expect((await t.get(`/v1/crypto/quotes/${quote.id}`, owner.ownerKey)).body.status).toBe("cancelled")
    const refused = await t.post("/v1/crypto/quotes", owner.ownerKey, { document_id: invoice.id, wallet_id: wallet.id })
    expect(refused.body.error.type).toBe("crypto_wallet_archived")
    expect((await t.get("/v1/crypto/wallets", owner.ownerKey)).body.data).toEqual([])
    expect((await t.get("/v1/crypto/wallets?include_archived=true", owner.ownerKey)).body.data).toHaveLength(1)
  })

  it("a single-address wallet holds one open quote at a time; a receipt may be assigned to an account or ignored", async () => {
    const owner = await t.company()
    const wallet = await t.ok("/v1/crypto/wallets", owner.session, { rail: "usdt_tron", name: "Tron", address: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t" })
    expect(wallet).toMatchObject({ asset: "USDT", key_kind: "address" })
    const first = await quoteFor(owner, wallet.id, 12_34)
    expect(first.quote).toMatchObject({ amount_units: "12340000", amount: "12.34", address: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t" })
    const invoice = await t.invoice(owner, 10_00, "2026-03-01")
    expect((await t.post("/v1/crypto/quotes", owner.ownerKey, { document_id: invoice.id, wallet_id: wallet.id })).body.error.type).toBe("crypto_quote_state")
    t.chain.pay({ address: wallet.address, units: "5000000", confirmations: 12 })
    t.chain.pay({ address: wallet.address, units: "1", confirmations: 12 })
    await t.watch(owner)
    const receipts = (await t.get(`/v1/crypto/receipts?wallet_id=${wallet.id}`, owner.ownerKey)).body.data
    expect(receipts.map((receipt: any) => receipt.status)).toEqual(["confirmed", "confirmed"])
    const [dust, five] = receipts
    const toAccount = await t.ok(`/v1/crypto/receipts/${five.id}/assign`, owner.session, { account: "4000", price: "1" })
    expect(toAccount).toMatchObject({ value_cents: 5_00, account: "4000", status: "assigned" })
    expect((await t.post(`/v1/crypto/receipts/${dust.id}/assign`, owner.session, { ignore: true })).status).toBe(422)
    expect(await t.ok(`/v1/crypto/receipts/${dust.id}/assign`, owner.session, { ignore: true, reason: "Dust" })).toMatchObject({ status: "ignored", reason: "Dust" })
  })
  it("a USDC wallet on Solana sees its payment through the Solana JSON-RPC and waits for 12 confirmations", async () => {
    const owner = await t.company()
    const wallet = await t.ok("/v1/crypto/wallets", owner.session, { rail: "usdc_solana", name: "Solana", address: "4paJKMiSHnKjde4TVzXNBXbanhjA7ddA9vRuJnVayBiH" })
    const { invoice, quote } = await quoteFor(owner, wallet.id, 42_00)
    expect(quote).toMatchObject({ amount_units: "42000000", address: wallet.address })
    const txid = t.chain.pay({ address: quote.address, units: quote.amount_units, confirmations: 5 })
    await t.watch(owner)
    const [receipt] = (await t.get(`/v1/crypto/receipts?wallet_id=${wallet.id}`, owner.ownerKey)).body.data
    expect(receipt).toMatchObject({ txid, status: "pending", asset: "USDC", quantity: "42", document_id: invoice.id })
    t.chain.mine(7)
    await t.watch(owner)
    expect((await t.get(`/v1/crypto/receipts/${receipt.id}`, owner.ownerKey)).body).toMatchObject({ status: "confirmed", confirmations: 12 })
  })
  it("a Monero wallet quotes at fresh subaddresses and waits for its confirmations", async () => {
    const owner = await t.company({ xmr_confirmations: 10 })
    const vector = fixture("monero/monero_viewkey_vectors.json").subaddress_vectors[2]
    const grid: Array<Array<string>> = fixture(`monero/${vector.expected_subaddresses_file}`)
    const wallet = await t.ok("/v1/crypto/wallets", owner.session, { rail: "xmr", name: "Monero", address: vector.address, view_key: vector.secret_view_key })
    t.prices.set("XMR", "150")
    const { quote } = await quoteFor(owner, wallet.id, 300_00)
    expect(quote).toMatchObject({ address: grid[0]![1], amount: "2", amount_units: "2000000000000" })
    expect(quote.uri).toBe(`monero:${grid[0]![1]}?tx_amount=2`)
    const txid = t.chain.pay({ address: quote.address, units: quote.amount_units, confirmations: 9, monero: { primary: vector.address, minor: quote.address_index + 1 } })
    await t.watch(owner)
    const [receipt] = (await t.get(`/v1/crypto/receipts?wallet_id=${wallet.id}`, owner.ownerKey)).body.data
    expect(receipt).toMatchObject({ status: "pending", asset: "XMR", quantity: "2" })
    t.chain.confirm(txid, 10)
    await t.watch(owner)
    expect((await t.get(`/v1/crypto/receipts/${receipt.id}`, owner.ownerKey)).body.status).toBe("confirmed")
    const next = await quoteFor(owner, wallet.id, 15_00)
    expect(next.quote.address).toBe(grid[0]![2])
  })
  it("an over-payment pays the invoice and leaves the excess as the customer's credit", async () => {
    const owner = await t.company({ btc_confirmations: 1 })
    const wallet = await t.wallet(owner, { key: freshKey() })
    t.prices.set("BTC", "50000")
    const { invoice, quote } = await quoteFor(owner, wallet.id, 100_00)
    t.chain.pay({ address: quote.address, units: "300000", confirmations: 1 })
    await t.watch(owner)
    expect((await t.get(`/v1/crypto/quotes/${quote.id}`, owner.ownerKey)).body.status).toBe("overpaid")
    const [receipt] = (await t.get(`/v1/crypto/receipts?document_id=${invoice.id}`, owner.ownerKey)).body.data
    expect(receipt.payment).toBe("over")
    const assigned = await t.ok(`/v1/crypto/receipts/${receipt.id}/assign`, owner.session, {})
    expect(assigned.value_cents).toBe(150_00)
    expect((await t.get(`/v1/documents/${invoice.id}`, owner.ownerKey)).body).toMatchObject({ open_balance_cents: 0, status: "paid" })
    const payments = await t.app.query<{ amount_cents: string; applied: string }>(
      `SELECT p.amount_cents::text, (SELECT sum(a.amount_cents) FROM applications a WHERE a.company_id = p.company_id AND a.payment_id = p.id)::text AS applied
       FROM payments p WHERE p.company_id = $1 AND p.entry_id = $2`, [owner.companyId, assigned.entry_id])
    expect(payments).toEqual([{ amount_cents: "15000", applied: "10000" }])
  })
})

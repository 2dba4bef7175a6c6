import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Company, type CryptoApp, fixture, makeCryptoApp } from "./support.ts"

/**
 * Lots across a year, against a hand computation: 1.0 BTC bought on 2025-01-10 for $30,000 and
 * 0.5 BTC on 2025-06-01 for $25,000; 1.2 BTC sold on 2026-01-15 for $72,000.
 *
 * FIFO: all of lot A (1.0, cost 30,000, held past its anniversary: long) and 0.2 of lot B (cost
 * 25,000 x 0.2/0.5 = 10,000, short). Proceeds by units: 60,000 and 12,000. Long gain 30,000,
 * short gain 2,000.
 * Specific (B 0.5 then A 0.7): B cost 25,000 proceeds 30,000 (short gain 5,000); A 0.7 cost 21,000
 * proceeds 42,000 (long gain 21,000).
 */

let t: CryptoApp
beforeAll(async () => {
  t = await makeCryptoApp({ clock: "2026-02-01T12:00:00Z" })
})
afterAll(() => t.close())

const buy = (owner: Company, walletId: number, quantity: string, costCents: number, at: string) =>
  t.ok(`/v1/crypto/wallets/${walletId}/acquisitions`, owner.session, { quantity, cost_cents: costCents, acquired_at: at, offset_account: "3010" })

const yearOfLots = async (lotMethod: "fifo" | "specific") => {
  const owner = await t.company()
  const wallet = await t.wallet(owner, { lot_method: lotMethod })
  const a = await buy(owner, wallet.id, "1", 30_000_00, "2025-01-10")
  const b = await buy(owner, wallet.id, "0.5", 25_000_00, "2025-06-01T09:30:00Z")
  return { owner, wallet, a, b }
}

describe("disposals across a year", () => {
  it("FIFO gives the hand-computed gains, posts them, and leaves the rest of lot B open", async () => {
    const { owner, wallet, a, b } = await yearOfLots("fifo")
    expect(a).toMatchObject({ units: "100000000", cost_cents: 30_000_00, acquired_at: "2025-01-10T23:59:59.999Z" })
    const preview = await t.post(`/v1/crypto/wallets/${wallet.id}/disposals`, owner.session, {
      kind: "sell", quantity: "1.2", disposed_at: "2026-01-15", proceeds_cents: 72_000_00, counter_account: "1010", dry_run: true
    })
    expect(preview.status).toBe(200)
    expect(preview.body.document).toMatchObject({ long_term_gain_cents: 30_000_00, short_term_gain_cents: 2_000_00 })
    const sold = await t.ok(`/v1/crypto/wallets/${wallet.id}/disposals`, owner.session, {
      kind: "sell", quantity: "1.2", disposed_at: "2026-01-15", proceeds_cents: 72_000_00, counter_account: "1010"
    })
    expect(sold).toMatchObject({ cost_cents: 40_000_00, long_term_gain_cents: 30_000_00, short_term_gain_cents: 2_000_00, gain_cents: 32_000_00 })
    expect(sold.lots).toMatchObject([
      { lot_id: a.id, quantity: "1", cost_cents: 30_000_00, proceeds_cents: 60_000_00, term: "long" },
      { lot_id: b.id, quantity: "0.2", cost_cents: 10_000_00, proceeds_cents: 12_000_00, term: "short" }
    ])
    const entry = (await t.get(`/v1/journal-entries/${sold.entry_id}`, owner.ownerKey)).body
    const lines = entry.lines.map((line: any) => [line.account, line.debit_cents, line.credit_cents])
    expect(lines).toEqual(expect.arrayContaining([["1010", 72_000_00, 0], ["1480", 0, 40_000_00], ["4880", 0, 32_000_00]]))
    const open = (await t.get(`/v1/crypto/wallets/${wallet.id}`, owner.ownerKey)).body
    expect(open.balance_units).toBe("30000000")
    expect(open.open_lots).toMatchObject([{ id: b.id, remaining_quantity: "0.3", remaining_cost_cents: 15_000_00 }])

    const gains = (await t.get("/v1/crypto/gains?from=2026-01-01&to=2026-01-31", owner.ownerKey)).body
    expect(gains).toMatchObject({ short_term_gain_cents: 2_000_00, long_term_gain_cents: 30_000_00, proceeds_cents: 72_000_00, cost_cents: 40_000_00 })
    const csv = await t.app.call("GET", "/v1/crypto/gains?from=2026-01-01&to=2026-01-31&format=csv", { token: owner.ownerKey })
    expect(csv.status).toBe(200)
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8")
    expect(csv.headers.get("content-disposition")).toBe('attachment; filename="crypto-gains-2026-01-01-to-2026-01-31.csv"')
    const rows = (csv.body as string).split("\r\n")
    expect(rows[0]).toBe("disposal_id,lot_id,asset,kind,acquired,disposed,quantity,proceeds,cost,gain,term")
    expect(rows[1]).toBe(`${sold.id},${a.id},BTC,sell,2025-01-10,2026-01-15,1,60000.00,30000.00,30000.00,long`)
    expect((await t.get("/v1/crypto/gains?from=2025-01-01&to=2025-12-31", owner.ownerKey)).body.rows).toEqual([])
  })

  it("specific identification relieves the lots picked and gives their gains", async () => {
    const { owner, wallet, a, b } = await yearOfLots("specific")
    const unpicked = await t.post(`/v1/crypto/wallets/${wallet.id}/disposals`, owner.session, {
      kind: "sell", quantity: "1.2", disposed_at: "2026-01-15", proceeds_cents: 72_000_00, counter_account: "1010"
    })
    expect(unpicked.status).toBe(422)
    const sold = await t.ok(`/v1/crypto/wallets/${wallet.id}/disposals`, owner.session, {
      kind: "sell", quantity: "1.2", disposed_at: "2026-01-15", proceeds_cents: 72_000_00, counter_account: "1010",
      picks: [{ lot_id: b.id, quantity: "0.5" }, { lot_id: a.id, quantity: "0.7" }]
    })
    expect(sold).toMatchObject({ cost_cents: 46_000_00, short_term_gain_cents: 5_000_00, long_term_gain_cents: 21_000_00 })
    const listed = (await t.get(`/v1/crypto/disposals?wallet_id=${wallet.id}&from=2026-01-01`, owner.ownerKey)).body.data
    expect(listed).toHaveLength(1)
    expect(listed[0].lots.map((lot: any) => [lot.lot_id, lot.term])).toEqual([[a.id, "long"], [b.id, "short"]])
  })

  it("refuses to dispose of more than the wallet held at that moment", async () => {
    const { owner, wallet } = await yearOfLots("fifo")
    const early = await t.post(`/v1/crypto/wallets/${wallet.id}/disposals`, owner.session, {
      kind: "spend", quantity: "1.2", disposed_at: "2025-03-01", price: "60000", counter_account: "6000"
    })
    expect(early.status).toBe(422)
    expect(early.body.error).toMatchObject({ type: "crypto_insufficient_lots", details: { available: "1" } })
  })

  it("a transfer between own wallets carries cost and dates and realizes nothing", async () => {
    const { owner, wallet, a } = await yearOfLots("fifo")
    const ypub = fixture("slip0132_xpub_ypub_zpub_test_vectors.json").entries[1].ext_pub
    const cold = await t.wallet(owner, { name: "Cold storage", key: ypub })
    const moved = await t.ok(`/v1/crypto/wallets/${wallet.id}/disposals`, owner.session, {
      kind: "transfer", quantity: "0.25", disposed_at: "2025-07-01", to_wallet_id: cold.id
    })
    expect(moved).toMatchObject({ gain_cents: 0, proceeds_cents: 7_500_00, cost_cents: 7_500_00, entry_id: null })
    const lots = (await t.get(`/v1/crypto/lots?wallet_id=${cold.id}`, owner.ownerKey)).body.data
    expect(lots).toMatchObject([{ source: "transfer", acquired_at: a.acquired_at, quantity: "0.25", cost_cents: 7_500_00 }])
    expect((await t.get("/v1/crypto/gains?from=2025-01-01&to=2025-12-31", owner.ownerKey)).body.rows).toEqual([])
  })

  it("prices a disposal from the price port when no proceeds or price are given, and records the price used", async () => {
    const { owner, wallet } = await yearOfLots("fifo")
    t.prices.set("BTC", "40000", "2025-09-01T00:00:00Z")
    const spent = await t.ok(`/v1/crypto/wallets/${wallet.id}/disposals`, owner.session, {
      kind: "spend", quantity: "0.1", disposed_at: "2025-09-02", counter_account: "6000"
    })
    expect(spent).toMatchObject({ proceeds_cents: 4_000_00, cost_cents: 3_000_00, short_term_gain_cents: 1_000_00 })
    const used = (await t.get("/v1/crypto/valuations?asset=BTC&manual=false", owner.ownerKey)).body.data
    expect(used[0]).toMatchObject({ price: "40000", manual: false, status: "confirmed" })
  })
  it("a network fee is a disposal to the fee account; lists page by cursor", async () => {
    const { owner, wallet, a, b } = await yearOfLots("fifo")
    const fee = await t.ok(`/v1/crypto/wallets/${wallet.id}/disposals`, owner.session, {
      kind: "fee", quantity: "0.0001", disposed_at: "2025-08-01", price: "50000", txid: "ab".repeat(32)
    })
    expect(fee).toMatchObject({ counter_account: "6880", proceeds_cents: 5_00, cost_cents: 3_00, short_term_gain_cents: 2_00 })
    const first = (await t.get(`/v1/crypto/lots?wallet_id=${wallet.id}&limit=1`, owner.ownerKey)).body
    expect(first).toMatchObject({ has_more: true, data: [{ id: b.id }] })
    const second = (await t.get(`/v1/crypto/lots?wallet_id=${wallet.id}&limit=1&cursor=${first.next_cursor}`, owner.ownerKey)).body
    expect(second).toMatchObject({ has_more: false, next_cursor: null, data: [{ id: a.id }] })
  })
})

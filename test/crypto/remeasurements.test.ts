import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { agentWithThreshold, createPerson } from "../support/index.ts"
import { type CryptoApp, makeCryptoApp } from "./support.ts"

/** Valuations (a person's confirmed at once, an agent's proposed) and month-end remeasurement at fair value. */

let t: CryptoApp
beforeAll(async () => {
  t = await makeCryptoApp({ clock: "2026-02-01T12:00:00Z" })
})
afterAll(() => t.close())

describe("valuations", () => {
  it("confirms a person's at once and holds an agent's for the owner or CPA to decide", async () => {
    const owner = await t.company()
    const mine = await t.ok("/v1/crypto/valuations", owner.ownerKey, { asset: "BTC", at: "2026-01-31T20:00:00Z", price: "48000", reason: "Exchange close" })
    expect(mine).toMatchObject({ status: "confirmed", manual: true, price: "48000" })
    const agent = await agentWithThreshold(t.app, { ...owner, body: {} }, { thresholdCents: 0 })
    const proposed = await t.app.call("POST", "/v1/crypto/valuations", {
      token: agent.key, headers: agent.headers, key: `k-${Date.now()}`, body: { asset: "XMR", at: "2026-01-31", price: "151.25", reason: "Kraken close" }
    })
    expect(proposed.status, JSON.stringify(proposed.body)).toBe(201)
    expect(proposed.body.status).toBe("proposed")
    const byAgent = await t.app.call("POST", `/v1/crypto/valuations/${proposed.body.id}/decide`, {
      token: agent.key, headers: agent.headers, key: `k-${Date.now()}-2`, body: { confirm: true }
    })
    expect(byAgent.status).toBe(403)
    const accountant = await createPerson(t.app, { ...owner, body: {} }, "accountant", ["read", "propose", "approve"])
    const notOwner = await t.post(`/v1/crypto/valuations/${proposed.body.id}/decide`, accountant.key, { confirm: true })
    expect(notOwner.status).toBe(403)
    const decided = await t.ok(`/v1/crypto/valuations/${proposed.body.id}/decide`, owner.ownerKey, { confirm: false }, 200)
    expect(decided).toMatchObject({ status: "rejected", decided_by: `user:${owner.ownerId}` })
    const again = await t.post(`/v1/crypto/valuations/${proposed.body.id}/decide`, owner.ownerKey, { confirm: true })
    expect(again.body.error.type).toBe("crypto_valuation_state")
    expect((await t.get("/v1/crypto/valuations?status=proposed", owner.ownerKey)).body.data).toEqual([])
  })
})

describe("month-end remeasurement (ASU 2023-08)", () => {
  it("posts holdings at fair value on the period end and reverses the entry the next day", async () => {
    const owner = await t.company({ remeasure: true })
    const wallet = await t.wallet(owner)
    await t.ok(`/v1/crypto/wallets/${wallet.id}/acquisitions`, owner.session, { quantity: "0.5", cost_cents: 20_000_00, acquired_at: "2026-01-05", offset_account: "3010" })
    await t.ok("/v1/crypto/valuations", owner.ownerKey, { asset: "BTC", at: "2026-01-31T20:00:00Z", price: "48000", reason: "Month-end close price" })
    const preview = await t.post("/v1/crypto/remeasurements", owner.session, { period_end: "2026-01-31", dry_run: true })
    expect(preview.status).toBe(200)
    expect(preview.body.document.lines).toEqual([
      { asset: "BTC", quantity: "0.5", price: "48000", price_source: "valuation", carrying_cents: 20_000_00, fair_value_cents: 24_000_00, adjustment_cents: 4_000_00 }
    ])
    const done = await t.ok("/v1/crypto/remeasurements", owner.session, { period_end: "2026-01-31" })
    expect(done).toMatchObject({ adjustment_cents: 4_000_00, reversal_date: "2026-02-01" })
    const entry = (await t.get(`/v1/journal-entries/${done.entry_id}`, owner.ownerKey)).body
    expect(entry.entry_date).toBe("2026-01-31")
    expect(entry.lines.map((line: any) => [line.account, line.debit_cents, line.credit_cents])).toEqual([["1485", 4_000_00, 0], ["4885", 0, 4_000_00]])
    const reversal = (await t.get(`/v1/journal-entries/${done.reversal_entry_id}`, owner.ownerKey)).body
    expect(reversal).toMatchObject({ entry_date: "2026-02-01", reverses_entry_id: done.entry_id })
    expect(reversal.lines.map((line: any) => [line.account, line.debit_cents, line.credit_cents])).toEqual([["1485", 0, 4_000_00], ["4885", 4_000_00, 0]])
    const twice = await t.post("/v1/crypto/remeasurements", owner.session, { period_end: "2026-01-31" })
    expect(twice.body.error.type).toBe("crypto_remeasurement_exists")
    expect((await t.get("/v1/crypto/remeasurements", owner.ownerKey)).body.data).toHaveLength(1)
  })

  it("is refused when remeasurement is off, and for a period not yet ended", async () => {
    const owner = await t.company()
    expect((await t.post("/v1/crypto/remeasurements", owner.session, { period_end: "2026-01-31" })).body.error.type).toBe("crypto_remeasure_off")
    await t.ok("/v1/crypto/settings", owner.session, { remeasure: true }, 200)
    expect((await t.post("/v1/crypto/remeasurements", owner.session, { period_end: "2026-02-28" })).status).toBe(422)
  })
})

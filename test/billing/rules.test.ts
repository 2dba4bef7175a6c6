import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { BillingRules } from "@ledger/engine/rules"

const plan = fc.constantFrom("solo", "business", "advanced") as fc.Arbitrary<BillingRules.Plan>
const interval = fc.constantFrom("month", "year") as fc.Arbitrary<BillingRules.Interval>

describe("billing rules", () => {
  it("prices are 8.2's, annual two months free", () => {
    expect([BillingRules.planPrice("solo", "month"), BillingRules.planPrice("business", "month"), BillingRules.planPrice("advanced", "month")]).toEqual([19_00, 49_00, 99_00])
    expect(BillingRules.planPrice("business", "year")).toBe(12 * 49_00 - 2 * 49_00)
    expect([BillingRules.includedFeedAccounts("solo"), BillingRules.includedFeedAccounts("business"), BillingRules.includedFeedAccounts("advanced")]).toEqual([3, 15, null])
  })

  it("classifies every change: in a trial always free and at once; annual to monthly and lower plans wait", () => {
    fc.assert(fc.property(plan, interval, plan, interval, fc.boolean(), (fromPlan, fromInterval, toPlan, toInterval, trialing) => {
      const change = BillingRules.classify({ plan: fromPlan, interval: fromInterval }, { plan: toPlan, interval: toInterval }, trialing)
      if (fromPlan === toPlan && fromInterval === toInterval) expect(change).toBe("none")
      else if (trialing) expect(change).toBe("trial")
      else if (fromInterval === "year" && toInterval === "month") expect(change).toBe("downgrade")
      else expect(change).toBe(["solo", "business", "advanced"].indexOf(toPlan) < ["solo", "business", "advanced"].indexOf(fromPlan) ? "downgrade" : "upgrade")
    }))
  })

  it("an upgrade's prorated charge is whole cents, at most the new price, and the full difference at the period's start", () => {
    const period = 30 * 86_400
    fc.assert(fc.property(plan, plan, fc.integer({ min: 0, max: period }), (from, to, remaining) => {
      const charged = BillingRules.proratedCharge({ from: { plan: from, interval: "month" }, to: { plan: to, interval: "month" }, remainingSeconds: remaining, periodSeconds: period })
      expect(Number.isInteger(charged)).toBe(true)
      expect(charged).toBeGreaterThanOrEqual(0)
      expect(charged).toBeLessThanOrEqual(BillingRules.planPrice(to, "month"))
      if (remaining === period) expect(charged).toBe(Math.max(0, BillingRules.planPrice(to, "month") - BillingRules.planPrice(from, "month")))
      if (remaining === 0) expect(charged).toBe(0)
    }))
    expect(BillingRules.proratedCharge({ from: { plan: "solo", interval: "month" }, to: { plan: "solo", interval: "year" }, remainingSeconds: 0, periodSeconds: period })).toBe(190_00)
  })

  it("maps selections to the processor's items and back", () => {
    fc.assert(fc.property(plan, interval, fc.integer({ min: 0, max: 500 }), fc.boolean(), (p, i, feeds, crypto) => {
      const selection = { plan: p, interval: i, feedAccounts: feeds, crypto }
      expect(BillingRules.selectionOf(BillingRules.items(selection))).toEqual(selection)
    }))
    expect(BillingRules.selectionOf([{ price: "someone_elses", quantity: 1 }])).toBeNull()
  })

  it("turns read-only after a cancelled period ends, or a past-due grace", () => {
    const end = Date.parse("2026-05-14T00:00:00Z")
    expect(BillingRules.readOnly("canceled", end, end - 1)).toBe(false)
    expect(BillingRules.readOnly("canceled", end, end)).toBe(true)
    expect(BillingRules.readOnly("past_due", end, end + 13 * 86_400_000)).toBe(false)
    expect(BillingRules.readOnly("past_due", end, end + 14 * 86_400_000)).toBe(true)
    expect(BillingRules.readOnly("active", end, end + 365 * 86_400_000)).toBe(false)
    // Set to cancel at the period's end: read-only from that end even before the processor's event.
    expect(BillingRules.readOnly("active", end, end - 1, true)).toBe(false)
    expect(BillingRules.readOnly("active", end, end, true)).toBe(true)
  })

  it("read-only is a moment: never before it, always after it, and no moment for a live subscription", () => {
    const status = fc.constantFrom("none", "trialing", "active", "past_due", "canceled", "incomplete")
    fc.assert(fc.property(status, fc.option(fc.integer({ min: 0, max: 4e12 }), { nil: null }), fc.boolean(), fc.integer({ min: 0, max: 5e12 }), fc.nat(1e11),
      (state, end, cancelAtEnd, now, later) => {
        const since = BillingRules.readOnlySince(state, end, cancelAtEnd)
        expect(BillingRules.readOnly(state, end, now, cancelAtEnd)).toBe(since !== null && now >= since)
        // Once read-only, it stays so as time passes.
        if (BillingRules.readOnly(state, end, now, cancelAtEnd)) expect(BillingRules.readOnly(state, end, now + later, cancelAtEnd)).toBe(true)
        if (end === null || ((state === "trialing" || state === "active") && !cancelAtEnd) || state === "none") expect(since).toBeNull()
      }))
  })

  it("meters usage over the subscription's current period, else the calendar month", () => {
    const end = Date.parse("2026-05-14T00:00:00Z")
    expect(BillingRules.usagePeriod(end, "month", end - 1)).toEqual([Date.parse("2026-04-14T00:00:00Z"), end])
    expect(BillingRules.usagePeriod(end, "year", end - 1)).toEqual([Date.parse("2025-05-14T00:00:00Z"), end])
    expect(BillingRules.usagePeriod(null, null, Date.parse("2026-02-20T10:00:00Z"))).toEqual([Date.parse("2026-02-01T00:00:00Z"), Date.parse("2026-03-01T00:00:00Z")])
    fc.assert(fc.property(fc.option(fc.integer({ min: 1e12, max: 4e12 }), { nil: null }), fc.option(interval, { nil: null }), fc.integer({ min: 1e12, max: 4e12 }), (periodEnd, every, now) => {
      const [from, to] = BillingRules.usagePeriod(periodEnd, every, now)
      // The period holds now, and is at most a year and a day long.
      expect(from <= now && now < to).toBe(true)
      expect(to - from).toBeLessThanOrEqual(367 * 86_400_000)
    }))
  })

  it("names every item it changes by id: a plan change replaces the plan item, an add-on is added, one dropped is deleted", () => {
    const current = [{ id: "si_plan", price: "ledger_business_month", quantity: 1 }, { id: "si_feeds", price: "ledger_feed_account_month", quantity: 2 }, { id: "si_other", price: "price_someone_else", quantity: 1 }]
    expect(BillingRules.itemChanges(current, BillingRules.items({ plan: "solo", interval: "month", feedAccounts: 2, crypto: true }))).toEqual([
      { id: "si_plan", price: "ledger_solo_month", quantity: 1 },
      { id: "si_feeds", quantity: 2 },
      { price: "ledger_crypto_month", quantity: 1 }
    ])
    expect(BillingRules.itemChanges(current, BillingRules.items({ plan: "business", interval: "month", feedAccounts: 0, crypto: false }))).toEqual([
      { id: "si_plan", quantity: 1 },
      { id: "si_feeds", deleted: true }
    ])
    // Whatever the change, no price is asked for twice and no item of ours is left without a change.
    fc.assert(fc.property(plan, interval, fc.nat(20), fc.boolean(), plan, interval, fc.nat(20), fc.boolean(), (p1, i1, f1, c1, p2, i2, f2, c2) => {
      const before = BillingRules.items({ plan: p1, interval: i1, feedAccounts: f1, crypto: c1 }).map((item, index) => ({ ...item, id: `si_${index}` }))
      const after = BillingRules.items({ plan: p2, interval: i2, feedAccounts: f2, crypto: c2 })
      const changes = BillingRules.itemChanges(before, after)
      const kept = before.filter((item) => !changes.some((change) => change.id === item.id && change.deleted === true))
        .map((item) => { const change = changes.find((one) => one.id === item.id); return { price: change?.price ?? item.price, quantity: change?.quantity ?? item.quantity } })
      const added = changes.filter((change) => change.id === undefined).map((change) => ({ price: change.price!, quantity: change.quantity! }))
      const result = [...kept, ...added]
      expect(new Set(result.map((item) => item.price)).size).toBe(result.length)
      expect([...result].sort((a, b) => a.price.localeCompare(b.price))).toEqual([...after].sort((a, b) => a.price.localeCompare(b.price)))
      expect(before.every((item) => changes.some((change) => change.id === item.id))).toBe(true)
    }))
  })
})

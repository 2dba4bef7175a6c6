import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { BillingRules } from "../../packages/engine/src/billing/index.ts"

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
  })
})

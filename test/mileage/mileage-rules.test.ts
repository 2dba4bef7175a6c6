import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { MileageRates as Rates, MileageRules as Rules } from "@ledger/engine/rules"

const date2026 = fc.integer({ min: 0, max: 364 }).map((day) => new Date(Date.UTC(2026, 0, 1 + day)).toISOString().slice(0, 10))
const trip = fc.record({ date: date2026, tenths: fc.integer({ min: 1, max: 50_000 }) })

describe("mileage rules", () => {
  it("reads miles with one decimal exactly as tenths", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 50_000 }), (tenths) => {
      expect(Rules.toTenths(Number((tenths / 10).toFixed(1)))).toBe(tenths)
      expect(Rules.toTenths(Rules.toMiles(tenths))).toBe(tenths)
    }))
  })

  it("rounds the standard amount once, half up, within half a cent of the exact product", () => {
    fc.assert(fc.property(fc.array(trip, { maxLength: 60 }), (trips) => {
      const { cents, unrated } = Rules.standardAmount(trips)
      expect(unrated).toEqual([])
      const exactHundredths = trips.reduce((sum, one) => sum + one.tenths * 725, 0)
      // |cents - exact/100| <= 1/2, and exactly .5 rounds up.
      expect(Math.abs(cents * 100 - exactHundredths)).toBeLessThanOrEqual(50)
      if (exactHundredths % 100 === 50) expect(cents * 100 - exactHundredths).toBe(50)
      expect(Number.isInteger(cents)).toBe(true)
    }))
  })

  it("never loses a cent by splitting a year's trips: the sum of parts is within a cent per part of the whole", () => {
    fc.assert(fc.property(fc.array(trip, { minLength: 1, maxLength: 40 }), fc.integer({ min: 1, max: 5 }), (trips, parts) => {
      const whole = Rules.standardAmount(trips).cents
      const chunks = Array.from({ length: parts }, (_, index) => trips.filter((_, position) => position % parts === index))
      const sum = chunks.reduce((total, chunk) => total + Rules.standardAmount(chunk).cents, 0)
      expect(Math.abs(sum - whole)).toBeLessThanOrEqual(parts)
    }))
  })

  it("uses each period's rate in a year whose rate changed (2022)", () => {
    expect(Rules.standardAmount([{ date: "2022-06-30", tenths: 1000 }, { date: "2022-07-01", tenths: 1000 }]).cents).toBe(5850 + 6250)
    expect(Rules.standardAmount([{ date: "2019-05-01", tenths: 10 }]).unrated).toEqual(["2019-05-01"])
    expect(Rates.centsText(725)).toBe("72.5")
  })

  it("keeps business use and the business share of expenses within their bounds", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 1_000_000 }), fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 0, max: 10_000_000_00 }), (business, total, expenses) => {
      const ppm = Rules.businessUsePpm(business, total)
      expect(ppm).toBeGreaterThanOrEqual(0)
      expect(ppm).toBeLessThanOrEqual(1_000_000)
      const share = Rules.businessShare(expenses, business, total)
      expect(share).toBeGreaterThanOrEqual(0)
      expect(share).toBeLessThanOrEqual(expenses)
      const exact = (expenses * Math.min(business, total)) / total
      expect(Math.abs(share - exact)).toBeLessThanOrEqual(0.5 + 1e-6)
    }))
  })

  it("schedules each date once, on the right weekday or day of month, inside the schedule", () => {
    fc.assert(fc.property(
      fc.subarray([1, 2, 3, 4, 5, 6, 7], { minLength: 1 }),
      fc.integer({ min: 1, max: 28 }),
      date2026,
      fc.integer({ min: 0, max: 400 }),
      (weekdays, day, start, span) => {
        const through = new Date(Date.parse(`${start}T00:00:00Z`) + span * 86_400_000).toISOString().slice(0, 10)
        const weekly = Rules.occurrences({ frequency: "weekly", weekdays, dayOfMonth: null, startDate: start, endDate: null }, through, 10_000)
        expect(new Set(weekly).size).toBe(weekly.length)
        for (const date of weekly) {
          expect(weekdays).toContain(Rules.isoWeekday(date))
          expect(date >= start && date <= through).toBe(true)
        }
        const monthly = Rules.occurrences({ frequency: "monthly", weekdays: [], dayOfMonth: day, startDate: start, endDate: null }, through, 10_000)
        for (const date of monthly) expect(Number(date.slice(8, 10))).toBe(day)
        expect([...monthly].sort()).toEqual(monthly)
      }
    ))
  })
})

import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Calendar, Recurrence } from "@ledger/engine/rules"
const { addMonthsClamped, daysInMonth } = Calendar
const { nextAfter, occurrence, occurrencesThrough } = Recurrence
type Schedule = Recurrence.Schedule

const dateArbitrary = fc.record({
  year: fc.integer({ min: 1990, max: 2090 }),
  month: fc.integer({ min: 1, max: 12 }),
  day: fc.integer({ min: 1, max: 31 })
}).map(({ year, month, day }) =>
  `${year}-${String(month).padStart(2, "0")}-${String(Math.min(day, daysInMonth(year, month))).padStart(2, "0")}`
)

const parts = (date: string) => date.split("-").map(Number) as [number, number, number]

describe("recurrence dates", () => {
  it("clamps month ends from the start date's day, never from the previous occurrence", () => {
    const schedule: Schedule = { frequency: "monthly", intervalCount: 1, startDate: "2023-01-31", endDate: null }
    expect(occurrencesThrough(schedule, "2023-05-31")).toEqual(["2023-01-31", "2023-02-28", "2023-03-31", "2023-04-30", "2023-05-31"])
    expect(occurrencesThrough({ ...schedule, startDate: "2024-01-31" }, "2024-03-31")).toEqual(["2024-01-31", "2024-02-29", "2024-03-31"])
    expect(occurrencesThrough({ ...schedule, frequency: "yearly", startDate: "2024-02-29" }, "2028-03-01"))
      .toEqual(["2024-02-29", "2025-02-28", "2026-02-28", "2027-02-28", "2028-02-29"])
    expect(occurrencesThrough({ ...schedule, frequency: "quarterly", startDate: "2023-11-30" }, "2024-12-31"))
      .toEqual(["2023-11-30", "2024-02-29", "2024-05-30", "2024-08-30", "2024-11-30"])
    expect(occurrencesThrough({ ...schedule, frequency: "weekly", intervalCount: 2, startDate: "2024-02-26" }, "2024-03-31"))
      .toEqual(["2024-02-26", "2024-03-11", "2024-03-25"])
    expect(occurrencesThrough({ ...schedule, endDate: "2023-03-15" }, "2023-12-31")).toEqual(["2023-01-31", "2023-02-28"])
  })

  it("every monthly-type occurrence keeps the start day, or the month's last day when the month is shorter", () => {
    fc.assert(fc.property(
      dateArbitrary,
      fc.constantFrom("monthly" as const, "quarterly" as const, "yearly" as const),
      fc.integer({ min: 1, max: 12 }),
      fc.integer({ min: 0, max: 60 }),
      (startDate, frequency, intervalCount, n) => {
        const date = occurrence({ frequency, intervalCount, startDate, endDate: null }, n)
        const [startYear, startMonth, startDay] = parts(startDate)
        const [year, month, day] = parts(date)
        const step = { monthly: 1, quarterly: 3, yearly: 12 }[frequency] * intervalCount
        expect((year * 12 + month) - (startYear * 12 + startMonth)).toBe(step * n)
        expect(day).toBe(Math.min(startDay, daysInMonth(year, month)))
      }
    ), { numRuns: 2000 })
  })

  it("occurrences are strictly increasing, start on the start date, stop at through and the end date", () => {
    fc.assert(fc.property(
      dateArbitrary,
      fc.constantFrom("weekly" as const, "monthly" as const, "quarterly" as const, "yearly" as const),
      fc.integer({ min: 1, max: 6 }),
      fc.integer({ min: 0, max: 1500 }),
      fc.option(fc.integer({ min: 0, max: 1500 }), { nil: null }),
      (startDate, frequency, intervalCount, throughDays, endDays) => {
        const shift = (days: number) => new Date(Date.parse(startDate) + days * 86_400_000).toISOString().slice(0, 10)
        const through = shift(throughDays)
        const schedule: Schedule = { frequency, intervalCount, startDate, endDate: endDays === null ? null : shift(endDays) }
        const dates = occurrencesThrough(schedule, through)
        expect(dates[0]).toBe(startDate)
        for (let index = 1; index < dates.length; index++) expect(dates[index]! > dates[index - 1]!).toBe(true)
        for (const date of dates) {
          expect(date <= through).toBe(true)
          if (schedule.endDate !== null) expect(date <= schedule.endDate).toBe(true)
        }
        // The next date after the last generated one lies beyond the window: nothing is skipped.
        const next = nextAfter(schedule, dates[dates.length - 1] ?? null)
        if (next !== null) expect(next > through || (schedule.endDate !== null && next > schedule.endDate)).toBe(true)
      }
    ), { numRuns: 1000 })
  })

  it("adds months across year ends and leap years", () => {
    expect(addMonthsClamped("2023-12-31", 2)).toBe("2024-02-29")
    expect(addMonthsClamped("2100-01-31", 1)).toBe("2100-02-28")
    expect(addMonthsClamped("2000-01-31", 1)).toBe("2000-02-29")
    expect(addMonthsClamped("2024-03-15", -3)).toBe("2023-12-15")
  })
})

describe("the edges of the calendar", () => {
  it("stops at year 9999 instead of comparing five-digit years as text", () => {
    const schedule: Schedule = { frequency: "yearly", intervalCount: 1, startDate: "9997-02-28", endDate: null }
    expect(occurrencesThrough(schedule, "9999-12-31")).toEqual(["9997-02-28", "9998-02-28", "9999-02-28"])
    expect(nextAfter(schedule, "9999-02-28")).toBeNull()
    expect(occurrencesThrough({ ...schedule, frequency: "weekly", startDate: "9999-12-20" }, "9999-12-31")).toEqual(["9999-12-20", "9999-12-27"])
    expect(addMonthsClamped("0001-01-31", 1)).toBe("0001-02-28")
  })
})

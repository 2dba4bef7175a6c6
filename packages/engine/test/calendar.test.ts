import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { ReportDates } from "@ledger/engine/rules"
import * as Calendar from "../src/kernel/values/Calendar.ts"

/**
 * The engine's one calendar (kernel/values/Calendar.ts). The references below are the copies it
 * replaced, kept here as oracles: on the dates the API accepts (years 1000 to 9999) the shared
 * functions give what each copy gave.
 */

const day = fc.date({ min: new Date("1000-01-01T00:00:00Z"), max: new Date("9998-12-31T00:00:00Z"), noInvalidDate: true })
  .map((date) => date.toISOString().slice(0, 10))
const days = fc.integer({ min: -36_500, max: 36_500 })
const months = fc.integer({ min: -1_200, max: 1_200 })

/** Reports', estimated taxes', bank matching's and the testkit's addDays. */
const addDaysReference = (date: string, count: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + count * 86_400_000).toISOString().slice(0, 10)

/** Bank feeds' addMonths: the same day, held to the target month's last day. */
const addMonthsReference = (date: string, count: number) => {
  const year = Number(date.slice(0, 4))
  const month = Number(date.slice(5, 7)) - 1 + count
  const target = new Date(Date.UTC(year, month, 1))
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate()
  return new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth(), Math.min(Number(date.slice(8, 10)), last))).toISOString().slice(0, 10)
}

/** AI consents' addYears. */
const addYearsReference = (date: string, count: number) => {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number]
  const value = new Date(Date.UTC(y + count, m - 1, d))
  if (value.getUTCMonth() !== m - 1) value.setUTCDate(0)
  return value.toISOString().slice(0, 10)
}

const isLeap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0

describe("days", () => {
  it("addDays gives what the copies it replaced gave", () => {
    fc.assert(fc.property(day, days, (date, count) => {
      fc.pre(Number(addDaysReference(date, count).slice(0, 4)) >= 1000)
      expect(Calendar.addDays(date, count)).toBe(addDaysReference(date, count))
    }))
  })

  it("addDays and daysBetween undo each other", () => {
    fc.assert(fc.property(day, days, (date, count) => {
      const later = Calendar.addDays(date, count)
      expect(Calendar.daysBetween(date, later)).toBe(count)
      expect(Calendar.addDays(later, -count)).toBe(date)
    }))
  })

  it("more days is a later date, in text order too", () => {
    fc.assert(fc.property(day, days, days, (date, a, b) => {
      fc.pre(a < b)
      const [first, second] = [Calendar.addDays(date, a), Calendar.addDays(date, b)]
      fc.pre(Calendar.isCalendarDate(first) && Calendar.isCalendarDate(second))
      expect(first < second).toBe(true)
    }))
  })

  it("counts leap days and reads years below 100 as they are written", () => {
    expect(Calendar.addDays("2024-02-28", 1)).toBe("2024-02-29")
    expect(Calendar.addDays("2100-02-28", 1)).toBe("2100-03-01")
    expect(Calendar.addDays("2000-02-28", 1)).toBe("2000-02-29")
    expect(Calendar.daysBetween("2024-01-01", "2025-01-01")).toBe(366)
    expect(Calendar.addDays("0099-12-31", 1)).toBe("0100-01-01")
    expect(Calendar.addDays("0004-03-01", -1)).toBe("0004-02-29")
  })

  it("addDaysToInstant keeps the time of day", () => {
    expect(Calendar.addDaysToInstant("2026-01-31T10:11:12.345Z", 30)).toBe("2026-03-02T10:11:12.345Z")
    expect(Calendar.addDaysToInstant("2026-03-02T10:11:12.345Z", -30)).toBe("2026-01-31T10:11:12.345Z")
  })
})

describe("months and years", () => {
  it("addMonthsClamped keeps the day, held to the month's end, and gives what bank feeds gave", () => {
    fc.assert(fc.property(day, months, (date, count) => {
      const moved = Calendar.addMonthsClamped(date, count)
      fc.pre(Calendar.isCalendarDate(moved) && moved >= "1000")
      expect(moved).toBe(addMonthsReference(date, count))
      const [year, month] = [Number(moved.slice(0, 4)), Number(moved.slice(5, 7))]
      expect(Number(moved.slice(8, 10))).toBe(Math.min(Number(date.slice(8, 10)), Calendar.daysInMonth(year, month)))
      expect(year * 12 + month).toBe(Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) + count)
    }))
  })

  it("clamps at a month's end and does not carry the clamp on", () => {
    expect(Calendar.addMonthsClamped("2025-01-31", 1)).toBe("2025-02-28")
    expect(Calendar.addMonthsClamped("2024-01-31", 1)).toBe("2024-02-29")
    expect(Calendar.addMonthsClamped("2025-01-31", 2)).toBe("2025-03-31")
    expect(Calendar.addMonthsClamped("2025-03-31", -1)).toBe("2025-02-28")
    expect(Calendar.addMonthsClamped("2025-05-15", -17)).toBe("2023-12-15")
  })

  it("daysInMonth follows the Gregorian leap years", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 9999 }), (year) => {
      expect(Calendar.daysInMonth(year, 2)).toBe(isLeap(year) ? 29 : 28)
    }))
  })

  it("addYears moves 29 February to 28 February, and gives what consents gave", () => {
    expect(Calendar.addYears("2024-02-29", 1)).toBe("2025-02-28")
    expect(Calendar.addYears("2024-02-29", 4)).toBe("2028-02-29")
    expect(Calendar.addYears("2024-02-29", -100)).toBe("1924-02-29")
    expect(Calendar.addYears("2000-02-29", 100)).toBe("2100-02-28")
    fc.assert(fc.property(day, fc.integer({ min: -100, max: 100 }), (date, count) => {
      fc.pre(Number(date.slice(0, 4)) + count <= 9999)
      expect(Calendar.addYears(date, count)).toBe(addYearsReference(date, count))
      expect(Calendar.addYears(Calendar.addYears(date, count), -count) <= date).toBe(true)
    }))
  })

  it("reports' addMonths is the first day of the month it lands in", () => {
    fc.assert(fc.property(day, fc.integer({ min: -100, max: 100 }), (date, count) => {
      expect(ReportDates.addMonths(date, count)).toBe(`${Calendar.addMonthsClamped(date, count).slice(0, 7)}-01`)
    }))
    expect(ReportDates.addMonths("2025-01-31", 1)).toBe("2025-02-01")
    expect(ReportDates.addMonths("2025-01-15", -1)).toBe("2024-12-01")
  })
})

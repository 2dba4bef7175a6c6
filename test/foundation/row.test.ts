import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Row } from "@ledger/engine"

/**
 * Every timestamp the API shows is written by `Row.iso`, which formats instants itself instead of
 * calling `Date.prototype.toISOString` (docs/performance.md): its text must be exactly what
 * `toISOString` writes, for any instant, in any order of calls (it remembers the last day).
 */

/** The range of a JavaScript Date: ±100,000,000 days around 1970. */
const dateRangeMilliseconds = 8_640_000_000_000_000
const fourDigitYearsEndMilliseconds = Date.parse("+010000-01-01T00:00:00.000Z")

describe("Row.iso", () => {
  it("writes what toISOString writes, for any instant a Date holds", () => {
    fc.assert(fc.property(fc.integer({ min: -dateRangeMilliseconds, max: dateRangeMilliseconds }), (milliseconds) => {
      const date = new Date(milliseconds)
      expect(Row.iso(date)).toBe(date.toISOString())
    }), { numRuns: 20_000 })
  })

  it("writes what toISOString writes for runs of instants that share days, as a page's rows do", () => {
    const day = fc.integer({ min: 0, max: Math.floor(fourDigitYearsEndMilliseconds / 86_400_000) - 1 })
    const instant = fc.tuple(day, fc.integer({ min: 0, max: 86_399_999 })).map(([days, within]) => days * 86_400_000 + within)
    const run = fc.array(fc.oneof(instant, fc.constantFrom(0, 951_782_400_000, fourDigitYearsEndMilliseconds - 1)), { minLength: 1, maxLength: 50 })
    fc.assert(fc.property(fc.array(run, { minLength: 1, maxLength: 5 }), (runs) => {
      // Repeats of the same instants interleaved with others exercise the remembered day.
      for (const milliseconds of runs.flat().concat(runs.flat().reverse())) {
        expect(Row.iso(new Date(milliseconds))).toBe(new Date(milliseconds).toISOString())
      }
    }), { numRuns: 500 })
  })

  it("writes the edges of the calendar and of the four-digit years exactly", () => {
    for (const text of [
      "1970-01-01T00:00:00.000Z",
      "1969-12-31T23:59:59.999Z",
      "2000-02-29T12:00:00.001Z",
      "2100-02-28T23:59:59.999Z",
      "2100-03-01T00:00:00.000Z",
      "2024-12-31T23:59:59.999Z",
      "2026-11-25T10:06:51.120Z",
      "9999-12-31T23:59:59.999Z",
      "+010000-01-01T00:00:00.000Z",
      "-000001-12-31T00:00:00.000Z"
    ]) {
      expect(Row.iso(new Date(text))).toBe(text)
    }
  })

  it("reads a driver's text form the same way", () => {
    expect(Row.iso("2026-11-25 10:06:51.123456+00")).toBe("2026-11-25T10:06:51.123Z")
    expect(Row.iso("2026-11-25T12:06:51.5+02:00")).toBe("2026-11-25T10:06:51.500Z")
  })

  it("refuses an invalid date as toISOString does", () => {
    expect(() => Row.iso(new Date(Number.NaN))).toThrow(RangeError)
  })
})

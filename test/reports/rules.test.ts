import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { Effect, Result } from "effect"
import { GeneralLedgerRules as GeneralLedger, ReportChart, ReportCsv as Csv, ReportDates, SafeTotals, YearEndClose } from "@ledger/engine/rules"

/** The reports' pure rules: date splits, fiscal years, CSV, the year-end close, sections, cursors. */

const day = fc.integer({ min: 0, max: 3 * 366 }).map((offset) => ReportDates.addDays("2023-11-15", offset))

/** Every day a split sums, expanded: whole months to their days, plus loose days, less the days taken out. */
const daysOf = (split: ReportDates.Split, floor: string): Array<string> => {
  const counts = new Map<string, number>()
  const spread = (from: string, to: string, by: number) => {
    for (let current = from; current <= to; current = ReportDates.addDays(current, 1)) counts.set(current, (counts.get(current) ?? 0) + by)
  }
  if (split.months !== null) spread(split.months.from ?? floor, ReportDates.monthEnd(split.months.to), 1)
  for (const days of split.days) spread(days.from, days.to, 1)
  for (const days of split.daysOut) spread(days.from, days.to, -1)
  for (const count of counts.values()) expect(count === 0 || count === 1).toBe(true)
  return Array.from(counts).filter(([, count]) => count === 1).map(([date]) => date).sort()
}

const lengthOf = (days: ReportDates.Span) => Math.round((Date.parse(days.to) - Date.parse(days.from)) / 86_400_000) + 1

describe("ReportDates.split", () => {
  it("sums every day of a range exactly once, from whole months and at most half a month of loose days at each end", () => {
    fc.assert(fc.property(day, day, fc.boolean(), (left, right, open) => {
      const [from, to] = left <= right ? [left, right] : [right, left]
      const floor = "2023-01-01"
      const split = ReportDates.split({ from: open ? null : from, to })
      const expected: Array<string> = []
      for (let current = open ? floor : from; current <= to; current = ReportDates.addDays(current, 1)) expected.push(current)
      expect(daysOf(split, floor)).toEqual(expected)
      expect(split.days.length + split.daysOut.length).toBeLessThanOrEqual(2)
      for (const days of [...split.days, ...split.daysOut]) expect(lengthOf(days)).toBeLessThanOrEqual(16)
      if (split.months !== null) {
        expect(split.months.to.endsWith("-01")).toBe(true)
        if (split.months.from !== null) expect(split.months.from.endsWith("-01")).toBe(true)
      }
    }))
  })

  it("reads a month's row alone at its end, less the days after a late date, plus the days up to an early one", () => {
    expect(ReportDates.split({ from: null, to: "2025-02-28" })).toEqual({ months: { from: null, to: "2025-02-01" }, days: [], daysOut: [] })
    expect(ReportDates.split({ from: null, to: "2025-12-20" })).toEqual({
      months: { from: null, to: "2025-12-01" },
      days: [],
      daysOut: [{ from: "2025-12-21", to: "2025-12-31" }]
    })
    expect(ReportDates.split({ from: "2025-01-10", to: "2025-03-05" })).toEqual({
      months: { from: "2025-01-01", to: "2025-02-01" },
      days: [{ from: "2025-03-01", to: "2025-03-05" }],
      daysOut: [{ from: "2025-01-01", to: "2025-01-09" }]
    })
    expect(ReportDates.split({ from: "2025-08-05", to: "2025-08-05" })).toEqual({ months: null, days: [{ from: "2025-08-05", to: "2025-08-05" }], daysOut: [] })
  })
})

describe("fiscal years", () => {
  it("starts on the first of the start month on or before the date", () => {
    expect(ReportDates.fiscalYearStart("2026-03-15", 7)).toBe("2025-07-01")
    expect(ReportDates.fiscalYearStart("2026-07-01", 7)).toBe("2026-07-01")
    expect(ReportDates.fiscalYearStart("2026-03-15", 1)).toBe("2026-01-01")
    expect(ReportDates.fiscalYearStart("2026-01-31", 2)).toBe("2025-02-01")
  })

  it("lists the fiscal-year starts after `from` up to `to`", () => {
    expect(ReportDates.fiscalYearStartsWithin({ from: "2024-07-01", to: "2026-07-01" }, 7)).toEqual(["2025-07-01", "2026-07-01"])
    expect(ReportDates.fiscalYearStartsWithin({ from: "2025-01-01", to: "2025-12-31" }, 1)).toEqual([])
  })

  it("defaults the range to the fiscal year to date, and refuses one that ends before it starts", () => {
    expect(ReportDates.span({}, "2026-03-15", 7)).toEqual(Result.succeed({ from: "2025-07-01", to: "2026-03-15" }))
    expect(ReportDates.span({ to: "2025-12-31" }, "2026-03-15", 4)).toEqual(Result.succeed({ from: "2025-04-01", to: "2025-12-31" }))
    expect(Result.isFailure(ReportDates.span({ from: "2026-03-16" }, "2026-03-15", 1))).toBe(true)
  })
})

describe("Csv", () => {
  it("writes cents as exact decimals with two places", () => {
    fc.assert(fc.property(fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), (cents) => {
      const text = Csv.amount(cents)
      expect(text).toMatch(/^-?\d+\.\d{2}$/u)
      expect(BigInt(text.replace(".", ""))).toBe(BigInt(cents))
    }))
    expect(Csv.amount(-5)).toBe("-0.05")
    expect(Csv.amount(123_456)).toBe("1234.56")
  })

  it("quotes separators and keeps text from running as a spreadsheet formula", () => {
    const content = Csv.render(["Name", "Amount"], [["=HYPERLINK(\"x\")", Csv.cents(-150)], ["Smith, \"Jo\"", Csv.cents(5)]])
    expect(content).toBe("Name,Amount\r\n\"'=HYPERLINK(\"\"x\"\")\",-1.50\r\n\"Smith, \"\"Jo\"\"\",0.05\r\n")
  })
})

const account = (id: number, code: string, type: ReportChart.ReportAccount["type"], subtype: string | null = null, parentCode: string | null = null) =>
  ({ id, code, name: code, type, subtype, parentCode }) satisfies ReportChart.ReportAccount

describe("YearEndClose.close", () => {
  const accounts = [account(1, "1010", "asset"), account(2, "3900", "equity", "retained_earnings"), account(3, "4000", "income"), account(4, "6000", "expense")]

  it("keeps the books balanced and moves earlier years' income into retained earnings", () => {
    const totals = fc.record({ debitCents: fc.integer({ min: 0, max: 10 ** 9 }), creditCents: fc.integer({ min: 0, max: 10 ** 9 }) })
    fc.assert(fc.property(fc.array(totals, { minLength: 8, maxLength: 8 }), fc.boolean(), (drawn, hasRetained) => {
      const toDate = new Map(accounts.map((item, index) => [item.id, drawn[index]!]))
      const beforeYear = new Map(accounts.map((item, index) => [item.id, drawn[index + 4]!]))
      const closed = YearEndClose.close(accounts, hasRetained ? 2 : null, { toDate, beforeYear }, (values) => SafeTotals.sum(values)!)
      const net = (totals: { debitCents: number; creditCents: number }) => totals.debitCents - totals.creditCents
      const before = accounts.reduce((sum, item) => sum + net(toDate.get(item.id)!), 0)
      const after = Array.from(closed.nets.values()).reduce((sum, value) => sum + value, 0)
      // The close moves amounts between accounts; with no retained earnings account they sit apart.
      expect(after - (hasRetained ? 0 : closed.earlierYearsEarnings) + 0).toBe(before + 0)
      // `+ 0` turns a negative zero into zero, which toBe would tell apart.
      expect(closed.earlierYearsEarnings + 0).toBe(-(net(beforeYear.get(3)!) + net(beforeYear.get(4)!)) + 0)
      expect(closed.currentYearEarnings + 0).toBe(-(closed.nets.get(3)! + closed.nets.get(4)!) + 0)
    }))
  })
})

describe("ReportChart.profitAndLossSection", () => {
  it("puts cost-of-sales subtypes, and their sub-accounts, in cost of goods sold", () => {
    const chart = [
      account(1, "4000", "income", "sales"),
      account(2, "5000", "expense", "cost_of_goods_sold"),
      account(3, "5010", "expense", "freight", "5000"),
      account(4, "5100", "expense", "cost_of_services"),
      account(5, "6000", "expense", "advertising")
    ]
    const byCode = new Map(chart.map((item) => [item.code, item]))
    expect(chart.map((item) => ReportChart.profitAndLossSection(item, byCode))).toEqual([
      "income",
      "cost_of_goods_sold",
      "cost_of_goods_sold",
      "cost_of_goods_sold",
      "expenses"
    ])
  })
})

describe("general ledger cursors", () => {
  it("round-trip, and anything else is refused", () => {
    fc.assert(fc.property(
      fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._-]{0,19}$/u),
      day,
      fc.nat(),
      fc.integer({ min: 0, max: 500 }),
      (code, date, entryId, lineNo) => {
        const cursor = { code, date, entryId, lineNo }
        expect(Effect.runSync(GeneralLedger.decodeCursor(GeneralLedger.encodeCursor(cursor)))).toEqual(cursor)
      }
    ))
    for (const forged of ["", "e30", "WyIxMDEwIl0", "not a cursor"]) {
      expect(Effect.runSync(Effect.flip(GeneralLedger.decodeCursor(forged))).type).toBe("invalid_request")
    }
  })

  it("orders a year-end close line before the entries of its day", () => {
    const close = { date: "2025-07-01", entryId: 0, lineNo: 0 }
    expect(GeneralLedger.comparePositions(close, { date: "2025-07-01", entryId: 5, lineNo: 1 })).toBeLessThan(0)
    expect(GeneralLedger.comparePositions(close, { date: "2025-06-30", entryId: 900, lineNo: 9 })).toBeGreaterThan(0)
  })
})

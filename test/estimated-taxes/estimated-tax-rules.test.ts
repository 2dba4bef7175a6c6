import fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as DueDates from "../../packages/engine/src/estimated-taxes/DueDates.ts"
import * as Tables from "../../packages/engine/src/estimated-taxes/TaxTables.ts"
import * as Worksheet from "../../packages/engine/src/estimated-taxes/WorksheetRules.ts"

const anyDate = fc.integer({ min: 0, max: 365 * 30 }).map((day) => new Date(Date.UTC(2010, 0, 1 + day)).toISOString().slice(0, 10))
const nextDay = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)

describe("estimated-tax rules", () => {
  it("rolls a date forward to the first business day on or after it, never more than four days", () => {
    fc.assert(fc.property(anyDate, (date) => {
      const due = DueDates.rollForward(date)
      expect(due >= date).toBe(true)
      expect(DueDates.isBusinessDay(due)).toBe(true)
      for (let day = date; day < due; day = nextDay(day)) expect(DueDates.isBusinessDay(day)).toBe(false)
      expect(Date.parse(due) - Date.parse(date)).toBeLessThanOrEqual(4 * 86_400_000)
      expect(DueDates.rollForward(due)).toBe(due)
    }))
  })

  it("knows the dates the IRS published", () => {
    // IRS: 2022 returns due April 18 (Emancipation Day observed Friday April 15); 2023 due April 18 (observed Monday April 17).
    expect(DueDates.rollForward("2022-04-15")).toBe("2022-04-18")
    expect(DueDates.rollForward("2023-04-15")).toBe("2023-04-18")
    // The fourth 2023 installment: January 15, 2024 was Martin Luther King Jr. Day -> January 16.
    expect(DueDates.dueDates(2023, "individual")[3]).toBe("2024-01-16")
    expect(DueDates.dueDates(2025, "individual")).toEqual(["2025-04-15", "2025-06-16", "2025-09-15", "2026-01-15"])
    expect(DueDates.dueDates(2024, "corporation")[3]).toBe("2024-12-16")
  })

  it("splits installments that sum to the total and differ by at most a cent", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 1_000_000_000_00 }), (total) => {
      const parts = Worksheet.quarters(total)
      expect(parts.reduce((a, b) => a + b, 0)).toBe(total)
      expect(Math.max(...parts) - Math.min(...parts)).toBeLessThanOrEqual(1)
    }))
  })

  it("taxes more income at least as much, and never more than the top rate", () => {
    const tables = Tables.tablesOf(2026)!
    fc.assert(fc.property(fc.integer({ min: 0, max: 100_000_000_00 }), fc.integer({ min: 0, max: 1_000_000_00 }), fc.constantFrom<Tables.FilingStatus>("single", "mfj", "mfs", "hoh"), (income, more, status) => {
      const tax = Worksheet.bracketTax(income, tables, status)
      expect(Worksheet.bracketTax(income + more, tables, status)).toBeGreaterThanOrEqual(tax)
      expect(tax).toBeLessThanOrEqual(Math.ceil(income * 0.37))
    }))
  })

  it("requires the lower safe harbor, and no payments under the $1,000 threshold", () => {
    const tables = Tables.tablesOf(2026)!
    const base: Worksheet.Inputs = {
      returnType: "SCHC", incomeCents: 0, adjustmentsCents: 0, ownerSharePpm: 1_000_000, seTax: true, filingStatus: "single",
      otherIncomeCents: 0, wagesSsCents: 0, deductionsCents: null, qbiDeductionCents: null, creditsCents: 0, withholdingCents: 0,
      priorYearTaxCents: null, priorYearHighAgi: false, priorYearFull: true, largeCorporation: false, safeHarbor: "lower"
    }
    fc.assert(fc.property(fc.integer({ min: 0, max: 50_000_000 }), fc.option(fc.integer({ min: 0, max: 5_000_000 }), { nil: null }), (income, prior) => {
      const result = Worksheet.compute({ ...base, incomeCents: income, priorYearTaxCents: prior }, tables)
      const candidates = [result.currentYearSafeHarborCents, ...(result.priorYearSafeHarborCents === null ? [] : [result.priorYearSafeHarborCents])]
      expect(result.requiredAnnualCents).toBe(Math.min(...candidates))
      if (result.totalTaxCents < 100_000) expect(result.toPayCents).toBe(0)
      expect(result.installments.reduce((a, b) => a + b, 0)).toBe(result.toPayCents)
    }))
  })

  it("takes a partner's share for 1065 with self-employment tax, and an S corporation owner's without", () => {
    const tables = Tables.tablesOf(2026)!
    const base: Worksheet.Inputs = {
      returnType: "1065", incomeCents: 10_000_000, adjustmentsCents: 0, ownerSharePpm: 500_000, seTax: true, filingStatus: "mfj",
      otherIncomeCents: 0, wagesSsCents: 0, deductionsCents: null, qbiDeductionCents: null, creditsCents: 0, withholdingCents: 0,
      priorYearTaxCents: null, priorYearHighAgi: false, priorYearFull: true, largeCorporation: false, safeHarbor: "lower"
    }
    // Half of $100,000 is $50,000; x 92.35% = $46,175; 12.4% = $5,725.70; 2.9% = $1,339.075 -> $1,339.08.
    const partner = Worksheet.compute(base, tables)
    expect(partner.lines.find((one) => one.line === "9")!.cents).toBe(572_570 + 133_908)
    expect(partner.lines.find((one) => one.line === "1")!.cents).toBe(5_000_000 - Math.floor((572_570 + 133_908) / 2))
    const owner = Worksheet.compute({ ...base, returnType: "1120S", seTax: false }, tables)
    expect(owner.lines.find((one) => one.line === "9")!.cents).toBe(0)
    // Wages already over the social security wage base leave only Medicare.
    const capped = Worksheet.compute({ ...base, wagesSsCents: 20_000_000 }, tables)
    expect(capped.lines.find((one) => one.line === "9")!.cents).toBe(133_908)
  })
})

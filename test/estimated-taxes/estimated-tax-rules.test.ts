import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { EstimatedTaxDueDates as DueDates, EstimatedTaxTables as Tables, EstimatedTaxWorksheet as Worksheet, MileageRates } from "@ledger/engine/rules"

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
      otherIncomeCents: 0, investmentIncomeCents: 0, wagesSsCents: 0, deductionsCents: null, qbiDeductionCents: null, creditsCents: 0, withholdingCents: 0,
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
      otherIncomeCents: 0, investmentIncomeCents: 0, wagesSsCents: 0, deductionsCents: null, qbiDeductionCents: null, creditsCents: 0, withholdingCents: 0,
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

  it("Additional Medicare Tax by Form 8959: wages over the threshold, and SE income over what the wages left of it", () => {
    // Part I: wages $240,000 under the $250,000 joint threshold -> $0.
    // Part II: threshold $250,000 less wages $240,000 = $10,000; SE income $50,000 - $10,000 = $40,000 x 0.9% = $360.
    expect(Worksheet.additionalMedicareTax(24_000_000, 5_000_000, "mfj")).toEqual({ onWages: 0, onSelfEmployment: 36_000, total: 36_000 })
    // Single, wages $230,000: Part I ($230,000 - $200,000) x 0.9% = $270; Part II threshold used up, all $10,000 of SE income x 0.9% = $90.
    expect(Worksheet.additionalMedicareTax(23_000_000, 1_000_000, "single")).toEqual({ onWages: 27_000, onSelfEmployment: 9_000, total: 36_000 })
    // Married filing separately, $125,000: ($130,000 - $125,000) x 0.9% = $45.
    expect(Worksheet.additionalMedicareTax(0, 13_000_000, "mfs").total).toBe(4_500)
  })

  it("net investment income tax by Form 8960: 3.8% of the smaller of the investment income and MAGI over the threshold", () => {
    // MAGI $210,000, single: $10,000 over; investment income $25,000 -> 3.8% x $10,000 = $380.
    expect(Worksheet.netInvestmentIncomeTax(2_500_000, 21_000_000, "single")).toBe(38_000)
    // MAGI $400,000 joint: $150,000 over; investment income $25,000 -> 3.8% x $25,000 = $950.
    expect(Worksheet.netInvestmentIncomeTax(2_500_000, 40_000_000, "mfj")).toBe(95_000)
    expect(Worksheet.netInvestmentIncomeTax(2_500_000, 19_000_000, "single")).toBe(0)
    fc.assert(fc.property(fc.integer({ min: 0, max: 100_000_000_00 }), fc.integer({ min: -1_000_000_00, max: 100_000_000_00 }), (nii, magi) => {
      const tax = Worksheet.netInvestmentIncomeTax(nii, magi, "hoh")
      expect(tax).toBeGreaterThanOrEqual(0)
      expect(tax).toBeLessThanOrEqual(Math.ceil(nii * 0.038))
    }))
  })

  it("a high-income sole proprietor's 2026 worksheet, line by line (Form 1040-ES Estimated Tax Worksheet; Forms 8959 and 8960 for line 10)", () => {
    const tables = Tables.tablesOf(2026)!
    const result = Worksheet.compute({
      returnType: "SCHC", incomeCents: 30_000_000, adjustmentsCents: 0, ownerSharePpm: 1_000_000, seTax: true, filingStatus: "single",
      otherIncomeCents: 2_000_000, investmentIncomeCents: 2_000_000, wagesSsCents: 0, deductionsCents: null, qbiDeductionCents: 0,
      creditsCents: 0, withholdingCents: 0, priorYearTaxCents: 9_000_000, priorYearHighAgi: true, priorYearFull: true,
      largeCorporation: false, safeHarbor: "lower"
    }, tables)
    const line = (number: string) => result.lines.find((one) => one.line === number)?.cents
    // Schedule SE: $300,000 x 92.35% = $277,050; social security 12.4% x the 2026 wage base $184,500 = $22,878;
    // Medicare 2.9% x $277,050 = $8,034.45; SE tax $30,912.45; half $15,456.22 (the half cent dropped).
    expect(line("9")).toBe(3_091_245)
    // Line 1: $300,000 + $20,000 - $15,456.22 = $304,543.78.
    expect(line("1")).toBe(30_454_378)
    // Line 2a: the 2026 standard deduction for single, $16,100 (TaxTables.ts); 2b given as 0; 2c $16,100.
    expect(line("2c")).toBe(1_610_000)
    // Line 3: $288,443.78.
    expect(line("3")).toBe(28_844_378)
    // Line 4 by the 2026 schedule: $1,240 + $4,560 + $12,166 + $23,058 + $17,424 + 35% x $32,218.78 ($11,276.573) = $69,724.57.
    expect(line("4")).toBe(6_972_457)
    expect(line("8")).toBe(6_972_457)
    // Line 10: Form 8959 Part II, 0.9% x ($277,050 - $200,000) = $693.45; Form 8960, 3.8% x min($20,000, $304,543.78 - $200,000) = $760.
    expect(line("10-8959")).toBe(69_345)
    expect(line("10-8960")).toBe(76_000)
    expect(line("10")).toBe(145_345)
    // Line 11c: $69,724.57 + $30,912.45 + $1,453.45 = $102,090.47.
    expect(line("11c")).toBe(10_209_047)
    // Line 12a: 90% = $91,881.42 (.423); 12b: 110% of $90,000 = $99,000 (prior-year AGI over $150,000); 12c the smaller.
    expect(line("12a")).toBe(9_188_142)
    expect(line("12b")).toBe(9_900_000)
    expect(line("12c")).toBe(9_188_142)
    expect(result.chosen).toBe("current_year")
    expect(result.installments).toEqual([2_297_036, 2_297_036, 2_297_035, 2_297_035])
  })

  it("every year's figures name their source and how far they were checked; none claims a primary text nobody could open", () => {
    for (const year of Tables.tables) {
      for (const citation of Object.values(year.citations)) {
        expect(citation.source.length).toBeGreaterThan(10)
        // Written without network access (ADR 1404): nothing was read in the primary text.
        expect(citation.checked).not.toBe("primary")
        if (citation.checked === "secondary") expect(citation.corroboration ?? "").not.toBe("")
      }
    }
    const y2026 = Tables.tablesOf(2026)!
    expect(y2026.citations.brackets.source).toContain("Rev. Proc. 2025-32")
    expect(y2026.socialSecurityWageBase).toBe(184_500)
    const mileage2026 = MileageRates.rateOn("2026-07-01")!
    expect(mileage2026).toMatchObject({ tenthCentsPerMile: 725, checked: "secondary" })
    expect(mileage2026.source).toContain("Notice 2026-10")
    for (const rate of MileageRates.rates) expect(rate.checked).not.toBe("primary")
  })
})

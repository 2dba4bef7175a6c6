/**
 * Federal figures per tax year used by the estimated-tax worksheet, as data with their sources
 * (docs/estimated-taxes.md, ADR 1404). Amounts are whole dollars as published; the rules work in
 * cents. Add a year here when the IRS publishes its revenue procedure (usually in October or
 * November) and the SSA its wage base (October).
 *
 * Each figure carries its primary source and how far it was checked (`Citation.checked`). No
 * network access was available while these were written: no primary text (revenue procedure,
 * IRS news release, SSA notice) could be opened. The figures were written from memory and then
 * compared with third-party summaries kept in the development reference library (named in
 * `corroboration`); section numbers inside a revenue procedure are not given where they could
 * not be read. Check against the primary text before relying on a figure marked otherwise.
 */
export type FilingStatus = "single" | "mfj" | "mfs" | "hoh"

export interface Citation {
  /** The primary source: revenue procedure, news release, statute, notice. */
  readonly source: string
  /**
   * `primary`: read in the primary text. `secondary`: not read in the primary text, matched by
   * independent third-party summaries. `unconfirmed`: neither; from memory.
   */
  readonly checked: "primary" | "secondary" | "unconfirmed"
  readonly corroboration?: string
}

export interface YearTables {
  readonly year: number
  /** Upper bounds of each bracket below the top one (dollars), for 10, 12, 22, 24, 32, 35 percent; 37 above. */
  readonly brackets: Readonly<Record<FilingStatus, readonly [number, number, number, number, number, number]>>
  readonly standardDeduction: Readonly<Record<FilingStatus, number>>
  /** Social security wage base (dollars). */
  readonly socialSecurityWageBase: number
  readonly citations: {
    readonly brackets: Citation
    readonly standardDeduction: Citation
    readonly socialSecurityWageBase: Citation
  }
  /** One line naming the sources, shown with each estimate. */
  readonly source: string
}

const rates = [10, 12, 22, 24, 32, 35, 37] as const
export const bracketRatesPercent = rates

export const tables: ReadonlyArray<YearTables> = [
  {
    year: 2023,
    brackets: {
      single: [11_000, 44_725, 95_375, 182_100, 231_250, 578_125],
      mfj: [22_000, 89_450, 190_750, 364_200, 462_500, 693_750],
      mfs: [11_000, 44_725, 95_375, 182_100, 231_250, 346_875],
      hoh: [15_700, 59_850, 95_350, 182_100, 231_250, 578_100]
    },
    standardDeduction: { single: 13_850, mfj: 27_700, mfs: 13_850, hoh: 20_800 },
    socialSecurityWageBase: 160_200,
    citations: {
      brackets: { source: "Rev. Proc. 2022-38 (tax rate tables); IRS news release IR-2022-182", checked: "unconfirmed" },
      standardDeduction: { source: "Rev. Proc. 2022-38 (standard deduction); IR-2022-182", checked: "unconfirmed" },
      socialSecurityWageBase: { source: "SSA, contribution and benefit base for 2023 (announced October 2022)", checked: "unconfirmed" }
    },
    source: "Rev. Proc. 2022-38 (brackets, standard deduction); SSA 2023 wage base $160,200; 2023 Form 1040-ES"
  },
  {
    year: 2024,
    brackets: {
      single: [11_600, 47_150, 100_525, 191_950, 243_725, 609_350],
      mfj: [23_200, 94_300, 201_050, 383_900, 487_450, 731_200],
      mfs: [11_600, 47_150, 100_525, 191_950, 243_725, 365_600],
      hoh: [16_550, 63_100, 100_500, 191_950, 243_700, 609_350]
    },
    standardDeduction: { single: 14_600, mfj: 29_200, mfs: 14_600, hoh: 21_900 },
    socialSecurityWageBase: 168_600,
    citations: {
      brackets: { source: "Rev. Proc. 2023-34 (tax rate tables); IRS news release IR-2023-208", checked: "unconfirmed" },
      standardDeduction: { source: "Rev. Proc. 2023-34 (standard deduction); IR-2023-208", checked: "unconfirmed" },
      socialSecurityWageBase: { source: "SSA, contribution and benefit base for 2024 (announced October 2023)", checked: "unconfirmed" }
    },
    source: "Rev. Proc. 2023-34 (brackets, standard deduction); SSA 2024 wage base $168,600; 2024 Form 1040-ES"
  },
  {
    year: 2025,
    brackets: {
      single: [11_925, 48_475, 103_350, 197_300, 250_525, 626_350],
      mfj: [23_850, 96_950, 206_700, 394_600, 501_050, 751_600],
      mfs: [11_925, 48_475, 103_350, 197_300, 250_525, 375_800],
      hoh: [17_000, 64_850, 103_350, 197_300, 250_500, 626_350]
    },
    standardDeduction: { single: 15_750, mfj: 31_500, mfs: 15_750, hoh: 23_625 },
    socialSecurityWageBase: 176_100,
    citations: {
      brackets: { source: "Rev. Proc. 2024-40 (tax rate tables); IRS news release IR-2024-273", checked: "unconfirmed" },
      standardDeduction: {
        source: "Public Law 119-21 (One Big Beautiful Bill Act) sec. 70102, amending IRC 63(c)(7) for 2025 (replacing Rev. Proc. 2024-40's $15,000 / $30,000 / $22,500)",
        checked: "secondary",
        corroboration: "IRS-in-audio summary of IR-2025-103 (radio.net) gives the OBBB 2025 amounts $15,750 / $31,500 / $23,625"
      },
      socialSecurityWageBase: {
        source: "SSA, contribution and benefit base for 2025 (announced October 2024)",
        checked: "secondary",
        corroboration: "boomer-news.com on SSA's 2026 announcement: the base rises to $184,500 from $176,100"
      }
    },
    source: "Rev. Proc. 2024-40 (brackets); Public Law 119-21 sec. 70102 (2025 standard deduction); SSA 2025 wage base $176,100"
  },
  {
    year: 2026,
    brackets: {
      single: [12_400, 50_400, 105_700, 201_775, 256_225, 640_600],
      mfj: [24_800, 100_800, 211_400, 403_550, 512_450, 768_700],
      mfs: [12_400, 50_400, 105_700, 201_775, 256_225, 384_350],
      hoh: [17_700, 67_450, 105_700, 201_750, 256_200, 640_600]
    },
    standardDeduction: { single: 16_100, mfj: 32_200, mfs: 16_100, hoh: 24_150 },
    socialSecurityWageBase: 184_500,
    citations: {
      brackets: {
        source: "Rev. Proc. 2025-32 (tax rate tables, IRC 1(j)(2) as amended by Public Law 119-21); IRS news release IR-2025-103 (October 9, 2025)",
        checked: "secondary",
        corroboration: "single and joint thresholds: IRS-in-audio summary of IR-2025-103 (radio.net) and thelighthousecpa.com; " +
          "head of household and married filing separately: thelighthousecpa.com only (17,700 / 67,450 / 105,700 / 201,750 / 256,200 / 640,600; MFS top 384,350)"
      },
      standardDeduction: {
        source: "Rev. Proc. 2025-32 (standard deduction, IRC 63(c)(7)); IR-2025-103",
        checked: "secondary",
        corroboration: "IRS-in-audio summary of IR-2025-103 (radio.net): $16,100 single and MFS, $32,200 joint, $24,150 head of household"
      },
      socialSecurityWageBase: {
        source: "SSA, 2026 cost-of-living adjustment and contribution and benefit base (announced October 2025)",
        checked: "secondary",
        corroboration: "boomer-news.com quoting SSA: $184,500 for 2026"
      }
    },
    source: "Rev. Proc. 2025-32 and IR-2025-103 (brackets, standard deduction); SSA 2026 wage base $184,500 (checked against secondary sources only: ADR 1404)"
  }
]

export const tablesOf = (year: number): YearTables | null => tables.find((one) => one.year === year) ?? null

/** The first tax year Ledger has tables for: due dates, payments and estimates start there. */
export const firstYear = tables[0]!.year

/**
 * The tables a year's worksheet uses (DECISIONS "Tax years", ADR 2007): the year's own, or for a
 * year whose tables are not published yet the latest year's, as an estimate that says so. The
 * 1040-ES worksheet is itself an estimate of the year's tax, which the IRS lets a payer figure
 * from the year before's figures (Form 1040-ES instructions: use the prior year's return as a guide).
 */
export const tablesFor = (year: number): { readonly tables: YearTables; readonly estimated: boolean } => {
  const own = tablesOf(year)
  if (own !== null) return { tables: own, estimated: false }
  const latest = tables[tables.length - 1]!
  return { tables: latest, estimated: true }
}

/** Self-employment tax (Schedule SE): 92.35% of net earnings; 12.4% social security up to the wage base, 2.9% Medicare. */
export const seNetEarningsPpm = 923_500
export const socialSecurityRatePpm = 124_000
export const medicareRatePpm = 29_000
/** The corporate rate (IRC 11(b)) since 2018: 21%. */
export const corporateRatePpm = 210_000
/** Prior-year AGI above which the prior-year safe harbor is 110% (IRC 6654(d)(1)(C)): $150,000, $75,000 married filing separately. */
export const highAgiDollars = { single: 150_000, mfj: 150_000, hoh: 150_000, mfs: 75_000 } as const
/**
 * Additional Medicare Tax (IRC 1401(b)(2), 3101(b)(2); Form 8959): 0.9% of wages and
 * self-employment income above a threshold by filing status. The thresholds are fixed in the
 * statute and not indexed for inflation.
 */
export const additionalMedicareRatePpm = 9_000
export const additionalMedicareThresholdDollars = { single: 200_000, hoh: 200_000, mfj: 250_000, mfs: 125_000 } as const
/**
 * Net investment income tax (IRC 1411; Form 8960): 3.8% of the smaller of net investment income
 * and modified AGI above a threshold by filing status (fixed in the statute, not indexed).
 */
export const netInvestmentIncomeRatePpm = 38_000
export const netInvestmentIncomeThresholdDollars = { single: 200_000, hoh: 200_000, mfj: 250_000, mfs: 125_000 } as const
/** No estimated-tax penalty when the balance due after withholding is under $1,000 (individuals, IRC 6654(e)(1)) or $500 (corporations, 6655(f)). */
export const individualThresholdCents = 100_000
export const corporateThresholdCents = 50_000

/**
 * The IRS standard mileage rate for business use, per period, in TENTHS OF A CENT per mile (so
 * 72.5 cents is 725), with the notice that set it. A year may change mid-year (2022). Add a year
 * here, with its source, when the IRS announces it (usually in December for the next year).
 */
export interface MileageRate {
  readonly from: string
  readonly to: string
  readonly tenthCentsPerMile: number
  readonly source: string
}

export const rates: ReadonlyArray<MileageRate> = [
  { from: "2022-01-01", to: "2022-06-30", tenthCentsPerMile: 585, source: "IRS IR-2021-251, Notice 2022-03: 58.5 cents" },
  { from: "2022-07-01", to: "2022-12-31", tenthCentsPerMile: 625, source: "IRS IR-2022-124, Announcement 2022-13: 62.5 cents from July 1, 2022" },
  { from: "2023-01-01", to: "2023-12-31", tenthCentsPerMile: 655, source: "IRS IR-2022-234, Notice 2023-03: 65.5 cents" },
  { from: "2024-01-01", to: "2024-12-31", tenthCentsPerMile: 670, source: "IRS IR-2023-239, Notice 2024-08: 67 cents" },
  { from: "2025-01-01", to: "2025-12-31", tenthCentsPerMile: 700, source: "IRS IR-2024-312, Notice 2025-5: 70 cents" },
  { from: "2026-01-01", to: "2026-12-31", tenthCentsPerMile: 725, source: "IRS IR-2025-129, Notice 2026-10: 72.5 cents" }
]

/** The rate in force on a date, or null when the table has none. */
export const rateOn = (date: string): MileageRate | null => rates.find((rate) => rate.from <= date && date <= rate.to) ?? null

/** 725 -> "72.5", 700 -> "70". */
export const centsText = (tenthCents: number): string =>
  tenthCents % 10 === 0 ? String(tenthCents / 10) : `${Math.floor(tenthCents / 10)}.${tenthCents % 10}`

/**
 * The IRS standard mileage rate for business use, per period, in TENTHS OF A CENT per mile (so
 * 72.5 cents is 725), with the notice that set it. A year may change mid-year (2022). Add a year
 * here, with its source, when the IRS announces it (usually in December for the next year).
 *
 * `checked` says how far each rate was verified (ADR 1404): no network access was available while
 * these were written, so no IRS notice could be opened; `secondary` rates match third-party
 * summaries kept in the development reference library (`corroboration`), `unconfirmed` ones were
 * written from memory. Check against the notice before relying on an unconfirmed rate.
 */
export interface MileageRate {
  readonly from: string
  readonly to: string
  readonly tenthCentsPerMile: number
  readonly source: string
  readonly checked: "primary" | "secondary" | "unconfirmed"
  readonly corroboration?: string
}

export const rates: ReadonlyArray<MileageRate> = [
  { from: "2022-01-01", to: "2022-06-30", tenthCentsPerMile: 585, source: "IRS Notice 2022-03 (IR-2021-251): 58.5 cents", checked: "unconfirmed" },
  { from: "2022-07-01", to: "2022-12-31", tenthCentsPerMile: 625, source: "IRS Announcement 2022-13 (IR-2022-124): 62.5 cents from July 1, 2022", checked: "unconfirmed" },
  { from: "2023-01-01", to: "2023-12-31", tenthCentsPerMile: 655, source: "IRS Notice 2023-03 (IR-2022-234): 65.5 cents", checked: "unconfirmed" },
  { from: "2024-01-01", to: "2024-12-31", tenthCentsPerMile: 670, source: "IRS Notice 2024-08 (IR-2023-239): 67 cents", checked: "unconfirmed" },
  {
    from: "2025-01-01",
    to: "2025-12-31",
    tenthCentsPerMile: 700,
    source: "IRS Notice 2025-5 (IR-2024-312): 70 cents",
    checked: "secondary",
    corroboration: "IFEBP and WICPA summaries of Notice 2026-10 give 2025's rate as 70 cents (the notice number not matched)"
  },
  {
    from: "2026-01-01",
    to: "2026-12-31",
    tenthCentsPerMile: 725,
    source: "IRS Notice 2026-10 (announced December 29, 2025): 72.5 cents",
    checked: "secondary",
    corroboration: "IFEBP (December 30, 2025), WICPA and currentfederaltaxdevelopments.com summaries of Notice 2026-10: 72.5 cents for business"
  }
]

/** The rate in force on a date, or null when the table has none. */
export const rateOn = (date: string): MileageRate | null => rates.find((rate) => rate.from <= date && date <= rate.to) ?? null

/** 725 -> "72.5", 700 -> "70". */
export const centsText = (tenthCents: number): string =>
  tenthCents % 10 === 0 ? String(tenthCents / 10) : `${Math.floor(tenthCents / 10)}.${tenthCents % 10}`

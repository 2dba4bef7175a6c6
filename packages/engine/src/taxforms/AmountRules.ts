import type { TaxForms } from "@ledger/api"
import type { AmountCode } from "./fire/Fields.ts"

/**
 * 1099 amounts (pure). Cash basis: a payment counts in the year it was made. A payment applied to
 * bills is split over the bills' lines in proportion to their amounts (largest remainder, so the
 * parts add up to the cent); a line whose account has a box goes in that box, the rest in the
 * vendor's box (NEC box 1 when none). Payments by card are left out: the card processor reports
 * them on 1099-K. Thresholds: ADR 1306.
 */

export type Box = TaxForms.Shared.Box

export const boxes: ReadonlyArray<Box> = ["NEC1", "MISC1", "MISC2", "MISC3", "MISC6", "MISC10"]

export const formOf = (box: Box): "1099-NEC" | "1099-MISC" => box === "NEC1" ? "1099-NEC" : "1099-MISC"

/** The box's amount code on its form (Publication 1220, type of return NE or A). */
export const amountCode: Readonly<Record<Box, AmountCode>> = { NEC1: "1", MISC1: "1", MISC2: "2", MISC3: "3", MISC6: "6", MISC10: "C" }

/**
 * The reporting threshold of a year for every box but royalties: $600 for payments through 2025,
 * $2,000 for payments after 2025 (One Big Beautiful Bill Act, Public Law 119-21, section 70433,
 * amending IRC 6041(a) and 6041A(a)); the IRS indexes it for inflation after 2026, and a caller
 * may pass the year's published figure as `threshold_cents`.
 */
export const thresholdOf = (year: number): number => year <= 2025 ? 600_00 : 2_000_00

/** Royalties (MISC box 2) are reported from $10 (IRC 6050N), whatever the general threshold. */
export const royaltiesThreshold = 10_00

export interface Payment {
  readonly id: number
  readonly contactId: number
  readonly amountCents: number
  readonly byCard: boolean
  /** The bill lines each application of the payment paid, with the application's amount. */
  readonly lines: ReadonlyArray<{ readonly application: number; readonly applied: number; readonly account: string; readonly lineAmount: number }>
}

/** `total` split in proportion to `weights` (non-negative), exactly: the parts add up to `total`. */
export const split = (total: number, weights: ReadonlyArray<number>): Array<number> => {
  const sum = weights.reduce((a, b) => a + b, 0)
  if (sum <= 0) return weights.map((_, index) => index === 0 ? total : 0)
  const exact = weights.map((weight) => (total * weight) / sum)
  const parts = exact.map(Math.floor)
  let left = total - parts.reduce((a, b) => a + b, 0)
  const order = exact.map((value, index) => ({ index, rest: value - Math.floor(value) })).sort((a, b) => b.rest - a.rest || a.index - b.index)
  for (const { index } of order) {
    if (left <= 0) break
    parts[index]! += 1
    left -= 1
  }
  return parts
}

/** Each payment's amount by box. */
export const allocate = (
  payment: Payment,
  accountBox: (account: string) => Box | undefined,
  vendorBox: Box
): Map<Box, number> => {
  const result = new Map<Box, number>()
  const add = (box: Box, cents: number) => cents !== 0 && result.set(box, (result.get(box) ?? 0) + cents)
  const applications = new Map<number, Array<Payment["lines"][number]>>()
  for (const line of payment.lines) applications.set(line.application, [...(applications.get(line.application) ?? []), line])
  let applied = 0
  for (const lines of applications.values()) {
    const amount = lines[0]!.applied
    applied += amount
    split(amount, lines.map((line) => Math.max(0, line.lineAmount))).forEach((part, index) => add(accountBox(lines[index]!.account) ?? vendorBox, part))
  }
  add(vendorBox, payment.amountCents - applied)
  return result
}

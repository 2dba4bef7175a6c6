import type { ApiError } from "@ledger/api"
import { divideRoundHalfAwayFromZero, scaledDecimal } from "./Rounding.ts"

/** Quantities carry up to 4 decimal places (DECISIONS.md, DocumentLineInput). */
export const quantityPlaces = 4

export interface LineAmountInput {
  readonly quantity?: string | undefined
  readonly unit_price_cents?: number | undefined
  readonly amount_cents?: number | undefined
}

export type LineAmount =
  | { readonly _tag: "Amount"; readonly amountCents: number }
  | { readonly _tag: "Refused"; readonly issue: ApiError.Issue }

/** quantity × unit price, rounded half away from zero to the cent. */
export const extend = (quantity: string, unitPriceCents: number): number =>
  Number(divideRoundHalfAwayFromZero(scaledDecimal(quantity, quantityPlaces) * BigInt(unitPriceCents), 10n ** BigInt(quantityPlaces)))

/**
 * A line's amount: given, or quantity × unit price; when all three are given they must agree
 * (DECISIONS.md). `defaultUnitPriceCents` is the item's price, used when only a quantity is given.
 */
export const lineAmount = (
  index: number,
  line: LineAmountInput,
  defaultUnitPriceCents: number | null = null
): LineAmount => {
  const unitPrice = line.unit_price_cents ?? (line.quantity !== undefined ? defaultUnitPriceCents ?? undefined : undefined)
  if (line.quantity !== undefined && unitPrice !== undefined) {
    const extended = extend(line.quantity, unitPrice)
    if (line.amount_cents !== undefined && line.amount_cents !== extended) {
      return {
        _tag: "Refused",
        issue: {
          path: ["body", "lines", index, "amount_cents"],
          message: `quantity × unit_price_cents is ${extended}, not ${line.amount_cents}`
        }
      }
    }
    return { _tag: "Amount", amountCents: extended }
  }
  if (line.amount_cents !== undefined) return { _tag: "Amount", amountCents: line.amount_cents }
  if (line.quantity === undefined && line.unit_price_cents === undefined && defaultUnitPriceCents !== null) {
    // An item line with neither quantity nor amount: one unit at the item's price.
    return { _tag: "Amount", amountCents: defaultUnitPriceCents }
  }
  return {
    _tag: "Refused",
    issue: { path: ["body", "lines", index], message: "Give amount_cents, or quantity and unit_price_cents" }
  }
}

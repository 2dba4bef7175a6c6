import { divideRoundHalfAwayFromZero, formatScaled, scaledDecimal } from "../common/Rounding.ts"

/**
 * Sales tax arithmetic. Rates are decimal percent strings with up to 4 places; internally an
 * integer count of ten-thousandths of a percent ("6.25" = 62 500), so sums are exact.
 * Each jurisdiction's tax is rounded on its own, half away from zero, on the document's taxable
 * subtotal (docs/decisions/0301-sales-tax-rounding.md).
 */
export const ratePlaces = 4
const percentScale = 100n * 10n ** BigInt(ratePlaces)

export const parseRate = (ratePercent: string): bigint => scaledDecimal(ratePercent, ratePlaces)
export const formatRate = (scaled: bigint): string => formatScaled(scaled, ratePlaces)

/** A combined rate is the sum of its components. */
export const combinedRate = (components: ReadonlyArray<string>): string =>
  formatRate(components.reduce((sum, rate) => sum + parseRate(rate), 0n))

export const taxOn = (taxableSubtotalCents: number, ratePercent: string): number =>
  Number(divideRoundHalfAwayFromZero(BigInt(taxableSubtotalCents) * parseRate(ratePercent), percentScale))

export interface Jurisdiction {
  readonly taxRateId: number
  readonly name: string
  readonly agencyId: number
  readonly ratePercent: string
  readonly payableAccount: string
}

export interface TaxLine extends Jurisdiction {
  readonly taxableSubtotalCents: number
  readonly taxCents: number
}

/** One tax line per jurisdiction, each rounded on its own. */
export const taxLines = (taxableSubtotalCents: number, jurisdictions: ReadonlyArray<Jurisdiction>): ReadonlyArray<TaxLine> =>
  jurisdictions.map((jurisdiction) => ({
    ...jurisdiction,
    taxableSubtotalCents,
    taxCents: taxOn(taxableSubtotalCents, jurisdiction.ratePercent)
  }))

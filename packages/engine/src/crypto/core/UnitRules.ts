/**
 * Quantities and prices without floating point: a quantity is a bigint of the asset's smallest
 * unit (satoshi 10^-8, piconero 10^-12, token base unit 10^-6), a price a decimal string of US
 * dollars per whole unit, money integer cents. Conversions round half up (values) or up (what a
 * customer must pay), exactly, in bigint arithmetic.
 */

export type Asset = "BTC" | "XMR" | "USDC" | "USDT"

export const decimalsOf: Record<Asset, number> = { BTC: 8, XMR: 12, USDC: 6, USDT: 6 }

export const assetOfRail = (rail: string): Asset =>
  rail === "btc" ? "BTC" : rail === "xmr" ? "XMR" : rail.startsWith("usdc_") ? "USDC" : "USDT"

const pow10 = (n: number): bigint => 10n ** BigInt(n)

/** "0.015" in BTC -> 1500000n; null when it has more places than the asset has. */
export const toUnits = (quantity: string, asset: Asset): bigint | null => {
  const [whole = "0", fraction = ""] = quantity.split(".")
  const decimals = decimalsOf[asset]
  if (fraction.length > decimals) return null
  return BigInt(whole) * pow10(decimals) + BigInt(fraction.padEnd(decimals, "0") || "0")
}

/** 1500000n in BTC -> "0.015". */
export const fromUnits = (units: bigint, asset: Asset): string => {
  const decimals = decimalsOf[asset]
  const negative = units < 0n
  const absolute = negative ? -units : units
  const whole = absolute / pow10(decimals)
  const fraction = (absolute % pow10(decimals)).toString().padStart(decimals, "0").replace(/0+$/u, "")
  return `${negative ? "-" : ""}${whole}${fraction === "" ? "" : `.${fraction}`}`
}

/** A decimal string as numerator and power of ten: "64250.12" -> [6425012n, 2]. */
export const ratio = (decimal: string): readonly [bigint, number] => {
  const [whole = "0", fraction = ""] = decimal.split(".")
  return [BigInt(`${whole}${fraction}`), fraction.length]
}

/** Division rounding half up, for non-negative numerators and positive denominators. */
const divideHalfUp = (numerator: bigint, denominator: bigint): bigint => (numerator * 2n + denominator) / (denominator * 2n)
const divideUp = (numerator: bigint, denominator: bigint): bigint => (numerator + denominator - 1n) / denominator

/** The value in cents of `units` at `price` dollars per whole unit, rounded half up. */
export const valueCents = (units: bigint, price: string, asset: Asset): number => {
  const [numerator, scale] = ratio(price)
  return Number(divideHalfUp(units * numerator * 100n, pow10(decimalsOf[asset] + scale)))
}

/** The smallest number of units worth at least `cents` at `price` (what a quote asks), or null for a zero price. */
export const unitsFor = (cents: number, price: string, asset: Asset): bigint | null => {
  const [numerator, scale] = ratio(price)
  if (numerator === 0n) return null
  return divideUp(BigInt(cents) * pow10(decimalsOf[asset] + scale), numerator * 100n)
}

/** The price per whole unit implied by cents for units, to 8 places (a disposal's or receipt's record). */
export const impliedPrice = (cents: number, units: bigint, asset: Asset): string => {
  if (units === 0n) return "0"
  const scaled = divideHalfUp(BigInt(cents) * pow10(decimalsOf[asset] + 8), units * 100n)
  const text = scaled.toString().padStart(9, "0")
  const whole = text.slice(0, -8)
  const fraction = text.slice(-8).replace(/0+$/u, "")
  return fraction === "" ? whole : `${whole}.${fraction}`
}

/** A timestamp as given, or a date meaning the end of that day in UTC (spec 1); null when it is no instant. */
export const momentOf = (text: string): string | null => {
  const instant = /^\d{4}-\d{2}-\d{2}$/u.test(text) ? `${text}T23:59:59.999Z` : text
  const milliseconds = Date.parse(instant)
  return Number.isNaN(milliseconds) ? null : new Date(milliseconds).toISOString()
}

/** The UTC day of an instant. */
export const dayOf = (iso: string): string => iso.slice(0, 10)

/**
 * Integer division rounded half away from zero: the rule for every amount Ledger derives from a
 * quantity or a percent (DECISIONS.md; docs/decisions/0301-sales-tax-rounding.md). BigInt keeps
 * products of large amounts and fine rates exact.
 */
export const divideRoundHalfAwayFromZero = (numerator: bigint, denominator: bigint): bigint => {
  if (denominator === 0n) throw new RangeError("division by zero")
  const negative = (numerator < 0n) !== (denominator < 0n)
  const n = numerator < 0n ? -numerator : numerator
  const d = denominator < 0n ? -denominator : denominator
  const quotient = n / d
  const remainder = n % d
  const rounded = remainder * 2n >= d ? quotient + 1n : quotient
  return negative ? -rounded : rounded
}

/** A decimal string ("1.5", "12", "0.0625") as an integer scaled by 10^places, exactly. */
export const scaledDecimal = (value: string, places: number): bigint => {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(value)
  if (match === null) throw new RangeError(`not a decimal: ${value}`)
  const fraction = (match[3] ?? "")
  if (fraction.length > places) throw new RangeError(`more than ${places} decimal places: ${value}`)
  const digits = BigInt(match[2]! + fraction.padEnd(places, "0"))
  return match[1] === "-" ? -digits : digits
}

/** The inverse of `scaledDecimal`, without trailing zeros: 62500n at 4 places is "6.25". */
export const formatScaled = (value: bigint, places: number): string => {
  const negative = value < 0n
  const digits = (negative ? -value : value).toString().padStart(places + 1, "0")
  const whole = digits.slice(0, digits.length - places)
  const fraction = digits.slice(digits.length - places).replace(/0+$/, "")
  return `${negative ? "-" : ""}${whole}${fraction === "" ? "" : `.${fraction}`}`
}

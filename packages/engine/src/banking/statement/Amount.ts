import { Limits } from "@ledger/api"

/**
 * Money as banks write it, to integer cents: "1,036.47", "1.234,56", "-45.54", "(85.00)",
 * "- $21.59", "+120,00", "11'373.94", "1234,37 EUR", "£500.00", "-00000000001500.0000".
 * Never through floating point: the digits are split and summed as integers.
 */

export type DecimalSeparator = "." | ","

const currencyNoise = /[$£€¥₹]|R\$|\b(?:[A-Z]{3})\b|\bkr\.?/gu

/** Cents of `text`, or null when it is not an amount. Fractions beyond cents round half away from zero. */
export const parseCents = (text: string, decimal?: DecimalSeparator): number | null => {
  let value = text.trim()
  if (value === "") return null
  let negative = false
  if (/^\(.*\)$/u.test(value)) {
    negative = true
    value = value.slice(1, -1).trim()
  }
  value = value.replace(currencyNoise, "").replace(/[\s\u00a0\u202f']/gu, "")
  if (value.startsWith("-")) {
    negative = !negative
    value = value.slice(1)
  } else if (value.startsWith("+")) {
    value = value.slice(1)
  } else if (value.endsWith("-")) {
    negative = !negative
    value = value.slice(0, -1)
  }
  // A sign may sit before the currency symbol: "-$76.00" became "-76.00" above; "$-5" becomes "-5" here.
  if (value.startsWith("-")) {
    negative = !negative
    value = value.slice(1)
  }
  if (!/^[\d.,]*\d[\d.,]*$/u.test(value) && !/^[.,]\d+$/u.test(value)) return null
  const separator = decimal ?? guessDecimal(value)
  const thousands = separator === "." ? "," : "."
  const parts = value.split(thousands).join("").split(separator)
  if (parts.length > 2) return null
  const whole = parts[0] === "" ? "0" : parts[0]!
  const fraction = parts[1] ?? ""
  if (!/^\d+$/u.test(whole) || !/^\d*$/u.test(fraction)) return null
  if (parts.length === 2 && fraction === "" && whole === "0") return null
  const wholeNumber = Number(whole)
  const cents = Number((fraction + "00").slice(0, 2))
  const roundUp = fraction.length > 2 && Number(fraction[2]) >= 5 ? 1 : 0
  const total = wholeNumber * 100 + cents + roundUp
  if (!Number.isSafeInteger(total) || total > Limits.amountCentsMax) return null
  return negative && total !== 0 ? -total : total
}

/**
 * Which mark is the decimal one when a profile does not say: the last of "." and "," when both
 * appear; a lone "," followed by one or two digits; a lone "." unless it groups thousands twice.
 */
export const guessDecimal = (value: string): DecimalSeparator => {
  const lastDot = value.lastIndexOf(".")
  const lastComma = value.lastIndexOf(",")
  if (lastDot >= 0 && lastComma >= 0) return lastDot > lastComma ? "." : ","
  if (lastComma >= 0) {
    const commas = value.split(",").length - 1
    const after = value.length - lastComma - 1
    return commas === 1 && after !== 3 ? "," : "."
  }
  return "."
}

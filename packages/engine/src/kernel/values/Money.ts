import { Limits } from "@ledger/api"

/**
 * Text to integer cents, for every reader of amounts written by someone else: bank statements,
 * QuickBooks exports, payroll CSVs, receipts. Each source writes money its own way, so each keeps
 * its own grammar (which marks, signs and decimals it accepts); what they share is here: the
 * grammars that more than one reader could use, and the step from digits to cents, which never
 * goes through a floating-point fraction.
 */

/**
 * `whole` (ASCII digits, "" for none) and `fraction` (at most two digits, padded on the right:
 * "5" is 50 cents) as cents. Exact whenever the result is a safe integer; past that it is the
 * nearest number, which callers that bound amounts refuse with `Number.isSafeInteger`.
 */
export const digitsToCents = (whole: string, fraction: string): number =>
  Number(BigInt(whole === "" ? "0" : whole) * 100n + BigInt(fraction.padEnd(2, "0")))

/** Why a plain decimal is not an amount of cents. */
export type PlainRefusal = "not_an_amount" | "more_than_two_decimals" | "out_of_range"

/**
 * A plain decimal, as programs write one: an optional sign, digits, an optional "." and digits
 * ("", "-" and "." are zero). Zeros past the cents are allowed ("12.340"), other digits are not.
 * "-0" and "-" are -0, as the QuickBooks readers have always given them.
 */
export const parsePlainCents = (text: string): { readonly cents: number } | { readonly refused: PlainRefusal } => {
  const match = /^([+-])?(\d*)(?:\.(\d*))?$/.exec(text)
  if (match === null) return { refused: "not_an_amount" }
  const fraction = (match[3] ?? "").replace(/0+$/, "")
  if (fraction.length > 2) return { refused: "more_than_two_decimals" }
  const cents = digitsToCents(match[2]!, fraction)
  if (!Number.isSafeInteger(cents)) return { refused: "out_of_range" }
  return { cents: match[1] === "-" ? -cents : cents }
}

export type DecimalSeparator = "." | ","

const currencyNoise = /[$£€¥₹]|R\$|\b(?:[A-Z]{3})\b|\bkr\.?/gu

/** Strips the signs around an amount as banks write it, and says whether they made it negative. */
const signOf = (text: string): { readonly negative: boolean; readonly value: string } => {
  let value = text
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
  return { negative, value }
}

/**
 * Money as banks write it, to integer cents: "1,036.47", "1.234,56", "-45.54", "(85.00)",
 * "- $21.59", "+120,00", "11'373.94", "1234,37 EUR", "£500.00", "-00000000001500.0000".
 * Null when it is not an amount or is past `Limits.amountCentsMax`. Fractions beyond cents round
 * half away from zero.
 */
export const parseCents = (text: string, decimal?: DecimalSeparator): number | null => {
  const trimmed = text.trim()
  if (trimmed === "") return null
  const { negative, value } = signOf(trimmed)
  if (!/^[\d.,]*\d[\d.,]*$/u.test(value) && !/^[.,]\d+$/u.test(value)) return null
  const separator = decimal ?? guessDecimal(value)
  const thousands = separator === "." ? "," : "."
  const parts = value.split(thousands).join("").split(separator)
  if (parts.length > 2) return null
  const whole = parts[0] === "" ? "0" : parts[0]!
  const fraction = parts[1] ?? ""
  if (!/^\d+$/u.test(whole) || !/^\d*$/u.test(fraction)) return null
  if (parts.length === 2 && fraction === "" && whole === "0") return null
  const roundUp = fraction.length > 2 && Number(fraction[2]) >= 5 ? 1 : 0
  const total = digitsToCents(whole, fraction.slice(0, 2)) + roundUp
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

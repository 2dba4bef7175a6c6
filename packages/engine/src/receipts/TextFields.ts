import { digitsToCents } from "../kernel/values/Money.ts"
import type { Fields } from "./ReceiptRules.ts"

/**
 * The built-in reader: fields found in a receipt's text by rules (no provider). It reads amounts
 * as integer cents from their digits (never through a float), dates in ISO, US and written forms,
 * the total, tax and subtotal by their labels, the vendor from the first line that looks like a
 * name, and the payment method from card or cash words.
 */

/** Month names and their German forms, by number (index + 1). */
const months: ReadonlyArray<ReadonlyArray<string>> = [
  ["jan", "jän"], ["feb"], ["mar", "mär", "mrz"], ["apr"], ["may", "mai"], ["jun"], ["jul"], ["aug"], ["sep"], ["oct", "okt"], ["nov"], ["dec", "dez"]
]
const monthOf = (word: string) => months.findIndex((names) => names.some((name) => word.toLowerCase().startsWith(name))) + 1
const monthWords = months.flat().join("|")
const currency = String.raw`(?:[$€£]|USD|EUR|INR|Rs\.?)`
const amountPattern = String.raw`${currency}?\s*(\d{1,3}(?:[,\s]\d{3})*|\d+)[.,](\d{2})(?!\d)`
/** A whole amount is only an amount with its currency: "Rs 1939", "$12". */
const wholePattern = String.raw`${currency}\s*(\d{1,3}(?:,\d{3})+|\d+)(?![.,]?\d)`

/** "1,234.56" -> 123456 cents, from the digits. */
export const centsOf = (whole: string, fraction: string): number => digitsToCents(whole.replace(/[,\s]/gu, ""), fraction)

const pad = (value: number) => String(value).padStart(2, "0")

const validDate = (year: number, month: number, day: number): string | null => {
  if (year < 1990 || year > 2100 || month < 1 || month > 12 || day < 1 || day > 31) return null
  const date = new Date(Date.UTC(year, month - 1, day))
  return date.getUTCMonth() === month - 1 ? `${year}-${pad(month)}-${pad(day)}` : null
}

const fullYear = (year: number) => year < 100 ? 2000 + year : year

/** The first date in the text, preferring one on a line that says "date". */
export const findDate = (text: string): string | null => {
  const lines = text.split(/\n/u)
  const ordered = [...lines.flatMap((line, index) => /date|datum/iu.test(line) ? [line, lines[index + 1] ?? ""] : []), ...lines]
  for (const line of ordered) {
    const iso = /(\d{4})-(\d{2})-(\d{2})/u.exec(line)
    if (iso !== null) {
      const date = validDate(Number(iso[1]), Number(iso[2]), Number(iso[3]))
      if (date !== null) return date
    }
    const written = new RegExp(String.raw`(\d{1,2})?\.?\s*\b(${monthWords})[a-zä]*\.?\s+(\d{1,2})?\s*,?\s*(\d{4})`, "iu").exec(line)
    if (written !== null) {
      const day = Number(written[3] ?? written[1] ?? 0)
      const date = validDate(Number(written[4]), monthOf(written[2]!), day)
      if (date !== null) return date
    }
    // 03/20/2023 is month first (US); 07.05.2014 is day first (Europe); either way round when only one is a date.
    const numeric = /\b(\d{1,2})([/.])(\d{1,2})\2(\d{2,4})\b/u.exec(line)
    if (numeric !== null) {
      const [a, b, year] = [Number(numeric[1]), Number(numeric[3]), fullYear(Number(numeric[4]))]
      const date = numeric[2] === "." ? validDate(year, b, a) ?? validDate(year, a, b) : validDate(year, a, b) ?? validDate(year, b, a)
      if (date !== null) return date
    }
  }
  return null
}

/** Every amount in a line, in order: decimals, and whole amounts that carry their currency. */
export const amountsIn = (line: string): ReadonlyArray<number> =>
  [
    ...[...line.matchAll(new RegExp(amountPattern, "gu"))].map((match) => ({ at: match.index, cents: centsOf(match[1]!, match[2]!) })),
    ...[...line.matchAll(new RegExp(wholePattern, "gu"))].map((match) => ({ at: match.index, cents: centsOf(match[1]!, "00") }))
  ].sort((a, b) => a.at - b.at).map((found) => found.cents)

const anyLabel = /total|tax|vat|gst|amount|balance|due|subtotal|paid/iu

/**
 * The amount of the last line whose label matches: the last amount on it, or (in tables drawn
 * cell by cell) the last amount on the next lines up to three, stopping at the next label.
 */
const labelled = (lines: ReadonlyArray<string>, label: RegExp, exclude?: RegExp): number | null => {
  let found: number | null = null
  lines.forEach((line, index) => {
    if (!label.test(line) || (exclude !== undefined && exclude.test(line))) return
    const own = amountsIn(line).at(-1)
    if (own !== undefined) {
      found = own
      return
    }
    let last: number | undefined
    for (const next of lines.slice(index + 1, index + 4)) {
      if (anyLabel.test(next)) break
      last = amountsIn(next).at(-1) ?? last
    }
    if (last !== undefined) found = last
  })
  return found
}

const companyName = /([A-Z][\w&'-]*(?:\s+[A-Z][\w&'.-]*){0,4},?\s+(?:Inc\.?|LLC|L\.L\.C\.|Ltd\.?|Limited|AG|GmbH|Corp\.?|Corporation|Co\.|S\.A\.|B\.V\.|Pvt\.? Ltd\.?))(?![\w])/gu

/** The company name written most often (the issuer repeats its own name; a customer's appears once), else the first name-like line. */
const vendorOf = (lines: ReadonlyArray<string>): string | null => {
  const counts = new Map<string, number>()
  for (const match of lines.join("\n").matchAll(companyName)) counts.set(match[1]!, (counts.get(match[1]!) ?? 0) + 1)
  const best = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]
  if (best !== undefined && best[1] > 1) return best[0]
  for (const line of lines.slice(0, 12)) {
    const text = line.trim()
    if (text.length < 2 || text.length > 80) continue
    if (/invoice|receipt|page|date|tax|total|bill to|ship to|^\W+$|^\d/iu.test(text)) continue
    if (!/[a-z]{2}/iu.test(text)) continue
    return text.replace(/\s+/gu, " ")
  }
  return null
}

export const read = (text: string): Fields => {
  const lines = text.split(/\n/u).map((line) => line.trim()).filter((line) => line !== "")
  const total = labelled(lines, /\b(grand\s+)?total\b|amount\s+due|balance\s+due|total\s+due/iu, /sub\s*-?total|total\s+tax|untaxed/iu)
  const subtotal = labelled(lines, /sub\s*-?total|untaxed\s+amount|net\s+amount/iu)
  const tax = labelled(lines, /\b(tax|vat|gst)\b/iu, /total|tax\s*id|gstin/iu)
  const method = /\b(visa|mastercard|amex|american express|debit|credit card|card)\b/iu.test(text)
    ? "card"
    : /\bcash\b/iu.test(text)
    ? "cash"
    : null
  return {
    vendor: vendorOf(lines),
    date: findDate(text),
    total_cents: total,
    tax_cents: tax,
    // Unprinted, the subtotal is what the total and the tax leave (never guessed without a tax line).
    subtotal_cents: subtotal ?? (total !== null && tax !== null && tax <= total ? total - tax : null),
    payment_method: method
  }
}

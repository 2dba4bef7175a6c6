/**
 * Fixed-width fields of IRS Publication 1220 records: every record is 750 bytes of ASCII, its
 * fields at fixed 1-based positions. Alphanumeric fields are left-justified and blank-filled,
 * numeric fields right-justified and zero-filled; a value too long for its field is cut (names
 * and addresses) or refused (numbers, which must never lose digits).
 */

export const recordLength = 750

/** A record being written: positions 1..750, blank until set. */
export class Record {
  private readonly chars: Array<string> = new Array<string>(recordLength).fill(" ")

  /** Left-justified text at 1-based `position`, cut to `length`; non-ASCII becomes a blank. */
  alpha(position: number, length: number, value: string | null | undefined): this {
    const text = (value ?? "").replace(/[^\x20-\x7E]/g, " ").slice(0, length)
    for (let index = 0; index < text.length; index++) this.chars[position - 1 + index] = text[index]!
    return this
  }

  /** A non-negative integer right-justified and zero-filled in `length` digits. */
  numeric(position: number, length: number, value: number): this {
    if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`not a non-negative integer: ${value}`)
    const digits = String(value)
    if (digits.length > length) throw new RangeError(`${value} does not fit in ${length} digits`)
    return this.alpha(position, length, digits.padStart(length, "0"))
  }

  /** Digits given as text (a TIN, a ZIP code), left-justified. */
  digits(position: number, length: number, value: string | null | undefined): this {
    return this.alpha(position, length, (value ?? "").replace(/\D/g, ""))
  }

  toString(): string {
    return this.chars.join("")
  }
}

/** The 18 payment amount codes of Publication 1220, in the order of their fields. */
export const amountCodes = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "A", "B", "C", "D", "E", "F", "G", "H", "J"] as const
export type AmountCode = (typeof amountCodes)[number]

export type Amounts = Partial<Readonly<{ [code in AmountCode]: number }>>

/** Writes the 18 amounts of `width` digits each from `position` on (B: 12 digits; C and K: 18). */
export const writeAmounts = (record: Record, position: number, width: number, amounts: Amounts): Record => {
  amountCodes.forEach((code, index) => record.numeric(position + index * width, width, amounts[code] ?? 0))
  return record
}

/** The amount codes used, in the order the A record lists them (digits, then letters). */
export const usedCodes = (amounts: ReadonlyArray<Amounts>): string =>
  amountCodes.filter((code) => amounts.some((entry) => (entry[code] ?? 0) !== 0)).join("")

/** Adds the amounts code by code (the C and K records' control totals). */
export const sum = (amounts: ReadonlyArray<Amounts>): Amounts => {
  const total: { [code in AmountCode]?: number } = {}
  for (const entry of amounts) for (const code of amountCodes) if (entry[code] !== undefined) total[code] = (total[code] ?? 0) + entry[code]!
  return total
}

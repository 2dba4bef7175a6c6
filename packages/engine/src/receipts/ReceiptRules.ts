/**
 * Pure rules of receipts: the status a receipt shows, how a bank line is scored as a candidate,
 * and the fields Ledger reads itself from a receipt's text (the built-in, rule-based reader).
 */

export type Status = "new" | "extracted" | "matched" | "posted" | "discarded"

export interface StatusInput {
  readonly discarded: boolean
  readonly entryId: number | null
  readonly documentId: number | null
  readonly bankLineId: number | null
  /** The matched bank line has posted (it has an entry). */
  readonly bankLinePosted: boolean
  readonly extracted: boolean
}

/** Discarded wins; then posted (an expense, an attached document, or a matched line that posted); matched; extracted; new. */
export const statusOf = (input: StatusInput): Status =>
  input.discarded ? "discarded"
  : input.entryId !== null || input.documentId !== null || (input.bankLineId !== null && input.bankLinePosted) ? "posted"
  : input.bankLineId !== null ? "matched"
  : input.extracted ? "extracted"
  : "new"

export interface CandidateLine {
  readonly id: number
  readonly date: string
  readonly amountCents: number
  readonly payee: string | null
}

export type Reason = "amount" | "date_window" | "vendor"

const dayNumber = (date: string): number => Math.floor(Date.parse(`${date}T00:00:00Z`) / 86_400_000)

/** Lower-case words of three letters or more: "ACME Hardware, Inc." -> acme, hardware, inc. */
const words = (text: string): ReadonlyArray<string> => text.toLowerCase().match(/[a-z0-9]{3,}/gu) ?? []

/**
 * Why a bank line may be this receipt's payment: the same amount (money out of the receipt's
 * total), a date within `windowDays`, a vendor word in the payee. Score: 60 for the amount, up to
 * 25 for the date (closer scores more), 15 for the vendor. A line with no reason is no candidate.
 */
export const scoreLine = (
  receipt: { readonly totalCents: number | null; readonly date: string | null; readonly vendor: string | null },
  line: CandidateLine,
  windowDays: number
): { readonly score: number; readonly reasons: ReadonlyArray<Reason> } => {
  const reasons: Array<Reason> = []
  let score = 0
  if (receipt.totalCents !== null && receipt.totalCents > 0 && line.amountCents === -receipt.totalCents) {
    reasons.push("amount")
    score += 60
  }
  if (receipt.date !== null) {
    const apart = Math.abs(dayNumber(line.date) - dayNumber(receipt.date))
    if (apart <= windowDays) {
      reasons.push("date_window")
      score += Math.round(25 * (1 - apart / (windowDays + 1)))
    }
  }
  if (receipt.vendor !== null && line.payee !== null) {
    const payee = new Set(words(line.payee))
    if (words(receipt.vendor).some((word) => payee.has(word))) {
      reasons.push("vendor")
      score += 15
    }
  }
  return { score, reasons }
}

/** Fields a receipt carries; null when not known. */
export interface Fields {
  readonly vendor: string | null
  readonly date: string | null
  readonly total_cents: number | null
  readonly tax_cents: number | null
  readonly subtotal_cents: number | null
  readonly payment_method: "cash" | "card" | "other" | null
}

export const fieldNames = ["vendor", "date", "total_cents", "tax_cents", "subtotal_cents", "payment_method"] as const
export type FieldName = typeof fieldNames[number]

export const emptyFields: Fields = { vendor: null, date: null, total_cents: null, tax_cents: null, subtotal_cents: null, payment_method: null }

/**
 * Fields merged for a new reading: a field a person set (`edited`) is kept; otherwise the
 * reading's value wins when it has one, else the old value stays.
 */
export const merge = (current: Fields, reading: Partial<Fields>, edited: ReadonlyArray<string>): Fields => {
  const out: Record<string, unknown> = { ...current }
  for (const name of fieldNames) {
    const value = reading[name]
    if (!edited.includes(name) && value !== null && value !== undefined) out[name] = value
  }
  return out as unknown as Fields
}

export const foundFields = (reading: Partial<Fields>): ReadonlyArray<FieldName> =>
  fieldNames.filter((name) => reading[name] !== null && reading[name] !== undefined)

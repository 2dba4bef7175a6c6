import type { TaxForms } from "@ledger/api"
import type { AmountCode } from "./fire/Fields.ts"

/**
 * 1099 amounts (pure). Cash basis: a payment counts in the year it was made (Form 1099-NEC/MISC
 * instructions: report payments "made" in the calendar year). Two sources count:
 *
 * - Payments made in the sales area. A payment applied to bills is split over the bills' lines
 *   in proportion to their amounts (largest remainder, so the parts add up to the cent); a line
 *   whose account has a box goes in that box, the rest (and any part not applied to a bill, a
 *   payment on account) in the vendor's box (NEC box 1 when none).
 * - Journal entries posted by hand that name the vendor on a line and move a money account in
 *   the same entry (`entryPayments`): cash paid directly, a check written as an expense entry.
 *
 * Payments by credit card or through a payment processor (money accounts of subtype
 * `credit_card` or `clearing`) are left out: the card issuer or settlement organisation reports
 * them on Form 1099-K (IRC 6050W; 1099-NEC/MISC instructions). Thresholds: ADR 1306; the sources
 * and what is not counted: ADR 1308.
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

/** Accounts money is paid from: cash and bank, and the card and processor accounts (1099-K). */
export const moneySubtypes: ReadonlySet<string> = new Set(["cash", "bank", "undeposited_funds", "credit_card", "clearing"])

/** Paid by card or through a payment settlement entity: reported on Form 1099-K, not NEC/MISC. */
export const settledByThirdParty = (subtype: string | null): boolean => subtype === "credit_card" || subtype === "clearing"

export interface Payment {
  readonly id: number
  readonly contactId: number
  readonly amountCents: number
  readonly byCard: boolean
  /** The bill lines each application of the payment paid, with the application's amount. */
  readonly lines: ReadonlyArray<{ readonly application: number; readonly applied: number; readonly account: string; readonly lineAmount: number }>
}

/**
 * `total` split in proportion to `weights` (non-negative), exactly: the parts add up to `total`.
 * A negative total (a reversal) splits as the negative of its absolute value, so a reversal
 * cancels its original to the cent.
 */
export const split = (total: number, weights: ReadonlyArray<number>): Array<number> => {
  if (total < 0) return split(-total, weights).map((part) => part === 0 ? 0 : -part)
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

/** A line of a hand-posted entry (ledger ContactEntries): signed, debits positive. */
export interface EntryLine {
  readonly account: string
  readonly accountSubtype: string | null
  readonly amountCents: number
  readonly contactId: number | null
}

/** What one hand-posted entry paid one vendor: the cash out and the accounts it paid for. */
export interface EntryPayment {
  readonly contactId: number
  readonly amountCents: number
  readonly byCard: boolean
  readonly weights: ReadonlyArray<{ readonly account: string; readonly weight: number }>
}

const isMoney = (line: EntryLine) => line.accountSubtype !== null && moneySubtypes.has(line.accountSubtype)
const sum = (lines: ReadonlyArray<EntryLine>) => lines.reduce((total, line) => total + line.amountCents, 0)

/**
 * What a hand-posted entry paid each 1099 vendor it names. Cash basis: the entry must move a
 * money account, otherwise it is an accrual (expense against payables) and pays nothing yet.
 *
 * - The vendor named on a money line (the check's payee): the money that line paid out. The
 *   amount is split over the entry's other debit lines that name the vendor or nobody.
 * - The vendor named on other lines only (the expense lines): their net debit, in the direction
 *   the entry moved money and at most that much. Split over those lines.
 *
 * Card or processor money lines make it a 1099-K payment. A reversal gives the exact negative.
 */
export const entryPayments = (lines: ReadonlyArray<EntryLine>, reportable: (contactId: number) => boolean): Array<EntryPayment> => {
  const money = lines.filter(isMoney)
  const moneyOut = -sum(money)
  if (moneyOut === 0) return []
  const named = [...new Set(lines.flatMap((line) => line.contactId === null || !reportable(line.contactId) ? [] : [line.contactId]))]
  const result: Array<EntryPayment> = []
  for (const contactId of named) {
    const namedMoney = money.filter((line) => line.contactId === contactId)
    const paidOnMoney = -sum(namedMoney)
    if (paidOnMoney !== 0) {
      const others = lines.filter((line) => !isMoney(line) && (line.contactId === null || line.contactId === contactId) && Math.sign(line.amountCents) === Math.sign(paidOnMoney))
      result.push({
        contactId,
        amountCents: paidOnMoney,
        byCard: namedMoney.every((line) => settledByThirdParty(line.accountSubtype)),
        weights: others.map((line) => ({ account: line.account, weight: Math.abs(line.amountCents) }))
      })
      continue
    }
    const others = lines.filter((line) => !isMoney(line) && line.contactId === contactId)
    const net = sum(others)
    if (net === 0 || Math.sign(net) !== Math.sign(moneyOut)) continue
    const paid = Math.sign(net) * Math.min(Math.abs(net), Math.abs(moneyOut))
    result.push({
      contactId,
      amountCents: paid,
      byCard: money.filter((line) => Math.sign(-line.amountCents) === Math.sign(moneyOut)).every((line) => settledByThirdParty(line.accountSubtype)),
      weights: others.filter((line) => Math.sign(line.amountCents) === Math.sign(net)).map((line) => ({ account: line.account, weight: Math.abs(line.amountCents) }))
    })
  }
  return result
}

/** An entry payment's amount by box: account boxes first, the vendor's box for the rest. */
export const allocateEntry = (payment: EntryPayment, accountBox: (account: string) => Box | undefined, vendorBox: Box): Map<Box, number> => {
  const result = new Map<Box, number>()
  const add = (box: Box, cents: number) => cents !== 0 && result.set(box, (result.get(box) ?? 0) + cents)
  if (payment.weights.length === 0) {
    add(vendorBox, payment.amountCents)
    return result
  }
  split(payment.amountCents, payment.weights.map((part) => part.weight)).forEach((part, index) => add(accountBox(payment.weights[index]!.account) ?? vendorBox, part))
  return result
}

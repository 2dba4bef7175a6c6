import type { TaxLine } from "../tax/SalesTaxRules.ts"

/**
 * The exact journal entry of a sales or purchase document, a payment and a void (spec 4.7):
 * pure functions over resolved values, so the rules that move money are tested directly.
 */
export interface EntryLine {
  readonly account: string
  readonly debit_cents?: number
  readonly credit_cents?: number
  readonly memo?: string
  readonly class?: string
  readonly contact_id?: number
}

export interface Entry {
  readonly date: string
  readonly memo: string | null
  readonly lines: ReadonlyArray<EntryLine>
}

export type PostingKind = "invoice" | "credit_memo" | "bill" | "vendor_credit" | "sales_receipt" | "refund" | "vendor_refund"

/**
 * Whether the control account (AR, AP, or the bank for receipts and refunds) is debited. The
 * document's lines and tax lines always go to the other side.
 *   invoice        Dr AR,   Cr income      credit_memo    Dr income, Cr AR
 *   bill           Dr expense, Cr AP       vendor_credit  Dr AP,   Cr expense
 *   sales_receipt  Dr bank, Cr income      refund         Dr income, Cr bank
 *   vendor_refund  Dr bank, Cr expense
 */
export const controlIsDebited: Record<PostingKind, boolean> = {
  invoice: true,
  credit_memo: false,
  bill: false,
  vendor_credit: true,
  sales_receipt: true,
  refund: false,
  vendor_refund: true
}

export const side = (kind: PostingKind): "sales" | "purchases" =>
  kind === "bill" || kind === "vendor_credit" || kind === "vendor_refund" ? "purchases" : "sales"

export interface PostingLine {
  readonly account: string
  readonly amountCents: number
  readonly description: string | null
  readonly class: string | null
}

export interface PostingDocument {
  readonly kind: PostingKind
  readonly contactId: number
  readonly date: string
  readonly memo: string | null
  readonly controlAccount: string
  readonly lines: ReadonlyArray<PostingLine>
  readonly taxLines: ReadonlyArray<TaxLine>
}

const sided = (debit: boolean, cents: number): { debit_cents: number } | { credit_cents: number } =>
  (cents >= 0) === debit ? { debit_cents: Math.abs(cents) } : { credit_cents: Math.abs(cents) }

export const subtotal = (lines: ReadonlyArray<{ readonly amountCents: number }>): number =>
  lines.reduce((sum, line) => sum + line.amountCents, 0)

export const taxTotal = (taxLines: ReadonlyArray<{ readonly taxCents: number }>): number =>
  taxLines.reduce((sum, line) => sum + line.taxCents, 0)

/**
 * The document's entry: one line per document line (a negative line, a discount, goes to the
 * other side), one per jurisdiction's tax, and the control account for the total. Zero lines are
 * left out, since an entry line moves money.
 */
export const documentEntry = (document: PostingDocument): Entry => {
  const controlDebit = controlIsDebited[document.kind]
  const total = subtotal(document.lines) + taxTotal(document.taxLines)
  const lines: Array<EntryLine> = [{
    account: document.controlAccount,
    ...sided(controlDebit, total),
    contact_id: document.contactId,
    ...(document.memo === null ? {} : { memo: document.memo })
  }]
  for (const line of document.lines) {
    if (line.amountCents === 0) continue
    lines.push({
      account: line.account,
      ...sided(!controlDebit, line.amountCents),
      ...(line.description === null ? {} : { memo: line.description }),
      ...(line.class === null ? {} : { class: line.class })
    })
  }
  for (const tax of document.taxLines) {
    if (tax.taxCents === 0) continue
    lines.push({ account: tax.payableAccount, ...sided(!controlDebit, tax.taxCents), memo: `${tax.name} ${tax.ratePercent}%` })
  }
  return { date: document.date, memo: document.memo, lines }
}

/** Received: Dr bank, Cr AR. Made: Dr AP, Cr bank or card. */
export const paymentEntry = (payment: {
  readonly direction: "received" | "made"
  readonly contactId: number
  readonly date: string
  readonly memo: string | null
  readonly account: string
  readonly controlAccount: string
  readonly amountCents: number
}): Entry => {
  const received = payment.direction === "received"
  return {
    date: payment.date,
    memo: payment.memo,
    lines: [
      { account: payment.account, ...(received ? { debit_cents: payment.amountCents } : { credit_cents: payment.amountCents }) },
      {
        account: payment.controlAccount,
        ...(received ? { credit_cents: payment.amountCents } : { debit_cents: payment.amountCents }),
        contact_id: payment.contactId
      }
    ]
  }
}

/** The exact reversal: every line on the other side, on the void date. */
export const reversal = (entry: Pick<Entry, "lines">, date: string, memo: string | null): Entry => ({
  date,
  memo,
  lines: entry.lines.map(({ credit_cents, debit_cents, ...rest }) => ({
    ...rest,
    ...(debit_cents !== undefined && debit_cents > 0 ? { credit_cents: debit_cents } : { debit_cents: credit_cents ?? 0 })
  }))
})

/** The amount an entry moves: the sum of its debits (equal to its credits). */
export const entryAmount = (entry: Pick<Entry, "lines">): number =>
  entry.lines.reduce((sum, line) => sum + (line.debit_cents ?? 0), 0)

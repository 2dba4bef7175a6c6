/**
 * The online-payments area's pure rules, all in integer cents: what a charge nets, what is still
 * refundable, what a payout's lines add up to, the payout CSV, and which pay methods a company takes.
 */
import * as Csv from "../kernel/formats/Csv.ts"

export interface PayoutLine {
  readonly type: string
  readonly source: string
  readonly amount_cents: number
  readonly fee_cents: number
  readonly net_cents: number
}

/** What reaches the clearing account after the processor's fee. */
export const netOf = (amountCents: number, feeCents: number): number => amountCents - feeCents

/** What may still be refunded: the charge less refunds asked or done (failed ones free their amount). */
export const refundable = (amountCents: number, refunds: ReadonlyArray<{ readonly amount_cents: number; readonly status: string }>): number =>
  amountCents - refunds.filter((refund) => refund.status !== "failed").reduce((sum, refund) => sum + refund.amount_cents, 0)

/** The payout's amount is the sum of the nets it settled (the processor's own invariant). */
export const payoutTotal = (lines: ReadonlyArray<PayoutLine>): number => lines.reduce((sum, line) => sum + line.net_cents, 0)

/** A payer may pay the open balance, or a part of it when partial payments are allowed. */
export const payableAmount = (openCents: number, asked: number | undefined, allowPartial: boolean): { readonly ok: true; readonly cents: number } | { readonly ok: false; readonly why: "partial" | "over" } => {
  if (asked === undefined || asked === openCents) return { ok: true, cents: openCents }
  if (asked > openCents) return { ok: false, why: "over" }
  return allowPartial ? { ok: true, cents: asked } : { ok: false, why: "partial" }
}

export const methodsOf = (settings: { readonly accept_card: boolean; readonly accept_ach: boolean; readonly accept_stablecoin: boolean }): Array<"card" | "ach" | "stablecoin"> => [
  ...(settings.accept_card ? ["card" as const] : []),
  ...(settings.accept_ach ? ["ach" as const] : []),
  ...(settings.accept_stablecoin ? ["stablecoin" as const] : [])
]

/** The processor's method names for ours. */
export const processorMethod = (method: "card" | "ach" | "stablecoin"): string =>
  method === "card" ? "card" : method === "ach" ? "us_bank_account" : "crypto"

/**
 * The payout's lines as CSV: one row a balance transaction, amounts in dollars with two decimals.
 * Written by the reports' CSV writer so it has the same CRLF line ends and formula escaping as
 * every other CSV Ledger exports.
 */
export const payoutCsv = (lines: ReadonlyArray<PayoutLine>): string =>
  Csv.render(["type", "source", "amount", "fee", "net"], lines.map((line) =>
    [line.type, line.source, Csv.cents(line.amount_cents), Csv.cents(line.fee_cents), Csv.cents(line.net_cents)]))

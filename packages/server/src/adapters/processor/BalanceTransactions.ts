import type { Ports } from "@ledger/engine"

/**
 * What each of the processor's balance transactions books (issue 39 items 4 and 4's scenarios;
 * ADR 2131). Stripe's `balance_transaction.type` (API 2023-08-16, test/fixtures/providers/stripe)
 * names many kinds of money movement; `amount` is signed (positive into the balance), `fee` is
 * what the processor kept (negative when it gave a fee back), and the clearing account moves by
 * `net` = `amount - fee`. Each line's amount is signed: the entry's clearing line always equals
 * `net`, so after the payouts the clearing account is what the processor still holds.
 *
 * - `charge`, `payment`: the sale (`category`) and its fee.
 * - `refund`, `payment_refund`: the refund (`refund`) and any fee given back (a negative fee);
 *   `refund_failure` (the money came back) the same, the other way.
 * - `adjustment` of `reporting_category` `dispute` (funds withdrawn, `amount` negative, the dispute
 *   fee in `fee`) and `dispute_reversal` (a won dispute, funds reinstated): a `dispute` object
 *   booked to the `refund` kind keyed `dispute` and the `fee` kind keyed `dispute`, so a mapping of
 *   that key can send disputes to their own accounts.
 * - `payout`, `payout_cancel`, `payout_failure`: money to the bank, or back from it (`payout`).
 * - `stripe_fee`, `tax_fee`: the processor's own charges (`fee`).
 * - Anything else (other adjustments, transfers, issuing, climate, top-ups...) is not booked: the
 *   object is marked `unsupported`, so the sync keeps it as skipped with a note that says so.
 */

type Json = Record<string, any>

const line = (kind: Ports.SourceLine["kind"], key: string, amountCents: number): Array<Ports.SourceLine> =>
  amountCents === 0 ? [] : [{ kind, key: key.slice(0, 200), amountCents }]

const supported = (item: Json): Pick<Ports.SourceObject, "type" | "lines"> | null => {
  const amount = Number(item.amount)
  const fee = Number(item.fee ?? 0)
  switch (String(item.type)) {
    case "charge":
    case "payment":
      return { type: "charge", lines: [...line("category", String(item.category ?? "*"), amount), ...line("fee", "*", fee)] }
    case "refund":
    case "payment_refund":
    case "refund_failure":
      return { type: "refund", lines: [...line("refund", "*", -amount), ...line("fee", "*", fee)] }
    case "adjustment":
      if (item.reporting_category !== "dispute" && item.reporting_category !== "dispute_reversal") return null
      return { type: "dispute", lines: [...line("refund", "dispute", -amount), ...line("fee", "dispute", fee)] }
    case "payout":
    case "payout_cancel":
    case "payout_failure":
      return { type: "payout", lines: [...line("payout", "*", -amount), ...line("fee", "*", fee)] }
    case "stripe_fee":
    case "tax_fee":
      return { type: "charge", lines: line("fee", String(item.type), fee - amount) }
    default:
      return null
  }
}

export const processorObject = (item: Json): Ports.SourceObject => {
  const date = new Date(Number(item.created) * 1000).toISOString().slice(0, 10)
  // A balance transaction does not change once made (Stripe has no `updated`): its version is when it was made.
  const base = { id: String(item.id), version: String(item.created), date, description: String(item.description ?? item.type).slice(0, 500) }
  const booked = supported(item)
  if (booked !== null) return { ...base, ...booked }
  const kind = `${String(item.type)}${item.reporting_category === undefined ? "" : ` (${String(item.reporting_category)})`}`.slice(0, 100)
  return { ...base, type: "unsupported", lines: [], unsupported: `the processor's balance transaction type ${kind} is not booked` }
}

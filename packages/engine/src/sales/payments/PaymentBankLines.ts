import { Effect } from "effect"
import { BankLineLinks } from "../../banking/index.ts"
import * as Row from "../../kernel/Row.ts"
import type { BankLineFacts } from "./PaymentResolution.ts"

/**
 * A payment may name the bank line it explains (`bank_line_id`): the line's ledger account, date
 * and amount fill what the payment leaves out and must agree with what it gives; the line becomes
 * `proposed` while an agent's payment waits, `categorized` (linked to the entry) once it posts,
 * `unmatched` again when the proposal is rejected or the payment voided. The banking area owns
 * bank lines; this module is the sales side of packages/engine/src/banking/BankLineLinks.ts.
 */
export const resolve = Effect.fn("PaymentBankLines.resolve")(function*(
  bankLineId: number,
  direction: "received" | "made",
  amountCents: number | undefined
) {
  const line = yield* BankLineLinks.lockLine(bankLineId)
  const amount = amountCents ?? Math.abs(Row.int(line.amount_cents))
  const claimed = yield* BankLineLinks.claim({ bankLineId, direction, amountCents: amount })
  return { account: claimed.ledgerAccount, date: claimed.date, amountCents: amount } satisfies BankLineFacts
})

/** The payment posted: the line is categorized and linked to its entry. */
export const linkPosted = (bankLineId: number, entryId: number) => Effect.asVoid(BankLineLinks.linkPosted(bankLineId, entryId))

/** The payment is waiting for a person: the line is `proposed` until then. */
export const hold = (bankLineId: number, proposalId: number) => BankLineLinks.markProposed(bankLineId, proposalId)

/** The proposal was rejected: the line is `unmatched` again. */
export const release = (bankLineId: number, proposalId: number) => BankLineLinks.release(bankLineId, proposalId)

/** The payment is being voided: its line is `unmatched` again (refused once reconciled). */
export const releaseEntry = (entryId: number) => Effect.asVoid(BankLineLinks.releaseEntry(entryId))

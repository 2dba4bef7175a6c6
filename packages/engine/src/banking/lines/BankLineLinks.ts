import { Effect } from "effect"
import { ApiError } from "@ledger/api"
import * as Row from "../../kernel/Row.ts"
import * as BankAccounts from "../accounts/BankAccounts.ts"
import * as BankLineStore from "./BankLineStore.ts"

/**
 * BANK LINES AS THE BANK SIDE OF A PAYMENT: the functions the sales area calls inside its own
 * transaction when `POST /v1/payments/received` or `/made` names a `bank_line_id` (an unmatched
 * deposit or withdrawal that the payment categorizes). Every function works in the request's
 * transaction and locks the line, so the line and the payment commit or roll back together.
 *
 *   1. `claim({ bankLineId, direction, amountCents })` before posting (also on a dry run): the line
 *      must be visible, unmatched, posted by the bank (not pending), money in for `received` and
 *      money out for `made`, of exactly `amountCents`. It answers the line's date and its bank
 *      account's ledger account code: the payment must debit (received) or credit (made) that
 *      account, or its entry will not match the line. Refusals: 404 `not_found`, 409
 *      `bank_line_state`, 422 `validation_failed` (direction or amount, with `details.issues` under
 *      `body.bank_line_id`).
 *   2. Posted (201): `linkPosted(bankLineId, entryId)`: checks the entry moves the bank's ledger
 *      account by exactly the line's amount, and makes the line `categorized`, linked to the entry.
 *   3. Queued (202), in `onProposed`: `markProposed(bankLineId, proposalId)`: the line is `proposed`.
 *      Then in your proposal kind: `approved` calls `linkPosted` with the approved entry;
 *      `rejected` calls `release(bankLineId, proposalId)`, which returns the line to `unmatched`.
 *   4. Voiding a payment: `releaseEntry(entryId)` returns every line linked to the voided entry to
 *      `unmatched` (409 `bank_line_reconciled` when that entry is cleared in a finished
 *      reconciliation: the void must be refused then).
 */

/** Locks a bank line in the request's transaction and reads it (404 when not this company's). */
export const lockLine = BankLineStore.lockLine

export interface Claimed {
  readonly bankLineId: number
  readonly bankAccountId: number
  readonly date: string
  /** The code of the bank account's ledger account: the account the payment's bank side must use. */
  readonly ledgerAccount: string
}

export const claim = Effect.fn("BankLineLinks.claim")(function*(input: {
  readonly bankLineId: number
  readonly direction: "received" | "made"
  readonly amountCents: number
}) {
  const line = yield* BankLineStore.lockLine(input.bankLineId)
  yield* BankLineStore.requireStatus(line, ["unmatched"], "paid")
  yield* BankLineStore.requirePosted(line)
  const amount = Row.int(line.amount_cents)
  const wanted = input.direction === "received" ? input.amountCents : -input.amountCents
  if (amount !== wanted) {
    const message = Math.sign(amount) !== Math.sign(wanted)
      ? `The line is money ${amount > 0 ? "in" : "out"}; a payment ${input.direction} needs money ${input.direction === "received" ? "in" : "out"}.`
      : `The line is ${Math.abs(amount)} cents; the payment is ${input.amountCents} cents.`
    return yield* Effect.fail(ApiError.validationFailed(message, [{ path: ["body", "bank_line_id"], message }]))
  }
  const bank = yield* BankAccounts.load(Row.int(line.bank_account_id))
  return {
    bankLineId: input.bankLineId,
    bankAccountId: Row.int(line.bank_account_id),
    date: Row.date(line.line_date),
    ledgerAccount: String(bank.account_code)
  } satisfies Claimed
})

export const markProposed = Effect.fn("BankLineLinks.markProposed")(function*(bankLineId: number, proposalId: number) {
  const line = yield* BankLineStore.lockLine(bankLineId)
  yield* BankLineStore.requireStatus(line, ["unmatched"], "proposed")
  yield* BankLineStore.update(bankLineId, { status: "proposed", proposal_id: proposalId })
})

export const linkPosted = Effect.fn("BankLineLinks.linkPosted")(function*(bankLineId: number, entryId: number) {
  const line = yield* BankLineStore.lockLine(bankLineId)
  yield* BankLineStore.requireStatus(line, ["unmatched", "proposed"], "linked to a payment")
  const bank = yield* BankAccounts.load(Row.int(line.bank_account_id))
  const effect = yield* BankLineStore.entryEffect(entryId, Row.int(bank.account_id))
  if (effect === undefined || effect.effectCents !== Row.int(line.amount_cents)) {
    return yield* Effect.fail(ApiError.fail("entry_not_matchable", "The payment's entry does not move the bank line's account by the line's amount.", {
      entry_id: entryId,
      entry_effect_cents: effect?.effectCents ?? null,
      line_amount_cents: Row.int(line.amount_cents)
    }))
  }
  const updated = yield* BankLineStore.update(bankLineId, { status: "categorized", entry_id: entryId, proposal_id: null })
  return yield* BankLineStore.presentOne(updated)
})

export const release = Effect.fn("BankLineLinks.release")(function*(bankLineId: number, proposalId: number) {
  const line = yield* BankLineStore.lockLine(bankLineId)
  if (line.status === "proposed" && Row.intOrNull(line.proposal_id) === proposalId) {
    yield* BankLineStore.update(bankLineId, { status: "unmatched", proposal_id: null })
  }
})

export const releaseEntry = Effect.fn("BankLineLinks.releaseEntry")(function*(entryId: number) {
  const rows = yield* BankLineStore.linesOfEntry(entryId)
  for (const row of rows) {
    const reconciliationId = yield* BankLineStore.clearedInFinished(Row.int(row.bank_account_id), entryId)
    if (reconciliationId !== null) {
      return yield* Effect.fail(ApiError.fail("bank_line_reconciled", "A bank line matched to this entry is cleared in a finished reconciliation: undo that reconciliation first.", {
        reconciliation_id: reconciliationId,
        bank_line_id: Row.int(row.id)
      }))
    }
    yield* BankLineStore.update(Row.int(row.id), { status: "unmatched", entry_id: null })
  }
  return rows.length
})

import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { Sales as SalesApi } from "@ledger/api"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Row from "../kernel/Row.ts"
import { Governed } from "../ledger/index.ts"
import { area as sales } from "../sales/index.ts"
import { settingsOf } from "./Common.ts"

/**
 * What the processor confirmed, in the books (run acting as the processor, `Common.asProcessor`):
 * a charge is the invoice's payment (through the sales area: Dr clearing, Cr AR, applied) and its
 * fee (Dr fees, Cr clearing); a refund Dr refunds, Cr clearing; a dispute Dr chargebacks and fees,
 * Cr clearing, and back when won; a payout Dr the bank, Cr clearing.
 *
 * Each entry names its record as `source.id`: the fee its charge, the others their refund,
 * dispute or payout (an id reserved before posting, `Governed.reserveId`, when the row is written
 * after it).
 */

/** An id for a refund, dispute or payout row written after its entry, which names it first. */
export const reserveId = () => Governed.reserveId()

const post = (kind: string, memo: string, lines: ReadonlyArray<{ account: string; debit_cents?: number; credit_cents?: number }>, sourceId: number) =>
  Effect.gen(function*() {
    const request = yield* RequestContext
    const written = yield* Governed.write({
      kind,
      summary: memo,
      entry: { date: request.today, memo: memo.slice(0, 200), lines },
      request: { memo },
      dryRun: false,
      sourceId,
      onPosted: (entry) => Effect.succeed(entry.id)
    })
    return written.outcome._tag === "Posted" ? written.outcome.value : null
  })

const document = (id: number) =>
  Effect.map(sales.handlers.getDocument!({ path: { id }, query: {}, body: undefined }), (result) => result.body as SalesApi.Documents.Document)

/** The invoice's payment and the fee; answers the payment and fee entry ids. */
export const charge = Effect.fn("Posting.charge")(function*(settingsRow: Record<string, unknown>, row: Record<string, unknown>, feeCents: number) {
  const settings = settingsOf(settingsRow)
  const request = yield* RequestContext
  const amount = Row.int(row.amount_cents)
  const invoice = yield* document(Row.int(row.document_id))
  const applied = Math.min(amount, invoice.open_balance_cents)
  const payment = yield* sales.handlers.receivePayment!({
    path: {},
    query: {},
    body: {
      contact_id: Row.int(row.contact_id),
      payment_date: request.today,
      account: settings.clearing_account,
      amount_cents: amount,
      ...(applied > 0 ? { applications: [{ document_id: invoice.id, amount_cents: applied }] } : {}),
      reference: String(row.processor_payment_id).slice(0, 40),
      memo: `Online payment of invoice ${invoice.number}`
    }
  })
  const paymentId = (payment.body as { id?: number }).id ?? null
  const feeEntry = feeCents <= 0 ? null : yield* post("online_payment_fee", `Processor fee, invoice ${invoice.number}`, [
    { account: settings.fees_account, debit_cents: feeCents },
    { account: settings.clearing_account, credit_cents: feeCents }
  ], Row.int(row.id))
  return { paymentId, feeEntry }
})

/** `refundId`: the online refund's row (reserved when it is written after posting). */
export const refund = (settingsRow: Record<string, unknown>, amountCents: number, what: string, refundId: number) => {
  const settings = settingsOf(settingsRow)
  return post("online_payment_refund", `Refund of ${what}`, [
    { account: settings.refunds_account, debit_cents: amountCents },
    { account: settings.clearing_account, credit_cents: amountCents }
  ], refundId)
}

export const disputeOpened = (settingsRow: Record<string, unknown>, amountCents: number, feeCents: number, what: string, disputeId: number) => {
  const settings = settingsOf(settingsRow)
  return post("online_payment_dispute", `Chargeback of ${what}`, [
    { account: settings.chargebacks_account, debit_cents: amountCents },
    ...(feeCents > 0 ? [{ account: settings.fees_account, debit_cents: feeCents }] : []),
    { account: settings.clearing_account, credit_cents: amountCents + feeCents }
  ], disputeId)
}

/** The amount reinstated, and the fee when the processor returned it (most keep it). */
export const disputeWon = (settingsRow: Record<string, unknown>, amountCents: number, feeReturnedCents: number, what: string, disputeId: number) => {
  const settings = settingsOf(settingsRow)
  return post("online_payment_dispute", `Chargeback won: ${what}`, [
    { account: settings.clearing_account, debit_cents: amountCents + feeReturnedCents },
    { account: settings.chargebacks_account, credit_cents: amountCents },
    ...(feeReturnedCents > 0 ? [{ account: settings.fees_account, credit_cents: feeReturnedCents }] : [])
  ], disputeId)
}

/** The payout bank account's ledger account code, or null when none is set. */
export const bankLedgerAccount = Effect.fn("Posting.bankLedgerAccount")(function*(company: string, bankAccountId: number | null) {
  if (bankAccountId === null) return null
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ code: string }>`SELECT a.code FROM bank_accounts b JOIN accounts a ON a.company_id = b.company_id AND a.id = b.account_id
    WHERE b.company_id = ${company} AND b.id = ${bankAccountId}`.pipe(Effect.orDie)
  return rows[0]?.code ?? null
})

export const payout = Effect.fn("Posting.payout")(function*(
  company: string,
  settingsRow: Record<string, unknown>,
  amountCents: number,
  what: string,
  payoutId: number
) {
  const settings = settingsOf(settingsRow)
  const bank = yield* bankLedgerAccount(company, settings.payout_bank_account_id)
  if (bank === null || amountCents <= 0) return null
  return yield* post("online_payout", `Payout ${what}`, [
    { account: bank, debit_cents: amountCents },
    { account: settings.clearing_account, credit_cents: amountCents }
  ], payoutId)
})

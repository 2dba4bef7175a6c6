import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Row from "../kernel/Row.ts"
import { asProcessor, loadSettingsRow, processor, settingsOf } from "./Common.ts"
import * as Payouts from "./Payouts.ts"
import * as Posting from "./Posting.ts"

/** The processor account's state, as the processor has it now. */
export const account = Effect.fn("Sync.account")(function*(company: string, accountId: string) {
  const sql = yield* SqlClient.SqlClient
  const found = yield* processor((port) => port.retrieveAccount(accountId))
  yield* sql`UPDATE online_payment_settings SET charges_enabled = ${found.chargesEnabled}, payouts_enabled = ${found.payoutsEnabled},
    details_submitted = ${found.detailsSubmitted} WHERE company_id = ${company} AND processor_account_id = ${accountId}`.pipe(Effect.orDie)
})

/**
 * A pending charge as the processor has it now: succeeded books it (payment and fee), canceled
 * fails it. Answers the charge's row after. Any event (or sync) may call it; it books once.
 */
export const settleCharge = Effect.fn("Sync.settleCharge")(function*(company: string, settings: Record<string, unknown>, charge: Record<string, unknown>) {
  const sql = yield* SqlClient.SqlClient
  const request = yield* RequestContext
  if (charge.status !== "pending") return charge
  const intent = yield* processor((port) => port.retrievePaymentIntent({ accountId: String(settings.processor_account_id), id: String(charge.processor_payment_id) }))
  if (intent.status === "canceled") {
    const rows = yield* sql<Record<string, unknown>>`UPDATE online_charges SET status = 'failed', updated_at = ${request.now}
      WHERE company_id = ${company} AND id = ${Row.int(charge.id)} RETURNING *`.pipe(Effect.orDie)
    return rows[0]!
  }
  if (intent.status !== "succeeded") return charge
  const fee = intent.feeCents ?? 0
  const booked = yield* Posting.charge(settings, charge, fee)
  const rows = yield* sql<Record<string, unknown>>`UPDATE online_charges SET status = 'succeeded', fee_cents = ${fee}, paid_on = ${request.today},
    payment_id = ${booked.paymentId}, fee_entry_id = ${booked.feeEntry}, updated_at = ${request.now}
    WHERE company_id = ${company} AND id = ${Row.int(charge.id)} RETURNING *`.pipe(Effect.orDie)
  return rows[0]!
})

/** Catches up with the processor: the account, pending charges, recent payouts, payouts whose bank line has arrived. */
export const run = Effect.fn("Sync.run")(function*(company: string) {
  const sql = yield* SqlClient.SqlClient
  const before = yield* loadSettingsRow(company, true)
  if (before?.processor_account_id == null) return { account_status: "not_connected" as const, charges_updated: 0, payouts_recorded: 0, payouts_reconciled: 0 }
  const accountId = String(before.processor_account_id)
  return yield* asProcessor(company, Effect.gen(function*() {
    yield* account(company, accountId)
    const settings = (yield* loadSettingsRow(company))!
    let chargesUpdated = 0
    const pending = yield* sql<Record<string, unknown>>`SELECT * FROM online_charges WHERE company_id = ${company} AND status = 'pending' ORDER BY id FOR UPDATE`
      .pipe(Effect.orDie)
    for (const charge of pending) {
      const after = yield* settleCharge(company, settings, charge)
      if (after.status !== "pending") chargesUpdated++
    }
    let recorded = 0
    for (const payout of yield* processor((port) => port.listPayouts({ accountId, limit: 100 }))) {
      if (yield* Payouts.record(company, settings, payout)) recorded++
    }
    let reconciled = 0
    const open = yield* sql<Record<string, unknown>>`SELECT * FROM online_payouts WHERE company_id = ${company} AND bank_line_id IS NULL AND entry_id IS NOT NULL`
      .pipe(Effect.orDie)
    for (const payout of open) {
      if (yield* Payouts.reconcile(company, payout, settingsOf(settings).payout_bank_account_id)) reconciled++
    }
    return { account_status: settingsOf(settings).account_status, charges_updated: chargesUpdated, payouts_recorded: recorded, payouts_reconciled: reconciled }
  }), accountId)
})

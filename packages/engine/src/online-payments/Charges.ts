import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, OnlinePayments } from "@ledger/api"
import { requireCompanyId } from "../kernel/CompanyContext.ts"
import * as Handler from "../kernel/Handler.ts"
import * as Pagination from "../kernel/Pagination.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Row from "../kernel/Row.ts"
import * as ChargeStore from "./ChargeStore.ts"
import { loadSettingsRow, processor, requireActive, settingsOf } from "./Common.ts"
import * as PaymentRules from "./PaymentRules.ts"
import * as Posting from "./Posting.ts"

const refund = Handler.make(OnlinePayments.Charges.refundOnlineCharge, ({ path, body }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const request = yield* RequestContext
    const company = yield* requireCompanyId
    const row = yield* ChargeStore.loadRow(company, path.id, true)
    const charge = (yield* ChargeStore.assemble(company, [row]))[0]!
    if (charge.status !== "succeeded") return yield* Effect.fail(ApiError.fail("online_payments_state", `The charge is ${charge.status}: only a succeeded charge is refunded.`))
    const refundable = PaymentRules.refundable(charge.amount_cents, charge.refunds)
    const amount = body.amount_cents ?? refundable
    if (amount > refundable || amount <= 0) {
      return yield* Effect.fail(ApiError.fail("refund_exceeds_charge", `At most ${refundable} cents of this charge may still be refunded.`, { refundable_cents: refundable }))
    }
    const settingsRow = yield* loadSettingsRow(company)
    const settings = settingsOf(settingsRow)
    if (body.dry_run === true) {
      return {
        status: 200,
        body: { dry_run: true, charge_id: charge.id, amount_cents: amount, refundable_cents: refundable,
          entry: { debit_account: settings.refunds_account, credit_account: settings.clearing_account, amount_cents: amount } }
      }
    }
    const { accountId } = yield* requireActive(settingsRow)
    const asked = yield* processor((port) => port.createRefund({
      accountId, paymentIntentId: charge.processor_payment_id, amountCents: amount,
      metadata: { company_id: company, charge_id: String(charge.id) },
      idempotencyKey: `ledger-refund-${company}-${charge.id}-${request.idempotencyKey ?? request.now}`
    }))
    // The refund's id, reserved so that its entry names it (`source.id`).
    const refundId = yield* Posting.reserveId()
    const entryId = asked.status === "succeeded" ? yield* Posting.refund(settingsRow!, amount, `invoice ${charge.document_number}`, refundId) : null
    const rows = yield* sql<Record<string, unknown>>`INSERT INTO online_refunds ${sql.insert({
      id: refundId, company_id: company, charge_id: charge.id, processor_refund_id: asked.id, amount_cents: amount, reason: body.reason,
      status: asked.status, entry_id: entryId, created_at: request.now
    })} ON CONFLICT (processor_refund_id) DO UPDATE SET reason = EXCLUDED.reason RETURNING *`.pipe(Effect.orDie)
    const created = (yield* ChargeStore.assemble(company, [row]))[0]!.refunds.find((item) => item.id === Row.int(rows[0]!.id))!
    return { body: created, audit: { targetType: "online_charge", targetId: charge.id, reason: body.reason, details: { amount_cents: amount } } }
  }))

export const handlers = [
  Handler.make(OnlinePayments.Charges.listOnlinePayments, ({ query }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const company = yield* requireCompanyId
      const select = (after: number | null, limitPlusOne: number) =>
        sql<Record<string, unknown>>`SELECT * FROM online_charges WHERE company_id = ${company}
        ${query.document_id === undefined ? sql`` : sql`AND document_id = ${query.document_id}`}
        ${query.status === undefined ? sql`` : sql`AND status = ${query.status}`}
        ${after === null ? sql`` : sql`AND id < ${after}`}
        ORDER BY id DESC LIMIT ${limitPlusOne}`.pipe(Effect.orDie)
      // assemble answers the charges in the rows' order, as listPageLoaded wants.
      const load = (shown: ReadonlyArray<Record<string, unknown>>) => ChargeStore.assemble(company, shown)
      return { body: yield* Pagination.listPageLoaded(query, select, (row) => Row.int(row.id), load) }
    })),

  Handler.make(OnlinePayments.Charges.getOnlineCharge, ({ path }) =>
    Effect.gen(function*() {
      return { body: yield* ChargeStore.load(yield* requireCompanyId, path.id) }
    })),

  refund
]

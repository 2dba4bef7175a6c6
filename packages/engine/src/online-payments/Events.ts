import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, OnlinePayments } from "@ledger/api"
import { Billing } from "../billing/index.ts"
import * as Handler from "../kernel/Handler.ts"
import * as Audit from "../pipeline/Audit.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Row from "../kernel/Row.ts"
import type { Event } from "../ports/PaymentProcessor.ts"
import * as ChargeStore from "./ChargeStore.ts"
import { asProcessor, processor } from "./Common.ts"
import * as Payouts from "./Payouts.ts"
import * as Posting from "./Posting.ts"
import * as Sync from "./Sync.ts"

type Json = Record<string, any>

const settingsByAccount = Effect.fn("Events.settingsByAccount")(function*(accountId: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM online_payment_settings WHERE processor_account_id = ${accountId} FOR UPDATE`.pipe(Effect.orDie)
  return rows[0]
})

const refundEvent = Effect.fn("Events.refund")(function*(company: string, settings: Record<string, unknown>, object: Json) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT r.*, c.document_id FROM online_refunds r JOIN online_charges c ON c.company_id = r.company_id AND c.id = r.charge_id
    WHERE r.company_id = ${company} AND r.processor_refund_id = ${String(object.id)} FOR UPDATE OF r`.pipe(Effect.orDie)
  const refund = rows[0]
  if (refund === undefined || refund.status !== "pending" || object.status === "pending") return
  const entryId = object.status === "succeeded" ? yield* Posting.refund(settings, Row.int(refund.amount_cents), `payment ${String(object.payment_intent)}`, Row.int(refund.id)) : null
  yield* sql`UPDATE online_refunds SET status = ${String(object.status)}, entry_id = ${entryId} WHERE company_id = ${company} AND id = ${Row.int(refund.id)}`.pipe(Effect.orDie)
})

/**
 * The processor's fee for a dispute: the dispute object has none of its own; it is in the
 * dispute's balance transactions (`balance_transactions[].fee`, itemised in `fee_details`), the
 * one that withdrew the amount. Integer cents, never negative here.
 */
export const disputeFee = (object: Json): number => {
  const transactions = Array.isArray(object.balance_transactions) ? object.balance_transactions as Array<Json> : []
  const fee = transactions.filter((transaction) => Number(transaction?.amount) < 0).reduce((sum, transaction) => sum + (Number.isInteger(Number(transaction.fee)) ? Number(transaction.fee) : 0), 0)
  return Math.max(0, fee)
}

/** A dispute fee the processor gave back when the dispute was won (a negative fee on the reinstating transaction), in cents. */
export const feeReturned = (object: Json): number => {
  const transactions = Array.isArray(object.balance_transactions) ? object.balance_transactions as Array<Json> : []
  const fee = transactions.filter((transaction) => Number(transaction?.amount) > 0).reduce((sum, transaction) => sum + (Number.isInteger(Number(transaction.fee)) ? Number(transaction.fee) : 0), 0)
  return Math.max(0, -fee)
}

const disputeRow = Effect.fn("Events.disputeRow")(function*(company: string, settings: Record<string, unknown>, object: Json) {
  const sql = yield* SqlClient.SqlClient
  const found = yield* sql<Record<string, unknown>>`SELECT * FROM online_disputes WHERE company_id = ${company} AND processor_dispute_id = ${String(object.id)} FOR UPDATE`
    .pipe(Effect.orDie)
  if (found[0] !== undefined) return found[0]
  const charge = yield* ChargeStore.byProcessorId(company, String(object.payment_intent))
  if (charge === undefined) return undefined
  // A dispute may arrive before its payment's own event: the payment books first.
  const settled = yield* Sync.settleCharge(company, settings, charge)
  const amount = Number(object.amount)
  const fee = disputeFee(object)
  // The dispute's id, reserved so that its entry names it (`source.id`).
  const disputeId = yield* Posting.reserveId()
  const entryId = yield* Posting.disputeOpened(settings, amount, fee, `payment ${String(object.payment_intent)}`, disputeId)
  const rows = yield* sql<Record<string, unknown>>`INSERT INTO online_disputes ${sql.insert({
    id: disputeId, company_id: company, charge_id: Row.int(settled.id), processor_dispute_id: String(object.id), amount_cents: amount, fee_cents: fee, status: "open", entry_id: entryId
  })} RETURNING *`.pipe(Effect.orDie)
  return rows[0]
})

const disputeEvent = Effect.fn("Events.dispute")(function*(company: string, settings: Record<string, unknown>, object: Json) {
  const sql = yield* SqlClient.SqlClient
  const dispute = yield* disputeRow(company, settings, object)
  if (dispute === undefined || dispute.status !== "open" || (object.status !== "won" && object.status !== "lost")) return
  const entryId = object.status === "won"
    ? yield* Posting.disputeWon(settings, Row.int(dispute.amount_cents), feeReturned(object), `payment ${String(object.payment_intent)}`, Row.int(dispute.id))
    : null
  yield* sql`UPDATE online_disputes SET status = ${String(object.status)}, close_entry_id = ${entryId} WHERE company_id = ${company} AND id = ${Row.int(dispute.id)}`
    .pipe(Effect.orDie)
})

/**
 * The company's audit event of an applied processor event, under the processor's system principal
 * (ADR 1806): the receiver takes no credential, so the pipeline writes no event of its own, and
 * what the event books (a payment, fees, refunds, a payout) is the processor's doing, not anyone's
 * request.
 */
const audited = Effect.fn("Events.audited")(function*(company: string, event: Event) {
  const request = yield* RequestContext
  yield* Effect.orDie(Audit.record({
    companyId: company,
    occurredAt: request.now,
    action: "receiveProcessorEvent",
    outcome: "ok",
    status: 200,
    actor: request.actor,
    targetType: "processor_event",
    targetId: event.id,
    via: request.via,
    details: { type: event.type, account: event.account }
  }))
})

/** One verified event of a connected account, in its company's books. */
const connected = Effect.fn("Events.connected")(function*(event: Event) {
  const settings = yield* settingsByAccount(event.account!)
  if (settings === undefined) return
  const company = String(settings.company_id)
  const object = event.object as Json
  yield* asProcessor(company, Effect.gen(function*() {
    yield* audited(company, event)
    if (event.type === "account.updated") return yield* Sync.account(company, event.account!)
    if (event.type.startsWith("payment_intent.")) {
      const charge = yield* ChargeStore.byProcessorId(company, String(object.id))
      if (charge !== undefined) yield* Sync.settleCharge(company, settings, charge)
      return
    }
    if (event.type.startsWith("refund.") || event.type === "charge.refund.updated") return yield* refundEvent(company, settings, object)
    if (event.type.startsWith("charge.dispute.")) return yield* disputeEvent(company, settings, object)
    if (event.type === "payout.paid") {
      yield* Payouts.record(company, settings, {
        id: String(object.id), amountCents: Number(object.amount), status: "paid",
        arrivalDate: new Date(Number(object.arrival_date) * 1000).toISOString().slice(0, 10)
      })
    }
  }), event.account)
  return company
})

/**
 * The processor's signature header (`t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`), by its
 * lower-case name: Stripe's `Stripe-Signature`; `Processor-Signature`, the name this project's
 * fake used before, is still read.
 */
export const signatureHeader = "stripe-signature"
export const signatureHeaderBefore = "processor-signature"

/**
 * The event receiver (ADR 1803): the processor POSTs its event as the body, signed over those exact
 * bytes, so the signature is checked against the raw body the pipeline hands over (`rawBody`),
 * never against a re-encoding of the decoded JSON. A call without the raw request (MCP, an
 * embedder) has nothing to verify and is refused like a bad signature.
 */
export const handlers = [
  Handler.make(OnlinePayments.PayPage.receiveProcessorEvent, () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      if (request.raw === undefined) {
        return yield* Effect.fail(ApiError.fail("invalid_signature", "The processor's events are verified over their exact bytes: POST them over HTTP with the Stripe-Signature header."))
      }
      const nowSeconds = Math.floor(Date.parse(request.now) / 1000)
      const signature = request.raw.headers[signatureHeader] ?? request.raw.headers[signatureHeaderBefore] ?? ""
      const event = yield* processor((port) => port.verifyEvent({ payload: request.raw!.body, signature, nowSeconds }))
      // A request without a credential runs outside the pipeline's write transaction: the event's
      // id and everything it books commit together here, or none of it does (a failure leaves the
      // id free for the processor's retry).
      const apply = Effect.gen(function*() {
        const fresh = yield* sql`INSERT INTO online_payment_events ${sql.insert({ event_id: event.id, type: event.type, received_at: request.now })}
          ON CONFLICT (event_id) DO NOTHING RETURNING event_id`.pipe(Effect.orDie)
        if (fresh.length === 0) return { received: true, duplicate: true, event_id: event.id }
        const company = event.account === null ? yield* Billing.applyEvent(event) : yield* connected(event)
        if (company !== null && company !== undefined) {
          yield* sql`UPDATE online_payment_events SET company_id = ${company} WHERE event_id = ${event.id}`.pipe(Effect.orDie)
        }
        return { received: true, duplicate: false, event_id: event.id }
      })
      return { body: yield* sql.withTransaction(apply).pipe(Effect.catchTag("SqlError", Effect.die)) }
    }))
]

import { randomBytes } from "node:crypto"
import { PaymentProcessorPort } from "@ledger/engine/ports"

/**
 * The fake card processor's state and the scripted moves a test makes (the payer pays, the bank
 * settles a refund, a customer disputes, a payout leaves, a billing period turns). Each move
 * records the event the processor would send, signed with the endpoint secret.
 */

export type Json = Record<string, any>

export interface SignedEvent {
  readonly id: string
  readonly type: string
  readonly payload: string
  readonly signature: string
}

export interface State {
  readonly secretKey: string
  readonly webhookSecret: string
  nowSeconds: number | null
  readonly accounts: Map<string, Json>
  readonly links: Map<string, Json>
  readonly intents: Map<string, Json>
  readonly refunds: Map<string, Json>
  readonly disputes: Map<string, Json>
  readonly payouts: Map<string, Json>
  /** Balance transactions by account, oldest first; `payout` is set once a payout settles them. */
  readonly balance: Map<string, Array<Json>>
  readonly sessions: Map<string, Json>
  readonly subscriptions: Map<string, Json>
  readonly invoices: Array<Json>
  readonly events: Array<SignedEvent>
  /** Idempotency-Key -> the answer given, as the processor replays it. */
  readonly idempotent: Map<string, { readonly status: number; readonly body: Json }>
  readonly requests: Array<{ readonly method: string; readonly path: string; readonly headers: Record<string, string>; readonly body: string }>
}

export const newState = (secretKey: string, webhookSecret: string): State => ({
  secretKey,
  webhookSecret,
  nowSeconds: null,
  accounts: new Map(),
  links: new Map(),
  intents: new Map(),
  refunds: new Map(),
  disputes: new Map(),
  payouts: new Map(),
  balance: new Map(),
  sessions: new Map(),
  subscriptions: new Map(),
  invoices: [],
  events: [],
  idempotent: new Map(),
  requests: []
})

export const now = (state: State): number => state.nowSeconds ?? Math.floor(Date.now() / 1000)
export const newId = (prefix: string): string => `${prefix}_${randomBytes(12).toString("hex")}`

/** Records the event the processor sends for this change, signed as it would be. */
export const emit = (state: State, type: string, object: Json, account: string | null): SignedEvent => {
  const id = newId("evt")
  const payload = JSON.stringify({ id, object: "event", type, created: now(state), account, data: { object } }, null, 2)
  const event = { id, type, payload, signature: PaymentProcessorPort.signatureHeader(state.webhookSecret, now(state), payload) }
  state.events.push(event)
  return event
}

export const balanceOf = (state: State, account: string): Array<Json> => {
  const found = state.balance.get(account) ?? []
  state.balance.set(account, found)
  return found
}

/** The payer pays the intent: a charge with its fee lands in the account's balance. */
export const pay = (state: State, intentId: string, feeCents: number): Json => {
  const intent = state.intents.get(intentId)
  if (intent === undefined) throw new Error(`no payment intent ${intentId}`)
  const charge = newId("ch")
  const transaction = { id: newId("txn"), object: "balance_transaction", type: "charge", amount: intent.amount, fee: feeCents, net: intent.amount - feeCents, source: charge, payout: null }
  balanceOf(state, intent.account).push(transaction)
  Object.assign(intent, { status: "succeeded", latest_charge: { id: charge, balance_transaction: transaction } })
  emit(state, "payment_intent.succeeded", view(intent), intent.account)
  return intent
}

export const settleRefund = (state: State, refundId: string, status: "succeeded" | "failed"): void => {
  const refund = state.refunds.get(refundId)!
  refund.status = status
  if (status === "succeeded") {
    balanceOf(state, refund.account).push({ id: newId("txn"), type: "refund", amount: -refund.amount, fee: 0, net: -refund.amount, source: refund.id, payout: null })
  }
  emit(state, "refund.updated", view(refund), refund.account)
}

export const dispute = (state: State, intentId: string, feeCents: number): Json => {
  const intent = state.intents.get(intentId)!
  const created = { id: newId("dp"), object: "dispute", amount: intent.amount, fee: feeCents, payment_intent: intentId, status: "needs_response", account: intent.account }
  state.disputes.set(created.id, created)
  balanceOf(state, intent.account).push({ id: newId("txn"), type: "adjustment", amount: -intent.amount, fee: feeCents, net: -intent.amount - feeCents, source: created.id, payout: null })
  emit(state, "charge.dispute.created", view(created), intent.account)
  return created
}

export const closeDispute = (state: State, disputeId: string, won: boolean): void => {
  const found = state.disputes.get(disputeId)!
  found.status = won ? "won" : "lost"
  if (won) balanceOf(state, found.account).push({ id: newId("txn"), type: "adjustment", amount: found.amount, fee: 0, net: found.amount, source: found.id, payout: null })
  emit(state, "charge.dispute.closed", view(found), found.account)
}

/** Pays out everything not yet paid out: a payout whose lines are those balance transactions. */
export const payout = (state: State, account: string, arrivalDate: string): Json => {
  const open = balanceOf(state, account).filter((line) => line.payout === null && line.type !== "payout")
  const amount = open.reduce((sum, line) => sum + Number(line.net), 0)
  const created = { id: newId("po"), object: "payout", amount, currency: "usd", arrival_date: Math.floor(Date.parse(`${arrivalDate}T00:00:00Z`) / 1000), status: "paid", account }
  for (const line of open) line.payout = created.id
  balanceOf(state, account).push({ id: newId("txn"), type: "payout", amount: -amount, fee: 0, net: -amount, source: created.id, payout: created.id })
  state.payouts.set(created.id, created)
  emit(state, "payout.paid", view(created), account)
  return created
}

/** The payer finishes checkout: a customer and, in subscription mode, a subscription. */
export const completeCheckout = (state: State, sessionId: string): Json => {
  const session = state.sessions.get(sessionId)!
  session.status = "complete"
  session.customer = session.customer ?? newId("cus")
  if (session.mode === "subscription") {
    const trialDays = Number(session.subscription_data?.trial_period_days ?? 0)
    const periodEnd = now(state) + (trialDays > 0 ? trialDays : intervalDays(session.line_items)) * 86_400
    const subscription = {
      id: newId("sub"), object: "subscription", customer: session.customer, status: trialDays > 0 ? "trialing" : "active",
      current_period_end: periodEnd, trial_end: trialDays > 0 ? periodEnd : null, cancel_at_period_end: false,
      items: { data: (session.line_items as Array<Json>).map((item) => ({ price: { id: item.price }, quantity: Number(item.quantity ?? 1) })) },
      metadata: { company_id: session.client_reference_id }
    }
    state.subscriptions.set(subscription.id, subscription)
    session.subscription = subscription.id
    emit(state, "customer.subscription.created", subscription, null)
  }
  emit(state, "checkout.session.completed", view(session), null)
  return session
}

const intervalDays = (items: Array<Json>): number => (items ?? []).some((item) => String(item.price).endsWith("_year")) ? 365 : 30

/** Moves the processor's clock: subscriptions whose period ended renew (or end, when cancelled). */
export const advanceTo = (state: State, seconds: number): void => {
  state.nowSeconds = seconds
  for (const subscription of state.subscriptions.values()) {
    if (subscription.status === "canceled" || subscription.current_period_end > seconds) continue
    if (subscription.cancel_at_period_end === true) {
      subscription.status = "canceled"
      emit(state, "customer.subscription.deleted", subscription, null)
      continue
    }
    subscription.status = "active"
    subscription.trial_end = null
    subscription.current_period_end = subscription.current_period_end + intervalDays(subscription.items.data.map((item: Json) => ({ price: item.price.id }))) * 86_400
    emit(state, "customer.subscription.updated", subscription, null)
  }
}

/** What the API answers for an object: without the fake's own bookkeeping fields. */
export const view = (object: Json): Json => {
  const { account: _account, ...rest } = object
  return rest
}

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
  /** Balance transactions by account, oldest first (the API lists them newest first). */
  readonly balance: Map<string, Array<Json>>
  /** Balance transaction id -> the payout that settled it (the processor's own bookkeeping, not a field of the object). */
  readonly paidOut: Map<string, string>
  readonly sessions: Map<string, Json>
  readonly subscriptions: Map<string, Json>
  readonly invoices: Array<Json>
  readonly events: Array<SignedEvent>
  /** Idempotency-Key -> the answer given, as the processor replays it. */
  readonly idempotent: Map<string, { readonly status: number; readonly body: Json }>
  /** Every request as received (`path` with its query), with the answer given. */
  readonly requests: Array<{
    readonly method: string
    readonly path: string
    readonly headers: Record<string, string>
    readonly body: string
    readonly status: number
    readonly answer: Json
  }>
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
  paidOut: new Map(),
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
  // A platform event (billing) has no `account` at all; a connected account's names it.
  const payload = JSON.stringify({ id, object: "event", type, created: now(state), ...(account === null ? {} : { account }), data: { object } }, null, 2)
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
  const transaction = { id: newId("txn"), object: "balance_transaction", type: "charge", amount: intent.amount, fee: feeCents, net: intent.amount - feeCents, source: charge, created: now(state), currency: "usd", status: "available" }
  balanceOf(state, intent.account).push(transaction)
  Object.assign(intent, { status: "succeeded", latest_charge: { id: charge, balance_transaction: transaction } })
  emit(state, "payment_intent.succeeded", view(intent), intent.account)
  return intent
}

export const settleRefund = (state: State, refundId: string, status: "succeeded" | "failed"): void => {
  const refund = state.refunds.get(refundId)!
  refund.status = status
  if (status === "succeeded") {
    balanceOf(state, refund.account).push({ id: newId("txn"), object: "balance_transaction", type: "refund", amount: -refund.amount, currency: "usd", created: now(state), fee: 0, net: -refund.amount, source: refund.id, status: "available" })
  }
  emit(state, "refund.updated", view(refund), refund.account)
}

/**
 * A balance transaction of a dispute, as the processor lists it in the dispute's
 * `balance_transactions` and in the balance: the fee in `fee` and itemised in `fee_details`.
 */
const disputeTransaction = (state: State, source: string, amount: number, fee: number): Json => ({
  id: newId("txn"), object: "balance_transaction", type: "adjustment", reporting_category: "dispute", amount, currency: "usd", created: now(state),
  fee, fee_details: fee === 0 ? [] : [{ amount: fee, currency: "usd", description: "Dispute fee", type: "stripe_fee", application: null }],
  net: amount - fee, source, status: "available"
})

/**
 * The payer disputes the charge: the amount and the dispute fee are withdrawn (one balance
 * transaction). The dispute object carries no fee of its own: it is in its balance transactions.
 */
export const dispute = (state: State, intentId: string, feeCents: number): Json => {
  const intent = state.intents.get(intentId)!
  const id = newId("dp")
  const withdrawn = disputeTransaction(state, id, -intent.amount, feeCents)
  const created = {
    id, object: "dispute", amount: intent.amount, currency: "usd", charge: intent.latest_charge?.id ?? null, payment_intent: intentId,
    balance_transactions: [withdrawn], reason: "fraudulent", status: "needs_response", created: now(state), livemode: false, metadata: {}, account: intent.account
  }
  state.disputes.set(created.id, created)
  balanceOf(state, intent.account).push(withdrawn)
  emit(state, "charge.dispute.created", view(created), intent.account)
  return created
}

/** The dispute closes; won, the amount is reinstated (a second balance transaction; the fee is not returned). */
export const closeDispute = (state: State, disputeId: string, won: boolean): void => {
  const found = state.disputes.get(disputeId)!
  found.status = won ? "won" : "lost"
  if (won) {
    const reinstated = disputeTransaction(state, found.id, found.amount, 0)
    found.balance_transactions = [...found.balance_transactions, reinstated]
    balanceOf(state, found.account).push(reinstated)
  }
  emit(state, "charge.dispute.closed", view(found), found.account)
}

/** Pays out everything not yet paid out: a payout whose lines are those balance transactions. */
export const payout = (state: State, account: string, arrivalDate: string): Json => {
  const open = balanceOf(state, account).filter((line) => !state.paidOut.has(line.id) && line.type !== "payout")
  const amount = open.reduce((sum, line) => sum + Number(line.net), 0)
  const created = { id: newId("po"), object: "payout", amount, currency: "usd", arrival_date: Math.floor(Date.parse(`${arrivalDate}T00:00:00Z`) / 1000), status: "paid", account }
  for (const line of open) state.paidOut.set(line.id, created.id)
  const own = { id: newId("txn"), object: "balance_transaction", type: "payout", amount: -amount, currency: "usd", created: now(state), fee: 0, net: -amount, source: created.id, status: "available" }
  state.paidOut.set(own.id, created.id)
  balanceOf(state, account).push(own)
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
      items: { object: "list", data: (session.line_items as Array<Json>).map((item) => subscriptionItem(String(item.price), Number(item.quantity ?? 1))), has_more: false },
      metadata: { company_id: session.client_reference_id }
    }
    state.subscriptions.set(subscription.id, subscription)
    session.subscription = subscription.id
    emit(state, "customer.subscription.created", subscription, null)
  }
  emit(state, "checkout.session.completed", view(session), null)
  return session
}

/** Days in the items' billing interval: a year when a price is yearly (`..._year`), else a month. */
export const intervalDays = (items: Array<Json>): number =>
  (items ?? []).some((item) => String(typeof item.price === "object" && item.price !== null ? item.price.id : item.price).endsWith("_year")) ? 365 : 30

const subscriptionItem = (price: string, quantity: number): Json => ({ id: newId("si"), object: "subscription_item", price: { id: price, object: "price" }, quantity })

/**
 * A subscription update's `items` as the processor reads them: an entry with `id` changes that
 * item (its price, its quantity) or removes it (`deleted`); one without `id` adds an item. Answers
 * the new items, or why the update is refused: an unknown item, or two items of one price.
 */
export const updateItems = (_state: State, subscription: Json, changes: Array<Json>): Array<Json> | string => {
  let items: Array<Json> = (subscription.items.data as Array<Json>).map((item) => ({ ...item, price: { ...item.price } }))
  for (const change of changes ?? []) {
    if (change === undefined) continue
    if (change.id === undefined) {
      if (change.price === undefined) return "Missing required param: items[][price]."
      items.push(subscriptionItem(String(change.price), Number(change.quantity ?? 1)))
      continue
    }
    const item = items.find((candidate) => candidate.id === change.id)
    if (item === undefined) return `Invalid subscription item id: ${String(change.id)}`
    if (change.deleted === "true") {
      items = items.filter((candidate) => candidate !== item)
      continue
    }
    if (change.price !== undefined) item.price = { id: String(change.price), object: "price" }
    if (change.quantity !== undefined) item.quantity = Number(change.quantity)
  }
  const prices = items.map((item) => String(item.price.id))
  const duplicate = prices.find((price, index) => prices.indexOf(price) !== index)
  if (duplicate !== undefined) return `Cannot add multiple subscription items with the same price: ${duplicate}`
  return items
}

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
    subscription.current_period_end = subscription.current_period_end + intervalDays(subscription.items.data) * 86_400
    emit(state, "customer.subscription.updated", subscription, null)
  }
}

/**
 * What the API answers for an object: without the fake's own bookkeeping fields (the connected
 * account it lives on; a checkout's line items and subscription settings as they were asked for,
 * which the processor answers only when expanded).
 */
export const view = (object: Json): Json => {
  const { account: _account, line_items: _items, subscription_data: _subscription, ...rest } = object
  return rest
}

/**
 * One page of a list, as the processor pages it: `newestFirst` is the whole list in its order
 * (newest first), `limit` 1 to 100 (default 10), `starting_after` the objects after that one
 * (older), `ending_before` those just before it (newer, still newest first), `has_more` whether
 * the list goes on in the direction asked.
 */
export const page = (newestFirst: Array<Json>, query: URLSearchParams, url: string): { status: number; body: Json } => {
  const limit = Number(query.get("limit") ?? 10)
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    return { status: 400, body: { error: { type: "invalid_request_error", message: "Invalid integer: limit must be between 1 and 100", param: "limit" } } }
  }
  const after = query.get("starting_after")
  const before = query.get("ending_before")
  const indexOf = (id: string) => newestFirst.findIndex((item) => item.id === id)
  for (const [param, id] of [["starting_after", after], ["ending_before", before]] as const) {
    if (id !== null && indexOf(id) < 0) return { status: 400, body: { error: { type: "invalid_request_error", message: `No such object: '${id}'`, param } } }
  }
  if (before !== null) {
    const newer = newestFirst.slice(0, indexOf(before))
    return { status: 200, body: { object: "list", url, data: newer.slice(Math.max(0, newer.length - limit)), has_more: newer.length > limit } }
  }
  const start = after === null ? 0 : indexOf(after) + 1
  return { status: 200, body: { object: "list", url, data: newestFirst.slice(start, start + limit), has_more: start + limit < newestFirst.length } }
}

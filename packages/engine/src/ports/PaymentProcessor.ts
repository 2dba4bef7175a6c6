import { hmac } from "@noble/hashes/hmac.js"
import { sha256 } from "@noble/hashes/sha2.js"
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js"
import { Context, Data, Effect, Layer } from "effect"

/**
 * The card processor online payments and billing go through (spec 4.12, 4.13), modelled on the
 * API of the most used one: connected accounts with hosted onboarding links, payment intents,
 * refunds, disputes, payouts with their balance transactions, checkout and portal sessions,
 * subscriptions, and events signed `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.payload">`.
 * Every amount is integer cents. The real adapter is @ledger/server `adapters/PaymentProcessorHttp.ts`
 * (LEDGER_PAYMENTS_URL, LEDGER_PAYMENTS_SECRET_KEY, LEDGER_PAYMENTS_WEBHOOK_SECRET); the testkit's
 * `FakePaymentProcessor` serves the same HTTP API on loopback. Unconfigured, the operations that
 * need it answer 503 `online_payments_not_configured`.
 */

export class ProcessorFailure extends Data.TaggedError("ProcessorFailure")<{
  readonly code: "not_configured" | "invalid_request" | "card_declined" | "unauthorized" | "unavailable" | "bad_signature" | "error"
  readonly message: string
}> {}

export interface Account {
  readonly id: string
  readonly chargesEnabled: boolean
  readonly payoutsEnabled: boolean
  readonly detailsSubmitted: boolean
}

export interface PaymentIntent {
  readonly id: string
  readonly amountCents: number
  readonly status: "requires_payment_method" | "processing" | "succeeded" | "canceled"
  readonly clientSecret: string
  /** The processor's fee of the succeeded charge, from its balance transaction; null before. */
  readonly feeCents: number | null
  readonly metadata: Readonly<Record<string, string>>
}

export interface Refund {
  readonly id: string
  readonly paymentIntentId: string
  readonly amountCents: number
  readonly status: "pending" | "succeeded" | "failed"
}

export interface BalanceLine {
  readonly id: string
  readonly type: string
  readonly amountCents: number
  readonly feeCents: number
  readonly netCents: number
  readonly source: string
}

export interface Payout {
  readonly id: string
  readonly amountCents: number
  readonly arrivalDate: string
  readonly status: "pending" | "in_transit" | "paid" | "failed" | "canceled"
}

export interface CheckoutSession {
  readonly id: string
  readonly url: string
  readonly status: "open" | "complete" | "expired"
  readonly customerId: string | null
  readonly subscriptionId: string | null
  readonly metadata: Readonly<Record<string, string>>
}

export interface SubscriptionItem {
  /** The processor's id of the item on a subscription (absent on a checkout's line items). */
  readonly id?: string | undefined
  readonly price: string
  readonly quantity: number
}

/**
 * One change to a subscription's items, as the processor reads it: with `id` it changes that item
 * (price, quantity) or removes it (`deleted`); without `id` it adds an item, and the processor
 * refuses an item whose price the subscription already has.
 */
export interface SubscriptionItemChange {
  readonly id?: string | undefined
  readonly price?: string | undefined
  readonly quantity?: number | undefined
  readonly deleted?: boolean | undefined
}

export interface Subscription {
  readonly id: string
  readonly customerId: string
  readonly status: "trialing" | "active" | "past_due" | "canceled" | "incomplete"
  readonly currentPeriodEnd: number
  readonly trialEnd: number | null
  readonly cancelAtPeriodEnd: boolean
  readonly items: ReadonlyArray<SubscriptionItem>
  readonly metadata: Readonly<Record<string, string>>
}

/** A verified event: its object as the processor sent it (snake_case JSON). */
export interface Event {
  readonly id: string
  readonly type: string
  readonly created: number
  /** The connected account it happened on; null for the platform's own (billing). */
  readonly account: string | null
  readonly object: Readonly<Record<string, unknown>>
}

export class PaymentProcessor extends Context.Service<PaymentProcessor, {
  readonly configured: boolean
  readonly createAccount: (input: { readonly reference: string; readonly idempotencyKey: string }) => Effect.Effect<Account, ProcessorFailure>
  readonly retrieveAccount: (accountId: string) => Effect.Effect<Account, ProcessorFailure>
  /** A single-use hosted onboarding link, valid a few minutes. */
  readonly accountLink: (input: { readonly accountId: string; readonly returnUrl: string; readonly refreshUrl: string }) =>
    Effect.Effect<{ readonly url: string; readonly expiresAt: number }, ProcessorFailure>
  readonly createPaymentIntent: (input: {
    readonly accountId: string
    readonly amountCents: number
    readonly methods: ReadonlyArray<string>
    readonly description: string
    readonly metadata: Readonly<Record<string, string>>
    readonly idempotencyKey: string
  }) => Effect.Effect<PaymentIntent, ProcessorFailure>
  readonly retrievePaymentIntent: (input: { readonly accountId: string; readonly id: string }) => Effect.Effect<PaymentIntent, ProcessorFailure>
  readonly createRefund: (input: {
    readonly accountId: string
    readonly paymentIntentId: string
    readonly amountCents: number
    readonly metadata: Readonly<Record<string, string>>
    readonly idempotencyKey: string
  }) => Effect.Effect<Refund, ProcessorFailure>
  readonly listPayouts: (input: { readonly accountId: string; readonly limit: number }) => Effect.Effect<ReadonlyArray<Payout>, ProcessorFailure>
  /** The balance transactions a payout settled (charges, refunds, disputes, fees). */
  readonly payoutLines: (input: { readonly accountId: string; readonly payoutId: string }) => Effect.Effect<ReadonlyArray<BalanceLine>, ProcessorFailure>
  readonly createCheckoutSession: (input: {
    readonly mode: "subscription" | "payment"
    readonly items: ReadonlyArray<SubscriptionItem>
    readonly customerId: string | null
    readonly reference: string
    readonly successUrl: string
    readonly cancelUrl: string
    readonly trialDays: number
    readonly idempotencyKey: string
  }) => Effect.Effect<CheckoutSession, ProcessorFailure>
  readonly retrieveCheckoutSession: (id: string) => Effect.Effect<CheckoutSession, ProcessorFailure>
  readonly createPortalSession: (input: { readonly customerId: string; readonly returnUrl: string }) => Effect.Effect<{ readonly url: string }, ProcessorFailure>
  readonly retrieveSubscription: (id: string) => Effect.Effect<Subscription, ProcessorFailure>
  /** Changes the items, each named by its id; `prorate` charges the difference at once (an invoice now), else none. */
  readonly updateSubscription: (input: {
    readonly id: string
    readonly items: ReadonlyArray<SubscriptionItemChange>
    readonly prorate: boolean
    readonly idempotencyKey: string
  }) => Effect.Effect<Subscription, ProcessorFailure>
  readonly cancelSubscription: (input: { readonly id: string; readonly atPeriodEnd: boolean }) => Effect.Effect<Subscription, ProcessorFailure>
  /** Checks the `t=...,v1=...` header against the endpoint secret within the tolerance window. */
  readonly verifyEvent: (input: { readonly payload: string; readonly signature: string; readonly nowSeconds: number }) =>
    Effect.Effect<Event, ProcessorFailure>
}>()("@ledger/engine/PaymentProcessor") {
  static readonly layerUnconfigured: Layer.Layer<PaymentProcessor> = Layer.succeed(PaymentProcessor)(PaymentProcessor.of({
    configured: false,
    createAccount: () => Effect.fail(notConfigured),
    retrieveAccount: () => Effect.fail(notConfigured),
    accountLink: () => Effect.fail(notConfigured),
    createPaymentIntent: () => Effect.fail(notConfigured),
    retrievePaymentIntent: () => Effect.fail(notConfigured),
    createRefund: () => Effect.fail(notConfigured),
    listPayouts: () => Effect.fail(notConfigured),
    payoutLines: () => Effect.fail(notConfigured),
    createCheckoutSession: () => Effect.fail(notConfigured),
    retrieveCheckoutSession: () => Effect.fail(notConfigured),
    createPortalSession: () => Effect.fail(notConfigured),
    retrieveSubscription: () => Effect.fail(notConfigured),
    updateSubscription: () => Effect.fail(notConfigured),
    cancelSubscription: () => Effect.fail(notConfigured),
    verifyEvent: () => Effect.fail(notConfigured)
  }))
}

const notConfigured = new ProcessorFailure({ code: "not_configured", message: "No payment processor is configured on this deployment (LEDGER_PAYMENTS_URL)." })

/** Seconds a signed event stays acceptable either side of now. */
export const signatureToleranceSeconds = 300

/** The v1 signature: hex HMAC-SHA256 of `${t}.${payload}` under the endpoint secret. */
export const signEvent = (secret: string, timestamp: number, payload: string): string =>
  bytesToHex(hmac(sha256, utf8ToBytes(secret), utf8ToBytes(`${timestamp}.${payload}`)))

export const signatureHeader = (secret: string, timestamp: number, payload: string): string =>
  `t=${timestamp},v1=${signEvent(secret, timestamp, payload)}`

/** Compares in time independent of where the strings differ. */
export const constantTimeEqual = (left: string, right: string): boolean => {
  let difference = left.length ^ right.length
  for (let index = 0; index < Math.max(left.length, right.length); index++) {
    difference |= (left.charCodeAt(index) || 0) ^ (right.charCodeAt(index) || 0)
  }
  return difference === 0
}

/** Why a header does not verify, or null when one of its v1 signatures matches within tolerance. */
export const signatureRefusal = (secret: string, header: string, payload: string, nowSeconds: number): string | null => {
  const parts = header.split(",").map((part) => part.trim().split("="))
  const timestamps = parts.filter(([key]) => key === "t").map(([, value]) => Number(value))
  const signatures = parts.filter(([key]) => key === "v1").map(([, value]) => value ?? "")
  const timestamp = timestamps[0]
  if (timestamp === undefined || !Number.isInteger(timestamp) || signatures.length === 0) return "malformed signature header"
  if (Math.abs(nowSeconds - timestamp) > signatureToleranceSeconds) return "timestamp outside the tolerance window"
  const expected = signEvent(secret, timestamp, payload)
  return signatures.some((signature) => constantTimeEqual(signature, expected)) ? null : "no matching v1 signature"
}

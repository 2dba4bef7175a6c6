import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { PaymentProcessor } from "@ledger/engine/ports"
import { FakePaymentProcessor } from "@ledger/testkit"
import { description, eventProblems, requestProblems, responseProblems } from "../support/providers/stripe.ts"

/**
 * The card processor's contract (issue 39): every request the real adapter (PaymentProcessorHttp)
 * sends in a whole scenario, every answer the testkit's fake gives and every event it signs, checked
 * against Stripe's published OpenAPI description (test/fixtures/providers/stripe, API 2023-08-16).
 * A wrong request (a relative URL, an item added beside its own price) is refused by the fake as the
 * real service refuses it, and reported by the check.
 */
const fake = FakePaymentProcessor.make({ secretKey: "sk_test_contract", webhookSecret: "whsec_contract" })
beforeAll(() => fake.start())
afterAll(() => fake.close())

const run = <A, E>(f: (port: PaymentProcessor["Service"]) => Effect.Effect<A, E>) =>
  Effect.runPromise(Effect.provide(Effect.gen(function*() {
    return yield* f(yield* PaymentProcessor)
  }), fake.layer))

const app = "https://app.ledger.test/books"

describe(`the card processor against Stripe's description (API ${description.info.version})`, () => {
  it("every request of a whole scenario, every answer and every event match it", async () => {
    const account = await run((port) => port.createAccount({ reference: "company-c", idempotencyKey: "acct-c" }))
    await run((port) => port.accountLink({ accountId: account.id, returnUrl: `${app}/settings/online-payments?onboarding=done`, refreshUrl: `${app}/settings/online-payments?onboarding=again` }))
    fake.completeOnboarding(account.id)
    await run((port) => port.retrieveAccount(account.id))
    const intent = await run((port) => port.createPaymentIntent({ accountId: account.id, amountCents: 20_000, methods: ["card", "us_bank_account"], description: "Invoice 1", metadata: { document_id: "1" }, idempotencyKey: "pi-c1" }))
    fake.pay(intent.id, 610)
    await run((port) => port.retrievePaymentIntent({ accountId: account.id, id: intent.id }))
    const refund = await run((port) => port.createRefund({ accountId: account.id, paymentIntentId: intent.id, amountCents: 1_000, metadata: { refund_id: "1" }, idempotencyKey: "re-c1" }))
    fake.settleRefund(refund.id)
    const disputed = await run((port) => port.createPaymentIntent({ accountId: account.id, amountCents: 5_000, methods: ["card"], description: "Invoice 2", metadata: {}, idempotencyKey: "pi-c2" }))
    fake.pay(disputed.id, 175)
    const dispute = fake.dispute(disputed.id, 1_500)
    fake.closeDispute(dispute.id, true)
    const payout = fake.payout(account.id, "2026-03-10")
    const lines = await run((port) => port.payoutLines({ accountId: account.id, payoutId: payout.id }))
    expect(lines.reduce((sum, line) => sum + line.netCents, 0)).toBe(payout.amount)
    await run((port) => port.listPayouts({ accountId: account.id, limit: 10 }))

    const session = await run((port) => port.createCheckoutSession({
      mode: "subscription", items: [{ price: "ledger_solo_month", quantity: 1 }, { price: "ledger_feed_account_month", quantity: 2 }], customerId: null, reference: "company-c",
      successUrl: `${app}/settings/billing?session_id={CHECKOUT_SESSION_ID}`, cancelUrl: `${app}/settings/billing`, trialDays: 14, idempotencyKey: "cs-c1"
    }))
    fake.completeCheckout(session.id)
    const completed = await run((port) => port.retrieveCheckoutSession(session.id))
    await run((port) => port.createPortalSession({ customerId: completed.customerId!, returnUrl: `${app}/settings/billing` }))
    const subscription = await run((port) => port.retrieveSubscription(completed.subscriptionId!))
    const [plan, feeds] = subscription.items
    await run((port) => port.updateSubscription({
      id: subscription.id, prorate: true, idempotencyKey: "sub-c1",
      items: [{ id: plan!.id, price: "ledger_business_month", quantity: 1 }, { id: feeds!.id, deleted: true }, { price: "ledger_crypto_month", quantity: 1 }]
    }))
    await run((port) => port.cancelSubscription({ id: subscription.id, atPeriodEnd: true }))

    const requests = fake.state.requests
    expect(requests.length).toBe(15)
    expect(requests.filter((request) => request.status !== 200).map((request) => [request.path, request.answer])).toEqual([])
    expect(requests.flatMap((request) => requestProblems(request))).toEqual([])
    expect(requests.flatMap(responseProblems)).toEqual([])
    expect(fake.take().flatMap((event) => eventProblems(event.payload))).toEqual([])
  })

  it("a relative URL: refused by the fake as by the processor, and reported by the check", async () => {
    const account = await run((port) => port.createAccount({ reference: "company-r", idempotencyKey: "acct-r" }))
    const refused = await run((port) => Effect.flip(port.createPortalSession({ customerId: "cus_x", returnUrl: "/settings/billing" })))
    expect(refused).toMatchObject({ code: "invalid_request", message: "Not a valid URL" })
    const link = await run((port) => Effect.flip(port.accountLink({ accountId: account.id, returnUrl: "/done", refreshUrl: `${app}/again` })))
    expect(link.message).toBe("Not a valid URL")
    const sent = fake.state.requests.filter((request) => request.status === 400)
    expect(sent.map((request) => request.answer)).toEqual([
      { error: { type: "invalid_request_error", message: "Not a valid URL", param: "return_url" } },
      { error: { type: "invalid_request_error", message: "Not a valid URL", param: "return_url" } }
    ])
    expect(sent.flatMap((request) => requestProblems(request))).toEqual([
      "POST /v1/billing_portal/sessions: return_url: \"/settings/billing\" is not a valid URL (absolute http or https)",
      "POST /v1/account_links: return_url: \"/done\" is not a valid URL (absolute http or https)"
    ])
    expect(sent.flatMap(responseProblems)).toEqual([])
  })

  it("an item without its id adds the price again: refused as a duplicate", async () => {
    const session = await run((port) => port.createCheckoutSession({
      mode: "subscription", items: [{ price: "ledger_solo_month", quantity: 1 }], customerId: null, reference: "company-d",
      successUrl: `${app}/ok`, cancelUrl: `${app}/no`, trialDays: 0, idempotencyKey: "cs-d1"
    }))
    fake.completeCheckout(session.id)
    const subscriptionId = fake.state.sessions.get(session.id)!.subscription as string
    const refused = await run((port) => Effect.flip(port.updateSubscription({ id: subscriptionId, items: [{ price: "ledger_solo_month", quantity: 1 }, { price: "ledger_crypto_month", quantity: 1 }], prorate: false, idempotencyKey: "sub-d1" })))
    expect(refused).toMatchObject({ code: "invalid_request", message: "Cannot add multiple subscription items with the same price: ledger_solo_month" })
    expect(fake.state.subscriptions.get(subscriptionId)!.items.data.map((item: any) => item.price.id)).toEqual(["ledger_solo_month"])
    const last = fake.state.requests.at(-1)!
    expect(last.answer.error).toMatchObject({ type: "invalid_request_error", param: "items" })
    expect(responseProblems(last)).toEqual([])
  })

  it("a request the description does not have is reported", () => {
    const headers = { authorization: "Bearer sk", "content-type": "application/x-www-form-urlencoded" }
    expect(requestProblems({ method: "POST", path: "/v1/account_links", headers, body: "account=acct_1&type=onboarding&return_url=https%3A%2F%2Fa.test%2F" })).toEqual([
      "POST /v1/account_links: type: \"onboarding\" is not one of account_onboarding, account_update"
    ])
    expect(requestProblems({ method: "POST", path: "/v1/subscriptions/sub_1", headers, body: "items[0][plan_id]=x&proration_behavior=later" })).toEqual([
      "POST /v1/subscriptions/sub_1: items[0][plan_id]: not a parameter",
      "POST /v1/subscriptions/sub_1: proration_behavior: \"later\" is not one of always_invoice, create_prorations, none"
    ])
    expect(requestProblems({ method: "GET", path: "/v1/balance_transactions?after=txn_1", headers: { authorization: "Bearer sk", "stripe-account": "acct_1" }, body: "" })).toEqual([
      "GET /v1/balance_transactions: query after is not a parameter"
    ])
    expect(requestProblems({ method: "GET", path: "/v1/charges_list", headers: {}, body: "" })).toEqual(["GET /v1/charges_list: no such operation"])
    // The connected account in the header Stripe reads, and a retry-safe create.
    expect(requestProblems({ method: "POST", path: "/v1/refunds", headers: { ...headers, "processor-account": "acct_1" }, body: "payment_intent=pi_1" })).toEqual([
      "POST /v1/refunds: no Idempotency-Key",
      "POST /v1/refunds: no Stripe-Account header naming the connected account"
    ])
  })
})

import { Effect, Layer } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { PaymentProcessor } from "@ledger/engine/ports"
import { PaymentProcessorHttp } from "@ledger/server"
import { FakePaymentProcessor } from "@ledger/testkit"

/** The real HTTP adapter against the fake processor on loopback: real requests, real signatures. */
const fake = FakePaymentProcessor.make({ secretKey: "sk_test_adapter", webhookSecret: "whsec_adapter" })
let baseUrl = ""

const use = <A, E>(f: (port: PaymentProcessor["Service"]) => Effect.Effect<A, E>) =>
  Effect.gen(function*() {
    const port = yield* PaymentProcessor
    return yield* f(port)
  })

const run = <A, E>(effect: Effect.Effect<A, E, PaymentProcessor>, layer: Layer.Layer<PaymentProcessor> = fake.layer) =>
  Effect.runPromise(Effect.provide(effect, layer))

beforeAll(async () => {
  baseUrl = await fake.start()
})
afterAll(() => fake.close())

describe("PaymentProcessorHttp against the loopback fake", () => {
  it("creates an account and a hosted onboarding link, form-encoded with an idempotency key and the Bearer secret", async () => {
    const account = await run(use((port) => port.createAccount({ reference: "company-1", idempotencyKey: "acct-key-1" })))
    const again = await run(use((port) => port.createAccount({ reference: "company-1", idempotencyKey: "acct-key-1" })))
    expect(again.id).toBe(account.id)
    const request = fake.state.requests.find((item) => item.path === "/v1/accounts")!
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(request.headers.authorization).toBe("Bearer sk_test_adapter")
    expect(request.headers["content-type"]).toBe("application/x-www-form-urlencoded")
    expect(request.headers["idempotency-key"]).toBe("acct-key-1")
    expect(request.body).toBe("type=express&metadata%5Breference%5D=company-1")
    // As the real processor, the fake refuses an address it cannot send a person to.
    const relative = await run(Effect.flip(use((port) => port.accountLink({ accountId: account.id, returnUrl: "/r", refreshUrl: "/f" }))))
    expect(relative).toMatchObject({ code: "invalid_request", message: "Not a valid URL" })
    expect(fake.state.requests.at(-1)).toMatchObject({ status: 400, answer: { error: { type: "invalid_request_error", message: "Not a valid URL", param: "refresh_url" } } })
    const link = await run(use((port) => port.accountLink({ accountId: account.id, returnUrl: "https://app.example/r", refreshUrl: "https://app.example/f" })))
    expect(link.url).toMatch(/^https:\/\/connect\.processor\.test\//)
    expect(link.expiresAt).toBeGreaterThan(Date.now() / 1000)
  })

  it("takes a payment with its fee, refunds within the charge, and lists a payout's balance transactions", async () => {
    const program = Effect.gen(function*() {
      const port = yield* PaymentProcessor
      const account = yield* port.createAccount({ reference: "company-2", idempotencyKey: "acct-key-2" })
      const intent = yield* port.createPaymentIntent({ accountId: account.id, amountCents: 12_345, methods: ["card"], description: "Invoice 7", metadata: { document_id: "7" }, idempotencyKey: "pi-key-1" })
      fake.pay(intent.id, 388)
      const paid = yield* port.retrievePaymentIntent({ accountId: account.id, id: intent.id })
      const refused = yield* Effect.flip(port.createRefund({ accountId: account.id, paymentIntentId: intent.id, amountCents: 12_346, metadata: {}, idempotencyKey: "re-key-0" }))
      const refund = yield* port.createRefund({ accountId: account.id, paymentIntentId: intent.id, amountCents: 1_000, metadata: {}, idempotencyKey: "re-key-1" })
      fake.settleRefund(refund.id)
      const payout = fake.payout(account.id, "2026-03-10")
      const lines = yield* port.payoutLines({ accountId: account.id, payoutId: payout.id })
      const payouts = yield* port.listPayouts({ accountId: account.id, limit: 10 })
      return { intent, paid, refused, refund, payout, lines, payouts }
    })
    const { intent, paid, refused, refund, payout, lines, payouts } = await run(program)
    expect(intent).toMatchObject({ amountCents: 12_345, status: "requires_payment_method", feeCents: null })
    expect(paid).toMatchObject({ status: "succeeded", feeCents: 388, metadata: { document_id: "7" } })
    expect(refused.code).toBe("invalid_request")
    expect(refund).toMatchObject({ amountCents: 1_000, status: "pending" })
    expect(payout.amount).toBe(12_345 - 388 - 1_000)
    expect(lines.map((line) => [line.type, line.netCents])).toEqual([["charge", 12_345 - 388], ["refund", -1_000]])
    expect(payouts[0]).toMatchObject({ id: payout.id, amountCents: payout.amount, arrivalDate: "2026-03-10", status: "paid" })
    const intentRequest = fake.state.requests.find((item) => item.path === "/v1/payment_intents" && item.body.includes("12345"))!
    expect(intentRequest.body).toContain("payment_method_types%5B0%5D=card")
  })

  it("verifies the fake's signed events, and refuses a wrong key or an unknown secret key", async () => {
    const event = fake.take().at(-1)!
    const verified = await run(use((port) => port.verifyEvent({ payload: event.payload, signature: event.signature, nowSeconds: Math.floor(Date.now() / 1000) })))
    expect(verified).toMatchObject({ id: event.id, type: "payout.paid" })
    const wrongSecret = PaymentProcessorHttp.layer({ baseUrl, secretKey: "sk_wrong", webhookSecret: "whsec_other" })
    const bad = await run(Effect.flip(use((port) => port.verifyEvent({ payload: event.payload, signature: event.signature, nowSeconds: Math.floor(Date.now() / 1000) }))), wrongSecret)
    expect(bad.code).toBe("bad_signature")
    const unauthorized = await run(Effect.flip(use((port) => port.retrieveAccount("acct_x"))), wrongSecret)
    expect(unauthorized.code).toBe("unauthorized")
  })

  it("reads a payout of more than a page (the list is newest first) oldest first, and keeps the base URL's path", async () => {
    const account = await run(use((port) => port.createAccount({ reference: "company-many", idempotencyKey: "acct-key-many" })))
    const balance = fake.state.balance.get(account.id) ?? []
    fake.state.balance.set(account.id, balance)
    for (let index = 0; index < 150; index++) {
      balance.push({ id: `txn_many_${index}`, object: "balance_transaction", type: "charge", amount: 1_000, fee: 30, net: 970, source: `ch_${index}`, created: 1_770_000_000 + index, currency: "usd", status: "available" })
    }
    const payout = fake.payout(account.id, "2026-03-11")
    const lines = await run(use((port) => port.payoutLines({ accountId: account.id, payoutId: payout.id })))
    expect(lines.map((line) => line.id)).toEqual(Array.from({ length: 150 }, (_, index) => `txn_many_${index}`))
    expect(fake.state.requests.filter((request) => request.path.startsWith("/v1/balance_transactions")).at(-1)!.path).toContain("starting_after=txn_many_50")
    expect(PaymentProcessorHttp.endpoint("https://gateway.test/stripe/", "/v1/payouts").toString()).toBe("https://gateway.test/stripe/v1/payouts")
  })

  it("answers not_configured from the unconfigured layer", async () => {
    const failure = await run(Effect.flip(use((port) => port.listPayouts({ accountId: "a", limit: 1 }))), PaymentProcessor.layerUnconfigured)
    expect(failure.code).toBe("not_configured")
  })
})

import { Effect, Layer } from "effect"
import { Ports } from "@ledger/engine"

/**
 * The real adapter of the payment-processor port, speaking the HTTP API of the most used card
 * processor: form-encoded request bodies (nested keys as `metadata[k]`, `items[0][price]`), an
 * `Idempotency-Key` header on every create, `Authorization: Bearer <secret key>`, the connected
 * account in `Stripe-Account`, JSON answers with integer minor units, and events signed
 * `t=...,v1=...` in `Stripe-Signature` (HMAC-SHA256, 300 s tolerance, constant-time comparison).
 * Modelled on Stripe's API version 2023-08-16 (test/fixtures/providers/stripe, checked by
 * test/providers/stripe-contract.test.ts); point LEDGER_PAYMENTS_URL at https://api.stripe.com.
 *
 * Configured by LEDGER_PAYMENTS_URL, LEDGER_PAYMENTS_SECRET_KEY and LEDGER_PAYMENTS_WEBHOOK_SECRET.
 * The testkit's `FakePaymentProcessor` serves the same API on loopback and runs this adapter.
 */

export interface Options {
  readonly baseUrl: string
  readonly secretKey: string
  readonly webhookSecret: string
  readonly fetch?: ((request: Request) => Promise<Response>) | undefined
}

type Json = Record<string, any>
type Failure = Ports.ProcessorFailure

const failure = (code: Failure["code"], message: string) => new Ports.ProcessorFailure({ code, message })

/** `{a: {b: 1}, items: [{price: "x"}]}` -> `a[b]=1&items[0][price]=x`. */
export const formEncode = (value: Json): string => {
  const pairs: Array<[string, string]> = []
  const walk = (prefix: string, item: unknown) => {
    if (item === undefined || item === null) return
    if (Array.isArray(item)) item.forEach((entry, index) => walk(`${prefix}[${index}]`, entry))
    else if (typeof item === "object") for (const [key, entry] of Object.entries(item)) walk(prefix === "" ? key : `${prefix}[${key}]`, entry)
    else pairs.push([prefix, String(item)])
  }
  walk("", value)
  return new URLSearchParams(pairs).toString()
}

const account = (json: Json): Ports.PaymentProcessorPort.Account => ({
  id: String(json.id),
  chargesEnabled: json.charges_enabled === true,
  payoutsEnabled: json.payouts_enabled === true,
  detailsSubmitted: json.details_submitted === true
})

const intent = (json: Json): Ports.PaymentProcessorPort.PaymentIntent => ({
  id: String(json.id),
  amountCents: Number(json.amount),
  status: json.status,
  clientSecret: String(json.client_secret ?? ""),
  feeCents: json.latest_charge?.balance_transaction?.fee === undefined ? null : Number(json.latest_charge.balance_transaction.fee),
  metadata: json.metadata ?? {}
})

const session = (json: Json): Ports.PaymentProcessorPort.CheckoutSession => ({
  id: String(json.id),
  url: String(json.url ?? ""),
  status: json.status,
  customerId: json.customer ?? null,
  subscriptionId: json.subscription ?? null,
  metadata: json.metadata ?? {}
})

export const subscription = (json: Json): Ports.PaymentProcessorPort.Subscription => ({
  id: String(json.id),
  customerId: String(json.customer),
  status: json.status,
  currentPeriodEnd: Number(json.current_period_end),
  trialEnd: json.trial_end === null || json.trial_end === undefined ? null : Number(json.trial_end),
  cancelAtPeriodEnd: json.cancel_at_period_end === true,
  items: ((json.items?.data ?? []) as Array<Json>).map((item) => ({
    ...(item.id === undefined ? {} : { id: String(item.id) }), price: String(item.price?.id ?? item.price), quantity: Number(item.quantity ?? 1)
  })),
  metadata: json.metadata ?? {}
})

/** `path` under the base URL, its own path kept (`http://host/stripe` + `/v1/x` -> `http://host/stripe/v1/x`). */
export const endpoint = (baseUrl: string, path: string): URL => new URL(`${baseUrl.replace(/\/+$/u, "")}/${path.replace(/^\/+/u, "")}`)

/** Pages read of one newest-first list before giving up (100 a page): a payout of up to 10,000 lines. */
const pagesMax = 100

/** One request to the processor: the secret key, the connected account, the idempotency key; errors by status. */
const caller = (options: Options) => {
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request))
  const call = (method: "GET" | "POST", path: string, input: { body?: Json; accountId?: string; idempotencyKey?: string; query?: Json } = {}) => {
    const url = endpoint(options.baseUrl, path)
    if (input.query !== undefined) url.search = formEncode(input.query)
    const headers: Record<string, string> = { authorization: `Bearer ${options.secretKey}` }
    if (input.accountId !== undefined) headers["stripe-account"] = input.accountId
    if (input.idempotencyKey !== undefined) headers["idempotency-key"] = input.idempotencyKey
    if (method === "POST") headers["content-type"] = "application/x-www-form-urlencoded"
    const request = new Request(url, { method, headers, ...(method === "POST" ? { body: formEncode(input.body ?? {}) } : {}) })
    return Effect.tryPromise({ try: () => send(request), catch: (error) => failure("unavailable", String(error)) }).pipe(
      Effect.flatMap((response) =>
        Effect.tryPromise({ try: () => response.json() as Promise<Json>, catch: () => failure("error", `HTTP ${response.status}, not JSON`) }).pipe(
          Effect.flatMap((json): Effect.Effect<Json, Failure> => {
            if (response.ok) return Effect.succeed(json)
            const message = String(json.error?.message ?? `HTTP ${response.status}`)
            if (response.status === 401) return Effect.fail(failure("unauthorized", message))
            if (response.status === 402) return Effect.fail(failure("card_declined", message))
            if (response.status === 400 || response.status === 404) return Effect.fail(failure("invalid_request", message))
            return Effect.fail(failure("unavailable", message))
          })
        ))
    )
  }
  return call
}

/** A payout's balance transactions, oldest first: the list is newest first, so `starting_after` the last one seen walks it to its oldest. */
const payoutLines = (call: ReturnType<typeof caller>, accountId: string, payoutId: string) =>
  Effect.gen(function*() {
    const lines: Array<Json> = []
    let after: string | undefined
    for (let page = 0; page < pagesMax; page++) {
      const json = yield* call("GET", "/v1/balance_transactions", { accountId, query: { payout: payoutId, limit: 100, starting_after: after } })
      const data = json.data as Array<Json>
      lines.push(...data)
      if (json.has_more !== true || data.length === 0) break
      after = String(data[data.length - 1]!.id)
    }
    return lines.reverse().map((line): Ports.PaymentProcessorPort.BalanceLine => ({
      id: String(line.id), type: String(line.type), amountCents: Number(line.amount), feeCents: Number(line.fee), netCents: Number(line.net), source: String(line.source ?? "")
    }))
  })

export const make = (options: Options): Ports.PaymentProcessor["Service"] => {
  const call = caller(options)
  return Ports.PaymentProcessor.of({
    configured: true,
    createAccount: ({ reference, idempotencyKey }) =>
      call("POST", "/v1/accounts", { body: { type: "express", metadata: { reference } }, idempotencyKey }).pipe(Effect.map(account)),
    retrieveAccount: (accountId) => call("GET", `/v1/accounts/${encodeURIComponent(accountId)}`).pipe(Effect.map(account)),
    accountLink: ({ accountId, returnUrl, refreshUrl }) =>
      call("POST", "/v1/account_links", { body: { account: accountId, type: "account_onboarding", return_url: returnUrl, refresh_url: refreshUrl } })
        .pipe(Effect.map((json) => ({ url: String(json.url), expiresAt: Number(json.expires_at) }))),
    createPaymentIntent: ({ accountId, amountCents, methods, description, metadata, idempotencyKey }) =>
      call("POST", "/v1/payment_intents", {
        accountId,
        idempotencyKey,
        body: { amount: amountCents, currency: "usd", payment_method_types: methods, description, metadata }
      }).pipe(Effect.map(intent)),
    retrievePaymentIntent: ({ accountId, id }) =>
      call("GET", `/v1/payment_intents/${encodeURIComponent(id)}`, { accountId, query: { expand: ["latest_charge.balance_transaction"] } })
        .pipe(Effect.map(intent)),
    createRefund: ({ accountId, paymentIntentId, amountCents, metadata, idempotencyKey }) =>
      call("POST", "/v1/refunds", { accountId, idempotencyKey, body: { payment_intent: paymentIntentId, amount: amountCents, metadata } })
        .pipe(Effect.map((json) => ({ id: String(json.id), paymentIntentId: String(json.payment_intent), amountCents: Number(json.amount), status: json.status }))),
    listPayouts: ({ accountId, limit }) =>
      call("GET", "/v1/payouts", { accountId, query: { limit } }).pipe(Effect.map((json) =>
        (json.data as Array<Json>).map((payout) => ({
          id: String(payout.id),
          amountCents: Number(payout.amount),
          arrivalDate: new Date(Number(payout.arrival_date) * 1000).toISOString().slice(0, 10),
          status: payout.status
        })))),
    payoutLines: ({ accountId, payoutId }) => payoutLines(call, accountId, payoutId),
    createCheckoutSession: ({ mode, items, customerId, reference, successUrl, cancelUrl, trialDays, idempotencyKey }) =>
      call("POST", "/v1/checkout/sessions", {
        idempotencyKey,
        body: {
          mode, line_items: items.map((item) => ({ price: item.price, quantity: item.quantity })), customer: customerId ?? undefined, client_reference_id: reference, success_url: successUrl, cancel_url: cancelUrl,
          metadata: { company_id: reference }, ...(mode === "subscription" && trialDays > 0 ? { subscription_data: { trial_period_days: trialDays, metadata: { company_id: reference } } } : {})
        }
      }).pipe(Effect.map(session)),
    retrieveCheckoutSession: (id) => call("GET", `/v1/checkout/sessions/${encodeURIComponent(id)}`).pipe(Effect.map(session)),
    createPortalSession: ({ customerId, returnUrl }) =>
      call("POST", "/v1/billing_portal/sessions", { body: { customer: customerId, return_url: returnUrl } }).pipe(Effect.map((json) => ({ url: String(json.url) }))),
    retrieveSubscription: (id) => call("GET", `/v1/subscriptions/${encodeURIComponent(id)}`).pipe(Effect.map(subscription)),
    updateSubscription: ({ id, items, prorate, idempotencyKey }) =>
      call("POST", `/v1/subscriptions/${encodeURIComponent(id)}`, {
        idempotencyKey,
        body: {
          items: items.map((item) => ({ id: item.id, price: item.price, quantity: item.quantity, deleted: item.deleted === true ? true : undefined })),
          proration_behavior: prorate ? "always_invoice" : "none"
        }
      }).pipe(Effect.map(subscription)),
    cancelSubscription: ({ id, atPeriodEnd }) =>
      call("POST", `/v1/subscriptions/${encodeURIComponent(id)}`, { body: { cancel_at_period_end: atPeriodEnd } }).pipe(Effect.map(subscription)),
    verifyEvent: ({ payload, signature, nowSeconds }) => {
      const refusal = Ports.PaymentProcessorPort.signatureRefusal(options.webhookSecret, signature, payload, nowSeconds)
      if (refusal !== null) return Effect.fail(failure("bad_signature", refusal))
      return Effect.try({ try: () => JSON.parse(payload) as Json, catch: () => failure("bad_signature", "payload is not JSON") }).pipe(
        Effect.map((json) => ({
          id: String(json.id), type: String(json.type), created: Number(json.created), account: json.account ?? null, object: json.data?.object ?? {}
        }))
      )
    }
  })
}

export const layer = (options: Options): Layer.Layer<Ports.PaymentProcessor> => Layer.succeed(Ports.PaymentProcessor)(make(options))

/** From LEDGER_PAYMENTS_URL, LEDGER_PAYMENTS_SECRET_KEY, LEDGER_PAYMENTS_WEBHOOK_SECRET; null when the URL is not set. */
export const fromEnvironment = (environment: Record<string, string | undefined>): Layer.Layer<Ports.PaymentProcessor> | null => {
  const baseUrl = environment.LEDGER_PAYMENTS_URL
  if (baseUrl === undefined || baseUrl === "") return null
  return layer({ baseUrl, secretKey: environment.LEDGER_PAYMENTS_SECRET_KEY ?? "", webhookSecret: environment.LEDGER_PAYMENTS_WEBHOOK_SECRET ?? "" })
}

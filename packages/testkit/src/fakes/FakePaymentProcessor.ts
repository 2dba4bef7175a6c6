import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect, Layer } from "effect"
import { type PaymentProcessor, PaymentProcessorPort } from "@ledger/engine/ports"
import { PaymentProcessorHttp } from "@ledger/server"
import * as S from "./FakePaymentProcessorState.ts"

/**
 * The payment processor's fake: the card processor's HTTP API (the one @ledger/server
 * `PaymentProcessorHttp` calls) served on 127.0.0.1 at an ephemeral port, started when its layer is
 * built, so tests run the real adapter over real HTTP. It checks the Bearer secret key, replays
 * answers by Idempotency-Key, reads form-encoded bodies, and records the events it would send.
 * Like the real processor it POSTs them to an endpoint (`endpoint`, then `send`): the event's JSON
 * as the body, signed in `Stripe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`
 * over those exact bytes with the endpoint secret. `post` sends any body and header, for tests of
 * tampered, stale or wrongly signed deliveries.
 */

export interface FakePaymentProcessor {
  readonly layer: Layer.Layer<PaymentProcessor>
  readonly secretKey: string
  readonly webhookSecret: string
  /** Starts the loopback server (once); answers its base URL. */
  readonly start: () => Promise<string>
  readonly close: () => Promise<void>
  readonly state: S.State
  /** Events not yet taken or sent, oldest first (a test delivers them itself, with `post`). */
  readonly take: () => Array<S.SignedEvent>
  readonly completeOnboarding: (accountId: string) => void
  readonly pay: (paymentIntentId: string, feeCents: number) => void
  readonly settleRefund: (refundId: string, status?: "succeeded" | "failed") => void
  readonly dispute: (paymentIntentId: string, feeCents: number) => { readonly id: string }
  readonly closeDispute: (disputeId: string, won: boolean) => void
  readonly payout: (accountId: string, arrivalDate: string) => { readonly id: string; readonly amount: number }
  readonly completeCheckout: (sessionId: string) => void
  /** Sets the processor's clock (unix seconds); periods that ended renew or end. */
  readonly advanceTo: (seconds: number) => void
  readonly sign: (payload: string, timestamp: number, secret?: string) => string
  /** Sets where events are POSTed: Ledger's `/v1/online-payments/events` on a server that listens. */
  readonly endpoint: (url: string) => void
  /**
   * POSTs each event not yet sent, in order, signed now (the processor's clock) over its body:
   * answers each reply. A delivery answered other than 2xx is not retried here; the test sees it.
   */
  readonly send: () => Promise<Array<Delivery>>
  /**
   * POSTs `payload` as it is, with `signature` as the header, or one made over it at `timestamp`
   * (default now) with `secret` (default the endpoint secret).
   */
  readonly post: (input: { readonly payload: string; readonly signature?: string; readonly timestamp?: number; readonly secret?: string }) => Promise<Delivery>
}

/** One delivery's answer. */
export interface Delivery {
  readonly eventId: string | null
  readonly status: number
  readonly body: any
}

/** The header the processor signs its events in. */
export const signatureHeaderName = "Stripe-Signature"

/** `a[b][0][c]=v` pairs -> nested objects and arrays. */
export const formDecode = (text: string): S.Json => {
  const root: S.Json = {}
  for (const [key, value] of new URLSearchParams(text)) {
    const path = key.replace(/\]/g, "").split("[")
    let node: any = root
    path.forEach((part, index) => {
      if (index === path.length - 1) node[part] = value
      else node = node[part] ??= /^\d+$/.test(path[index + 1]!) ? [] : {}
    })
  }
  return root
}

const json = (status: number, body: unknown) => ({ status, body: body as S.Json })
const notFound = json(404, { error: { type: "invalid_request_error", message: "No such object" } })
/** The processor's refusal of a request: 400 with its error shape, naming the parameter. */
const invalid = (message: string, param: string) => json(400, { error: { type: "invalid_request_error", message, param } })

/**
 * The processor sends people to these addresses from its own pages, so it refuses any that is not
 * an absolute http(s) URL ("Not a valid URL"), as the real one does.
 */
const urlRefusal = (body: S.Json, params: ReadonlyArray<string>) => {
  for (const param of params) {
    const value = body[param]
    if (value === undefined) continue
    if (typeof value !== "string" || !/^https?:\/\//iu.test(value) || !URL.canParse(value)) return invalid("Not a valid URL", param)
  }
  return null
}

type Route = (state: S.State, input: { readonly path: Array<string>; readonly body: S.Json; readonly account: string | null; readonly query: URLSearchParams }) => { status: number; body: S.Json } | null

const connect: Route = (state, { path, body }) => {
  if (path[0] === "accounts" && path[1] === undefined) {
    const account = { id: S.newId("acct"), object: "account", charges_enabled: false, payouts_enabled: false, details_submitted: false, metadata: body.metadata ?? {} }
    state.accounts.set(account.id, account)
    return json(200, account)
  }
  if (path[0] === "accounts") return state.accounts.has(path[1]!) ? json(200, state.accounts.get(path[1]!)) : notFound
  if (path[0] === "account_links") {
    const refused = urlRefusal(body, ["refresh_url", "return_url"])
    if (refused !== null) return refused
    if (!state.accounts.has(String(body.account))) return notFound
    const link = { object: "account_link", url: `https://connect.processor.test/setup/${S.newId("s")}`, created: S.now(state), expires_at: S.now(state) + 300 }
    return json(200, link)
  }
  return null
}

const payments: Route = (state, { path, body, account, query }) => {
  if (account === null || !state.accounts.has(account)) return null
  if (path[0] === "payment_intents" && path[1] === undefined) {
    const amount = Number(body.amount)
    if (!Number.isInteger(amount) || amount < 50) return json(400, { error: { type: "invalid_request_error", message: "amount must be at least 50" } })
    const intent = { id: S.newId("pi"), object: "payment_intent", amount, currency: body.currency, status: "requires_payment_method", client_secret: `${S.newId("pi")}_secret`, metadata: body.metadata ?? {}, account, latest_charge: null }
    state.intents.set(intent.id, intent)
    return json(200, S.view(intent))
  }
  if (path[0] === "payment_intents") {
    const found = state.intents.get(path[1]!)
    return found === undefined || found.account !== account ? notFound : json(200, S.view(found))
  }
  if (path[0] === "refunds") {
    const intent = state.intents.get(String(body.payment_intent))
    if (intent === undefined || intent.account !== account || intent.status !== "succeeded") return notFound
    const refunded = [...state.refunds.values()].filter((r) => r.payment_intent === intent.id && r.status !== "failed").reduce((sum, r) => sum + r.amount, 0)
    const amount = Number(body.amount ?? intent.amount - refunded)
    if (amount + refunded > intent.amount) return json(400, { error: { type: "invalid_request_error", message: "Refund exceeds the charge" } })
    const refund = { id: S.newId("re"), object: "refund", amount, payment_intent: intent.id, status: "pending", metadata: body.metadata ?? {}, account }
    state.refunds.set(refund.id, refund)
    return json(200, S.view(refund))
  }
  if (path[0] === "payouts") return S.page([...state.payouts.values()].filter((p) => p.account === account).reverse().map(S.view), query, "/v1/payouts")
  return null
}

const billing: Route = (state, { path, body }) => {
  if (path[0] === "checkout" && path[1] === "sessions" && path[2] === undefined) {
    const refused = urlRefusal(body, ["success_url", "cancel_url"])
    if (refused !== null) return refused
    const id = S.newId("cs")
    const session = { id, object: "checkout.session", url: `https://checkout.processor.test/c/${id}`, status: "open", ...body, customer: body.customer ?? null, subscription: null }
    state.sessions.set(id, session)
    return json(200, S.view(session))
  }
  if (path[0] === "checkout") return state.sessions.has(path[2]!) ? json(200, S.view(state.sessions.get(path[2]!)!)) : notFound
  if (path[0] === "billing_portal") {
    const refused = urlRefusal(body, ["return_url"])
    if (refused !== null) return refused
    return json(200, { id: S.newId("bps"), object: "billing_portal.session", url: `https://billing.processor.test/p/${S.newId("bps")}`, customer: body.customer, return_url: body.return_url ?? null })
  }
  if (path[0] === "subscriptions") {
    const found = state.subscriptions.get(path[1]!)
    if (found === undefined) return notFound
    if (body.items !== undefined) {
      const changed = S.updateItems(state, found, body.items as Array<S.Json>)
      if (typeof changed === "string") return invalid(changed, "items")
      const before = found.items.data as Array<S.Json>
      found.items = { ...found.items, data: changed }
      const moved = S.intervalDays(before) !== S.intervalDays(changed)
      // A new interval starts a new period at once, invoiced now whatever the proration (as the real processor does).
      if (moved) found.current_period_end = S.now(state) + S.intervalDays(changed) * 86_400
      // The default proration makes pending prorations billed at the next invoice; `none` makes none.
      const behavior = String(body.proration_behavior ?? "create_prorations")
      if (behavior === "always_invoice" || moved) state.invoices.push({ subscription: found.id, before, after: changed, proration_behavior: behavior, created: S.now(state) })
    }
    if (body.cancel_at_period_end !== undefined) found.cancel_at_period_end = body.cancel_at_period_end === "true"
    if (Object.keys(body).length > 0) S.emit(state, "customer.subscription.updated", found, null)
    return json(200, found)
  }
  return null
}

const balanceTransactions: Route = (state, { path, account, query }) => {
  if (path[0] !== "balance_transactions" || account === null) return null
  const payout = query.get("payout")
  const lines = S.balanceOf(state, account).filter((line) => payout === null || (state.paidOut.get(line.id) === payout && line.type !== "payout"))
  return S.page([...lines].reverse(), query, "/v1/balance_transactions")
}

const route = (state: S.State, method: string, url: URL, headers: Record<string, string>, text: string) => {
  if (headers.authorization !== `Bearer ${state.secretKey}`) return json(401, { error: { type: "authentication_error", message: "Invalid API key" } })
  const key = headers["idempotency-key"]
  if (method === "POST" && key !== undefined && state.idempotent.has(key)) return state.idempotent.get(key)!
  const path = url.pathname.replace(/^\/v1\//, "").split("/").map(decodeURIComponent)
  const input = { path, body: method === "POST" ? formDecode(text) : {}, account: headers["stripe-account"] ?? null, query: url.searchParams }
  const answer = connect(state, input) ?? payments(state, input) ?? billing(state, input) ?? balanceTransactions(state, input) ?? notFound
  if (method === "POST" && key !== undefined && answer.status < 500) state.idempotent.set(key, answer)
  return answer
}

type DeliveryInput = Parameters<FakePaymentProcessor["post"]>[0]

/** POSTs one event's payload to `target` as the processor does, signed unless the test signed it. */
const deliver = async (state: S.State, target: string | null, input: DeliveryInput): Promise<Delivery> => {
  if (target === null) throw new Error("FakePaymentProcessor: set the endpoint before sending events")
  const signature = input.signature ?? `t=${input.timestamp ?? S.now(state)},v1=${PaymentProcessorPort.signEvent(input.secret ?? state.webhookSecret, input.timestamp ?? S.now(state), input.payload)}`
  const response = await fetch(target, { method: "POST", headers: { "content-type": "application/json", [signatureHeaderName]: signature }, body: input.payload })
  const text = await response.text()
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {
    // Not JSON: the text itself.
  }
  let eventId: string | null = null
  try {
    eventId = String((JSON.parse(input.payload) as { id?: unknown }).id ?? "") || null
  } catch {
    // A payload a test broke on purpose.
  }
  return { eventId, status: response.status, body }
}

/** The processor's API on 127.0.0.1 at an ephemeral port, started on first use; every request recorded. */
const serve = (state: S.State) => {
  let server: Server | null = null
  let started: Promise<string> | null = null
  const start = () =>
    started ??= new Promise<string>((resolve) => {
      server = createServer((request, response) => {
        const chunks: Array<Buffer> = []
        request.on("data", (chunk: Buffer) => chunks.push(chunk))
        request.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8")
          const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)]))
          let answer: { status: number; body: S.Json }
          try {
            answer = route(state, request.method ?? "GET", new URL(request.url ?? "/", "http://127.0.0.1"), headers, text)
          } catch (error) {
            // A fault of the fake answers as the processor's own faults do, not by crashing the test run.
            answer = json(500, { error: { type: "api_error", message: String(error) } })
          }
          state.requests.push({ method: request.method ?? "GET", path: request.url ?? "/", headers, body: text, status: answer.status, answer: answer.body })
          response.writeHead(answer.status, { "content-type": "application/json" }).end(JSON.stringify(answer.body))
        })
      })
      server.unref()
      server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server!.address() as AddressInfo).port}`))
    })
  const close = () => new Promise<void>((resolve) => server === null ? resolve() : server.close(() => resolve()))
  return { start, close }
}

export const make = (options: { readonly secretKey?: string; readonly webhookSecret?: string } = {}): FakePaymentProcessor => {
  const state = S.newState(options.secretKey ?? "sk_test_fake", options.webhookSecret ?? "whsec_fake")
  const { start, close } = serve(state)
  // One cursor for `take` and `send`: an event taken by a test is not sent again.
  let taken = 0
  let target: string | null = null
  const layer = Layer.unwrap(Effect.promise(start).pipe(Effect.map((baseUrl) =>
    PaymentProcessorHttp.layer({ baseUrl, secretKey: state.secretKey, webhookSecret: state.webhookSecret }))))
  return {
    layer,
    secretKey: state.secretKey,
    webhookSecret: state.webhookSecret,
    start,
    close,
    state,
    take: () => {
      const next = state.events.slice(taken)
      taken = state.events.length
      return next
    },
    completeOnboarding: (accountId) => {
      Object.assign(state.accounts.get(accountId)!, { charges_enabled: true, payouts_enabled: true, details_submitted: true })
      S.emit(state, "account.updated", state.accounts.get(accountId)!, accountId)
    },
    pay: (id, fee) => void S.pay(state, id, fee),
    settleRefund: (id, status = "succeeded") => S.settleRefund(state, id, status),
    dispute: (id, fee) => S.dispute(state, id, fee) as { id: string },
    closeDispute: (id, won) => S.closeDispute(state, id, won),
    payout: (account, date) => S.payout(state, account, date) as { id: string; amount: number },
    completeCheckout: (id) => void S.completeCheckout(state, id),
    advanceTo: (seconds) => S.advanceTo(state, seconds),
    sign: (payload, timestamp, secret) => `t=${timestamp},v1=${PaymentProcessorPort.signEvent(secret ?? state.webhookSecret, timestamp, payload)}`,
    endpoint: (url) => {
      target = url
    },
    send: async () => {
      const answers: Array<Delivery> = []
      while (taken < state.events.length) {
        const event = state.events[taken++]!
        answers.push(await deliver(state, target, { payload: event.payload }))
      }
      return answers
    },
    post: (input) => deliver(state, target, input)
  }
}

import { createHash, randomBytes } from "node:crypto"
import type { Layer } from "effect"
import type { CommerceProviders } from "@ledger/engine/ports"
import { CommerceHttp } from "@ledger/server"
import { putOrder, type Shop, shopConsent, shopify } from "./FakeShopify.ts"

/**
 * The commerce providers' fake: the same HTTP API the real adapter (@ledger/server
 * `CommerceHttp`) calls, served in memory, so tests run the real adapter against it. OAuth 2.0
 * with PKCE is checked for real (the token exchange verifies the S256 challenge). `provider_a` is
 * a payment processor (Stripe's balance transactions: charges with fees, refunds, disputes and
 * their reversals, payouts and failed payouts, any other type); `provider_b` a
 * storefront as Shopify's Admin REST API 2024-04 serves it (`FakeShopify.ts`: orders with line
 * items, discounts, shipping, tax lines and tips, each listed once as it is now).
 */

type Json = Record<string, any>

interface Account {
  readonly provider: string
  readonly id: string
  readonly name: string
  readonly log: Array<Json>
}

export interface FakeCommerce {
  readonly layer: Layer.Layer<CommerceProviders>
  readonly fetch: (request: Request) => Promise<Response>
  /** The person consents at the consent URL for this provider account: the state and code the provider sends back. */
  readonly consent: (consentUrl: string, account: { readonly id: string; readonly name?: string }) => { readonly state: string; readonly code: string }
  readonly addCharge: (accountId: string, charge: { readonly id: string; readonly amountCents: number; readonly feeCents?: number; readonly category?: string; readonly date: string }) => void
  /** A refund of `amountCents`; `feeReturnedCents` of the charge's fee given back, if any. */
  readonly addRefund: (accountId: string, refund: { readonly id: string; readonly amountCents: number; readonly feeReturnedCents?: number; readonly date: string }) => void
  /** A dispute opened: `amountCents` withdrawn and the dispute fee `feeCents` taken. */
  readonly addDispute: (accountId: string, dispute: { readonly id: string; readonly amountCents: number; readonly feeCents: number; readonly date: string }) => void
  /** A dispute won: `amountCents` reinstated (and the fee, where the processor gives it back). */
  readonly addDisputeWon: (accountId: string, dispute: { readonly id: string; readonly amountCents: number; readonly feeReturnedCents?: number; readonly date: string }) => void
  /** A payout the bank sent back: `amountCents` back in the balance. */
  readonly addPayoutFailure: (accountId: string, payout: { readonly id: string; readonly amountCents: number; readonly date: string }) => void
  /** Any other balance transaction, signed as the processor signs it (`amountCents` positive into the balance). */
  readonly addTransaction: (accountId: string, item: { readonly id: string; readonly type: string; readonly amountCents: number; readonly feeCents?: number; readonly reportingCategory?: string; readonly date: string }) => void
  readonly addPayout: (accountId: string, payout: { readonly id: string; readonly amountCents: number; readonly date: string }) => void
  /** Adds or changes an order (a new `updated_at` each time). */
  readonly putOrder: (accountId: string, order: Json) => void
  readonly revoked: ReadonlyArray<string>
  /** The next call fails: the provider down (503), or throttled (429 with `Retry-After`). */
  readonly failNext: (kind?: "unavailable" | "throttle") => void
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } })
const epoch = (date: string) => Math.floor(Date.parse(`${date}T12:00:00Z`) / 1000)

interface State extends Shop {
  readonly codes: Map<string, { account: Account; challenge: string }>
  readonly tokens: Map<string, Account>
  readonly revoked: Array<string>
  failing: "unavailable" | "throttle" | null
}

const oauth = async (state: State, request: Request, url: URL): Promise<Response | null> => {
  if (url.pathname === "/oauth/token") {
    const form = new URLSearchParams(await request.text())
    const grant = state.codes.get(form.get("code") ?? "")
    state.codes.delete(form.get("code") ?? "")
    const challenge = createHash("sha256").update(form.get("code_verifier") ?? "").digest("base64url")
    if (grant === undefined || grant.challenge !== challenge) return json(400, { error: "invalid_grant" })
    const token = `tok_${randomBytes(12).toString("hex")}`
    state.tokens.set(token, grant.account)
    // As each provider answers: the processor names the connected account `stripe_user_id` (and no
    // name); the storefront's answer carries its account id and name.
    return grant.account.provider === "provider_a"
      ? json(200, { access_token: token, token_type: "bearer", scope: "read_only", livemode: false, stripe_user_id: grant.account.id, stripe_publishable_key: `pk_test_${grant.account.id}` })
      : json(200, { access_token: token, token_type: "bearer", scope: "read_only", account_id: grant.account.id, account_name: grant.account.name })
  }
  if (url.pathname === "/oauth/revoke") {
    const token = new URLSearchParams(await request.text()).get("token") ?? ""
    state.tokens.delete(token)
    state.revoked.push(token)
    return json(200, { revoked: true })
  }
  return null
}

/** The providers' HTTP API over the state. */
const handler = (state: State) => async (request: Request): Promise<Response> => {
  const url = new URL(request.url)
  const failing = state.failing
  state.failing = null
  if (failing === "throttle") {
    return url.pathname.startsWith("/admin/")
      ? json(429, { errors: "Exceeded 2 calls per second for api client. Reduce request rates to resume uninterrupted service." }, { "retry-after": "2.0" })
      : json(429, { error: { type: "rate_limit_error", message: "Too many requests" } }, { "retry-after": "1" })
  }
  if (failing === "unavailable") return url.pathname.startsWith("/admin/") ? json(503, { errors: "Service Unavailable" }) : json(503, { error: { type: "api_error", message: "unavailable" } })
  if (url.pathname.startsWith("/admin/")) return shopify(state, request, url)
  const granted = await oauth(state, request, url)
  if (granted !== null) return granted
  const holder = state.tokens.get((request.headers.get("authorization") ?? "").replace(/^Bearer /, ""))
  if (holder === undefined) return json(401, { error: "invalid_token" })
  const limit = Number(url.searchParams.get("limit") ?? 100)
  if (url.pathname === "/v1/balance_transactions") {
    // As the processor lists them: newest first; `starting_after` pages to older ones,
    // `ending_before` to the newer ones just before that one; an unknown id is refused.
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) return json(400, { error: { type: "invalid_request_error", message: "Invalid integer: limit", param: "limit" } })
    const newestFirst = [...holder.log].reverse()
    const after = url.searchParams.get("starting_after")
    const before = url.searchParams.get("ending_before")
    const at = (id: string) => newestFirst.findIndex((item) => item.id === id)
    for (const [param, id] of [["starting_after", after], ["ending_before", before]] as const) {
      if (id !== null && at(id) < 0) return json(400, { error: { type: "invalid_request_error", message: `No such balance transaction: '${id}'`, param } })
    }
    if (before !== null) {
      const newer = newestFirst.slice(0, at(before))
      return json(200, { object: "list", url: "/v1/balance_transactions", data: newer.slice(Math.max(0, newer.length - limit)), has_more: newer.length > limit })
    }
    const start = after === null ? 0 : at(after) + 1
    return json(200, { object: "list", url: "/v1/balance_transactions", data: newestFirst.slice(start, start + limit), has_more: start + limit < newestFirst.length })
  }
  if (url.pathname === "/v1/balance" && holder.provider === "provider_a") {
    // The processor's balance object: what it holds for the account, by currency, in cents.
    const held = holder.log.reduce((sum, item) => sum + (typeof item.net === "number" ? item.net : Number(item.amount) - Number(item.fee ?? 0)), 0)
    return json(200, { object: "balance", livemode: false, available: [{ amount: held, currency: "usd", source_types: { card: held } }], pending: [{ amount: 0, currency: "usd", source_types: { card: 0 } }] })
  }
  return json(404, { error: "not_found" })
}

/** Stripe's `reporting_category` of each type the fake makes (its balance-transaction types page). */
const categories: Record<string, string> = {
  charge: "charge", payment: "charge", refund: "refund", payment_refund: "refund", refund_failure: "refund_failure",
  payout: "payout", payout_cancel: "payout_reversal", payout_failure: "payout_reversal", stripe_fee: "fee", adjustment: "other_adjustment"
}

const transaction = (id: string, type: string, amount: number, fee: number, date: string, reportingCategory = categories[type] ?? type) => ({
  id, object: "balance_transaction", type, reporting_category: reportingCategory, amount, fee,
  // As the processor itemizes what it kept: a dispute's fee is its own `stripe_fee` line.
  fee_details: fee === 0 ? [] : [{ amount: fee, application: null, currency: "usd", description: reportingCategory === "dispute" ? "Dispute fee" : "Stripe processing fees", type: "stripe_fee" }],
  net: amount - fee, currency: "usd", status: "available", description: null, exchange_rate: null, source: null,
  created: epoch(date), available_on: epoch(date)
})

export const make = (): FakeCommerce => {
  const accounts = new Map<string, Account>()
  const state: State = { codes: new Map(), tokens: new Map(), revoked: [], failing: null, shopCodes: new Map(), shopTokens: new Map(), shops: new Map() }
  const handle = handler(state)

  const account = (provider: string, id: string, name = id) => {
    const key = `${provider}:${id}`
    const found = accounts.get(key) ?? { provider, id, name, log: [] }
    accounts.set(key, found)
    return found
  }
  const byId = (id: string) => [...accounts.values()].find((candidate) => candidate.id === id)!
  const providerOf = (url: URL) => url.hostname.startsWith("provider-a") ? "provider_a" : "provider_b"

  const adapter = CommerceHttp.layer({
    providers: {
      provider_a: { baseUrl: "https://provider-a.fake", clientId: "client-a", clientSecret: "secret-a" },
      provider_b: { baseUrl: "https://provider-b.fake", clientId: "client-b", clientSecret: "secret-b" }
    },
    appUrl: "https://ledger.fake",
    fetch: handle
  })

  return {
    layer: adapter,
    fetch: handle,
    consent: (consentUrl, who) => {
      const url = new URL(consentUrl)
      if (providerOf(url) === "provider_b") return shopConsent(state, url, who)
      if (url.searchParams.get("code_challenge_method") !== "S256") throw new Error("PKCE S256 expected")
      const code = `code_${randomBytes(8).toString("hex")}`
      state.codes.set(code, { account: account(providerOf(url), who.id, who.name), challenge: url.searchParams.get("code_challenge") ?? "" })
      return { state: url.searchParams.get("state") ?? "", code }
    },
    // Balance transactions as Stripe's API 2023-08-16 describes them (no field it does not have).
    addCharge: (accountId, charge) => {
      byId(accountId).log.push({ ...transaction(charge.id, "charge", charge.amountCents, charge.feeCents ?? 0, charge.date), ...(charge.category === undefined ? {} : { category: charge.category }) })
    },
    addRefund: (accountId, refund) => {
      byId(accountId).log.push(transaction(refund.id, "refund", -refund.amountCents, -(refund.feeReturnedCents ?? 0), refund.date))
    },
    // A dispute as the processor books it: an `adjustment` withdrawing the amount with the dispute
    // fee; a won dispute a second `adjustment` (`dispute_reversal`) reinstating the amount.
    addDispute: (accountId, dispute) => {
      byId(accountId).log.push(transaction(dispute.id, "adjustment", -dispute.amountCents, dispute.feeCents, dispute.date, "dispute"))
    },
    addDisputeWon: (accountId, dispute) => {
      byId(accountId).log.push(transaction(dispute.id, "adjustment", dispute.amountCents, -(dispute.feeReturnedCents ?? 0), dispute.date, "dispute_reversal"))
    },
    addPayoutFailure: (accountId, payout) => {
      byId(accountId).log.push(transaction(payout.id, "payout_failure", payout.amountCents, 0, payout.date))
    },
    addTransaction: (accountId, item) => {
      byId(accountId).log.push(transaction(item.id, item.type, item.amountCents, item.feeCents ?? 0, item.date, item.reportingCategory))
    },
    addPayout: (accountId, payout) => {
      byId(accountId).log.push(transaction(payout.id, "payout", -payout.amountCents, 0, payout.date))
    },
    putOrder: (accountId, order) => putOrder(state, accountId, order),
    revoked: state.revoked,
    failNext: (kind = "unavailable") => {
      state.failing = kind
    }
  }
}

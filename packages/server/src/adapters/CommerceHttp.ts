import { Effect, Layer } from "effect"
import { Ports } from "@ledger/engine"
import { processorObject } from "./processor/BalanceTransactions.ts"
import * as Shopify from "./storefront/Shopify.ts"

export { processorObject } from "./processor/BalanceTransactions.ts"
export { cents, storefrontDiscounts, storefrontOrder, storefrontRefunds } from "./storefront/Shopify.ts"

/**
 * The real adapter of the commerce providers port: OAuth 2.0 with PKCE (authorization-code grant,
 * S256 challenge, read-only scope) and each provider's list of changed objects over HTTPS.
 *
 * - `provider_a`, a payment processor modelled on Stripe's balance transactions (API 2023-08-16):
 *   `GET /v1/balance_transactions?limit=100` answers `{data, has_more}` of charges (amount and fee
 *   in integer minor units), refunds and payouts, NEWEST FIRST. `starting_after=<id>` pages to
 *   older ones, `ending_before=<id>` to newer ones (see `processorCursor`).
 * - `provider_b`, a storefront: Shopify's Admin REST API 2024-04 (`storefront/Shopify.ts`, ADR
 *   2126): orders with line items, discounts, shipping lines, tax lines and tips as decimal
 *   strings, listed by `updated_at_min` and paged by the `Link` header. `LEDGER_PROVIDER_B_URL` is
 *   the shop's address (`https://{shop}.myshopify.com`).
 *
 * Configured per provider by `LEDGER_PROVIDER_A_URL` / `LEDGER_PROVIDER_B_URL` with
 * `..._CLIENT_ID` and `..._CLIENT_SECRET`, and `LEDGER_APP_URL` for the redirect. The testkit's
 * `FakeCommerce` serves the same HTTP API and runs this adapter against it.
 */

export interface ProviderConfig {
  readonly baseUrl: string
  readonly clientId: string
  readonly clientSecret: string
}

export interface Options {
  readonly providers: Readonly<Record<string, ProviderConfig>>
  /** The web app's origin, where the provider sends the person back. */
  readonly appUrl: string
  readonly fetch?: ((request: Request) => Promise<Response>) | undefined
}

type Json = Record<string, any>

/**
 * The connected account a token answer names (issue 39 item 6): the processor's OAuth answer
 * carries it as `stripe_user_id` (its connected-account user id), not `account_id`; the
 * storefront's as `account_id`. Null when it names none: the connection is refused, never named
 * "undefined".
 */
export const connectedAccountOf = (provider: string, json: Json): string | null => {
  const id = provider === "provider_a" ? json.stripe_user_id ?? json.account_id : json.account_id
  return typeof id === "string" && id !== "" && id.length <= 200 ? id : null
}

/**
 * What the processor holds for the business, in cents: its balance object lists `available` and
 * `pending` amounts per currency (integer minor units); the dollar ones are summed. Null when it
 * answers none.
 */
export const processorBalance = (json: Json): number | null => {
  const entries = [...(Array.isArray(json.available) ? json.available : []), ...(Array.isArray(json.pending) ? json.pending : [])] as Array<Json>
  const dollars = entries.filter((entry) => Number.isSafeInteger(entry.amount) && String(entry.currency ?? "usd").toLowerCase() === "usd")
  return dollars.length === 0 ? null : dollars.reduce((sum, entry) => sum + Number(entry.amount), 0)
}

const failure = (code: Ports.CommerceFailure["code"], message: string) => new Ports.CommerceFailure({ code, message })

/** `path` under the base URL, its own path kept (`http://host/pa` + `/oauth/authorize` -> `http://host/pa/oauth/authorize`). */
export const endpoint = (baseUrl: string, path: string): URL => new URL(`${baseUrl.replace(/\/+$/u, "")}/${path.replace(/^\/+/u, "")}`)

/**
 * Where a processor sync stands, in the connection's cursor. The processor lists newest first, so
 * a first sync walks back (`starting_after` the oldest seen) to the start, remembering the newest
 * it saw (`back:<newest>:<oldest seen>`); from then on each sync asks for what is newer than the
 * newest seen (`ending_before`, `next:<newest>`). A cursor of the earlier form (a bare id) is read
 * as `next:`; an empty one as none.
 */
export type ProcessorCursor =
  | { readonly _tag: "Start" }
  | { readonly _tag: "Back"; readonly newest: string; readonly oldest: string }
  | { readonly _tag: "Next"; readonly newest: string }

export const processorCursor = (cursor: string | null): ProcessorCursor => {
  if (cursor === null || cursor === "") return { _tag: "Start" }
  const back = /^back:([^:]+):([^:]+)$/u.exec(cursor)
  if (back !== null) return { _tag: "Back", newest: back[1]!, oldest: back[2]! }
  return { _tag: "Next", newest: cursor.replace(/^next:/u, "") }
}

/**
 * One page of the processor's balance transactions after `cursor`: the request's query, and from
 * its answer (newest first) the objects oldest first and the cursor that follows.
 */
export const processorPage = (cursor: string | null) => {
  const at = processorCursor(cursor)
  const query: Record<string, string> = { limit: "100" }
  if (at._tag === "Back") query.starting_after = at.oldest
  if (at._tag === "Next") query.ending_before = at.newest
  const next = (items: ReadonlyArray<Json>, hasMore: boolean): string => {
    const newest = items[0] === undefined ? null : String(items[0].id)
    const oldest = items.length === 0 ? null : String(items[items.length - 1]!.id)
    if (at._tag === "Next") return `next:${newest ?? at.newest}`
    const keep = at._tag === "Back" ? at.newest : newest
    if (keep === null) return ""
    return hasMore && oldest !== null ? `back:${keep}:${oldest}` : `next:${keep}`
  }
  return { query, next }
}

/** One page of the processor's balance transactions after `cursor` (see `processorPage`). */
const processorObjects = <E>(call: (request: Request) => Effect.Effect<Json, E>, baseUrl: string, accessToken: string, cursor: string | null) => {
  const page = processorPage(cursor)
  const url = endpoint(baseUrl, "/v1/balance_transactions")
  url.search = new URLSearchParams(page.query).toString()
  return call(new Request(url, { headers: { authorization: `Bearer ${accessToken}` } })).pipe(Effect.map((json): Ports.ObjectPage => {
    const items = (json.data ?? []) as Array<Json>
    const hasMore = json.has_more === true
    // The page is newest first; the port's objects are oldest first.
    return { objects: [...items].reverse().map(processorObject), nextCursor: page.next(items, hasMore), hasMore }
  }))
}

/** Sending, and reading an answer: its JSON, or the port's failure with what the provider said. */
const client = (send: (request: Request) => Promise<Response>) => {
  const sent = (request: Request) => Effect.tryPromise({ try: () => send(request), catch: (error) => failure("unavailable", String(error)) })
  const answer = (request: Request, response: Response): Effect.Effect<Json, Ports.CommerceFailure> => {
    if (response.ok) return Effect.tryPromise({ try: () => response.json() as Promise<Json>, catch: () => failure("error", "not JSON") })
    return Effect.flatMap(Effect.promise(() => response.text().catch(() => "")), (text) => {
      // What the provider said: Shopify's `errors`, Stripe's `error.message`, OAuth's `error`.
      const said = `HTTP ${response.status}${text === "" ? "" : `: ${text.slice(0, 300)}`}`
      const retryAfter = response.headers.get("retry-after")
      return Effect.fail(
        response.status === 401 ? failure("unauthorized", `the provider refused the token (${said})`)
          : response.status === 400 && new URL(request.url).pathname.includes("oauth") ? failure("invalid_grant", `the provider refused the grant (${said})`)
          : response.status === 429 ? failure("unavailable", `the provider throttled the call${retryAfter === null ? "" : `, retry after ${retryAfter} s`} (${said})`)
          : response.status >= 500 ? failure("unavailable", said)
          : failure("error", `the provider refused the call (${said})`)
      )
    })
  }
  const call = (request: Request) => Effect.flatMap(sent(request), (response) => answer(request, response))
  return { sent, answer, call }
}

/** Shopify's token, then its shop: the token answer names no account. */
const shopifyExchange = (call: (request: Request) => Effect.Effect<Json, Ports.CommerceFailure>, found: ProviderConfig, code: string) =>
  call(new Request(Shopify.tokenUrl(found.baseUrl), {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ client_id: found.clientId, client_secret: found.clientSecret, code })
  })).pipe(Effect.flatMap((token) => {
    const accessToken = typeof token.access_token === "string" ? token.access_token : ""
    if (accessToken === "") return Effect.fail(failure("error", "the storefront's token answer has no access_token"))
    return call(new Request(Shopify.adminUrl(found.baseUrl, "shop.json"), { headers: Shopify.headers(accessToken) })).pipe(Effect.flatMap((json) => {
      const account = Shopify.shopAccount(json)
      return account === null ? Effect.fail(failure("error", "the storefront's shop answer names no shop")) : Effect.succeed({ accessToken, ...account })
    }))
  }))

export const make = (options: Options): Ports.CommerceProviders["Service"] => {
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request))
  // Under the app's address, its path kept (an app served under a prefix).
  const redirect = (path: string) => /^https?:\/\//iu.test(path) ? path : endpoint(options.appUrl, path).toString()
  const config = (provider: string) => {
    const found = options.providers[provider]
    return found === undefined ? Effect.fail(failure("not_configured", `${provider} is not configured`)) : Effect.succeed(found)
  }
  const { sent, answer, call } = client(send)
  const shopify = Shopify.headers
  return Ports.CommerceProviders.of({
    configured: (provider) => options.providers[provider] !== undefined,
    consentUrl: ({ provider, state, codeChallenge, redirectUri }) => {
      const found = options.providers[provider]
      if (found === undefined) return ""
      if (provider === "provider_b") {
        const url = Shopify.authorizeUrl(found.baseUrl)
        url.search = new URLSearchParams({ client_id: found.clientId, scope: Shopify.scope, redirect_uri: redirect(redirectUri), state }).toString()
        return url.toString()
      }
      const url = endpoint(found.baseUrl, "/oauth/authorize")
      url.search = new URLSearchParams({
        response_type: "code", client_id: found.clientId, redirect_uri: redirect(redirectUri), state, scope: "read_only",
        code_challenge: codeChallenge, code_challenge_method: "S256"
      }).toString()
      return url.toString()
    },
    exchange: ({ provider, code, codeVerifier, redirectUri }) =>
      Effect.flatMap(config(provider), (found) => provider === "provider_b" ? shopifyExchange(call, found, code) :
        call(new Request(endpoint(found.baseUrl, "/oauth/token"), {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({
            grant_type: "authorization_code", code, code_verifier: codeVerifier, redirect_uri: redirect(redirectUri),
            client_id: found.clientId, client_secret: found.clientSecret
          }).toString()
        })).pipe(Effect.flatMap((json) => {
          const accountId = connectedAccountOf(provider, json)
          if (accountId === null) return Effect.fail(failure("error", "the provider's token answer names no connected account"))
          return Effect.succeed({ accessToken: String(json.access_token), accountId, accountName: String(json.account_name ?? accountId).slice(0, 200) })
        }))),
    objects: ({ provider, accessToken, cursor }) =>
      Effect.flatMap(config(provider), (found) => {
        if (provider === "provider_a") return processorObjects(call, found.baseUrl, accessToken, cursor)
        const at = Shopify.storefrontCursor(cursor)
        const request = new Request(Shopify.ordersUrl(found.baseUrl, at), { headers: shopify(accessToken) })
        return Effect.flatMap(sent(request), (response) => answer(request, response).pipe(
          Effect.map((json) => Shopify.storefrontPage(at, (json.orders ?? []) as Array<Json>, Shopify.nextPage(response.headers.get("link"))))
        ))
      }),
    balance: ({ provider, accessToken }) =>
      Effect.flatMap(config(provider), (found) =>
        provider !== "provider_a" ? Effect.succeed(null)
          : call(new Request(endpoint(found.baseUrl, "/v1/balance"), { headers: { authorization: `Bearer ${accessToken}` } }))
            .pipe(Effect.map(processorBalance))),
    revoke: ({ provider, accessToken }) =>
      Effect.flatMap(config(provider), (found) => provider === "provider_b"
        ? call(new Request(Shopify.uninstallUrl(found.baseUrl), { method: "DELETE", headers: shopify(accessToken) })).pipe(Effect.asVoid) :
        call(new Request(endpoint(found.baseUrl, "/oauth/revoke"), {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ token: accessToken, client_id: found.clientId }).toString()
        })).pipe(Effect.asVoid))
  })
}

export const layer = (options: Options): Layer.Layer<Ports.CommerceProviders> => Layer.succeed(Ports.CommerceProviders)(make(options))

/** From LEDGER_PROVIDER_A_URL / LEDGER_PROVIDER_B_URL (with their client ids and secrets); null when neither is set. */
export const fromEnvironment = (environment: Record<string, string | undefined>): Layer.Layer<Ports.CommerceProviders> | null => {
  const providers: Record<string, ProviderConfig> = {}
  for (const letter of ["A", "B"]) {
    const baseUrl = environment[`LEDGER_PROVIDER_${letter}_URL`]
    if (baseUrl === undefined || baseUrl === "") continue
    providers[`provider_${letter.toLowerCase()}`] = {
      baseUrl,
      clientId: environment[`LEDGER_PROVIDER_${letter}_CLIENT_ID`] ?? "",
      clientSecret: environment[`LEDGER_PROVIDER_${letter}_CLIENT_SECRET`] ?? ""
    }
  }
  if (Object.keys(providers).length === 0) return null
  return layer({ providers, appUrl: environment.LEDGER_APP_URL ?? "http://localhost:8080" })
}

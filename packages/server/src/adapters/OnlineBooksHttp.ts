import { Effect, Layer } from "effect"
import { Ports } from "@ledger/engine"

/**
 * The real adapter of the online edition (the OnlineBooks port), modelled on its v3 REST API:
 * OAuth 2.0 authorization code with the read-only accounting scope (`/oauth2/v1/authorize`,
 * `/oauth2/v1/tokens/bearer`, `/oauth2/v1/tokens/revoke`), and the query endpoint
 * `GET /v3/company/{realmId}/query?query=SELECT * FROM Invoice STARTPOSITION 1 MAXRESULTS 1000`
 * answering `{QueryResponse: {Invoice: [...], startPosition, maxResults}}`, or with
 * `SELECT COUNT(*) FROM Invoice` `{QueryResponse: {totalCount}}`. Each call is one metered read.
 * Configured by `LEDGER_ONLINE_BOOKS_URL` (+ `_CLIENT_ID`, `_CLIENT_SECRET`, and
 * `LEDGER_ONLINE_BOOKS_READ_BUDGET`, default 500,000 a month); the testkit's `FakeOnlineBooks`
 * serves the same API.
 */

export interface Options {
  readonly baseUrl: string
  readonly clientId: string
  readonly clientSecret: string
  readonly appUrl: string
  readonly monthlyReadBudget: number
  readonly fetch?: ((request: Request) => Promise<Response>) | undefined
}

type Json = Record<string, any>

const failure = (code: Ports.OnlineBooksFailure["code"], message: string) => new Ports.OnlineBooksFailure({ code, message })

export const make = (options: Options): Ports.OnlineBooks["Service"] => {
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request))
  const basic = `Basic ${btoa(`${options.clientId}:${options.clientSecret}`)}`
  const call = (request: Request) =>
    Effect.tryPromise({ try: () => send(request), catch: (error) => failure("unavailable", String(error)) }).pipe(
      Effect.flatMap((response) =>
        response.status === 401 ? Effect.fail(failure("unauthorized", "the online edition refused the token"))
          : response.status === 400 ? Effect.fail(failure("invalid_grant", "the online edition refused the grant"))
          : response.status === 429 ? Effect.fail(failure("throttled", "the online edition throttled the call"))
          : !response.ok ? Effect.fail(failure("unavailable", `HTTP ${response.status}`))
          : Effect.tryPromise({ try: () => response.json() as Promise<Json>, catch: () => failure("error", "not JSON") }))
    )
  const query = (accessToken: string, realmId: string, text: string) => {
    const url = new URL(`/v3/company/${encodeURIComponent(realmId)}/query`, options.baseUrl)
    url.searchParams.set("query", text)
    url.searchParams.set("minorversion", "75")
    return call(new Request(url, { headers: { authorization: `Bearer ${accessToken}`, accept: "application/json" } }))
  }
  return Ports.OnlineBooks.of({
    configured: true,
    monthlyReadBudget: options.monthlyReadBudget,
    consentUrl: ({ state, redirectUri }) => {
      const url = new URL("/oauth2/v1/authorize", options.baseUrl)
      url.search = new URLSearchParams({
        client_id: options.clientId, response_type: "code", scope: "com.intuit.quickbooks.accounting.read", redirect_uri: new URL(redirectUri, options.appUrl).toString(), state
      }).toString()
      return url.toString()
    },
    exchange: ({ code, redirectUri }) =>
      call(new Request(new URL("/oauth2/v1/tokens/bearer", options.baseUrl), {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", authorization: basic, accept: "application/json" },
        body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: new URL(redirectUri, options.appUrl).toString() }).toString()
      })).pipe(Effect.map((json) => ({ accessToken: String(json.access_token) }))),
    count: ({ accessToken, realmId, entity }) =>
      query(accessToken, realmId, `SELECT COUNT(*) FROM ${entity}`).pipe(Effect.map((json) => Number(json.QueryResponse?.totalCount ?? 0))),
    query: ({ accessToken, realmId, entity, startPosition, maxResults }) =>
      query(accessToken, realmId, `SELECT * FROM ${entity} STARTPOSITION ${startPosition} MAXRESULTS ${Math.min(1000, maxResults)}`)
        .pipe(Effect.map((json) => (json.QueryResponse?.[entity] ?? []) as ReadonlyArray<Record<string, unknown>>)),
    revoke: ({ accessToken }) =>
      call(new Request(new URL("/oauth2/v1/tokens/revoke", options.baseUrl), {
        method: "POST",
        headers: { "content-type": "application/json", authorization: basic, accept: "application/json" },
        body: JSON.stringify({ token: accessToken })
      })).pipe(Effect.asVoid)
  })
}

export const layer = (options: Options): Layer.Layer<Ports.OnlineBooks> => Layer.succeed(Ports.OnlineBooks)(make(options))

export const fromEnvironment = (environment: Record<string, string | undefined>): Layer.Layer<Ports.OnlineBooks> | null => {
  const baseUrl = environment.LEDGER_ONLINE_BOOKS_URL
  if (baseUrl === undefined || baseUrl === "") return null
  return layer({
    baseUrl,
    clientId: environment.LEDGER_ONLINE_BOOKS_CLIENT_ID ?? "",
    clientSecret: environment.LEDGER_ONLINE_BOOKS_CLIENT_SECRET ?? "",
    appUrl: environment.LEDGER_APP_URL ?? "http://localhost:8080",
    monthlyReadBudget: Number(environment.LEDGER_ONLINE_BOOKS_READ_BUDGET ?? 500_000)
  })
}

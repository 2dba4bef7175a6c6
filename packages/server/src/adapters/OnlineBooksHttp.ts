import { Effect, Layer } from "effect"
import { Ports } from "@ledger/engine"

/**
 * The real adapter of the online edition (the OnlineBooks port), modelled on QuickBooks Online's v3
 * API (entities as Intuit's v3 XSDs describe them, minor version 75) and Intuit's OAuth 2.0
 * (ADR 2125; test/fixtures/providers/quickbooks-online): consent at Intuit's authorization endpoint
 * (`https://appcenter.intuit.com/connect/oauth2`, scope `com.intuit.quickbooks.accounting`: Intuit
 * has no read-only accounting scope, so the adapter only ever reads), the token at
 * `https://oauth.platform.intuit.com/oauth2/v1/tokens/bearer`, revocation at
 * `https://developer.api.intuit.com/v2/oauth2/tokens/revoke` (the access token lasts an hour;
 * `grant_type=refresh_token` at the token endpoint renews it, and may answer a new refresh token),
 * and the query endpoint
 * `GET {base}/v3/company/{realmId}/query?query=SELECT * FROM Invoice STARTPOSITION 1 MAXRESULTS 1000` (a name
 * list with `WHERE Active IN (true, false)` before STARTPOSITION)
 * answering `{QueryResponse: {Invoice: [...], startPosition, maxResults}}` (`{QueryResponse: {}}`
 * past the end), or with `SELECT COUNT(*) FROM Invoice` `{QueryResponse: {totalCount}}`. Refusals
 * are `{Fault: {Error: [{Message, Detail, code}], type}}`. Each call is one metered read.
 *
 * Configured by `LEDGER_ONLINE_BOOKS_URL` (`https://quickbooks.api.intuit.com`, or the sandbox's
 * `https://sandbox-quickbooks.api.intuit.com`), `_CLIENT_ID`, `_CLIENT_SECRET`, and
 * `LEDGER_ONLINE_BOOKS_READ_BUDGET` (default 500,000 a month). The OAuth endpoints are Intuit's
 * when the base URL is Intuit's, else the same paths under the base URL (a fake, a proxy);
 * `LEDGER_ONLINE_BOOKS_AUTHORIZE_URL`, `_TOKEN_URL`, `_REVOKE_URL` override them. The testkit's
 * `FakeOnlineBooks` serves the same API.
 */

/**
 * The name lists answer active records only unless the statement asks (Intuit: inactive objects
 * are left out of query results): an inactive account with history, or a customer made inactive
 * after its last sale, must come over for the books to tie out.
 */
const withInactive = (entity: string) => ["Account", "Customer", "Vendor", "Item"].includes(entity) ? " WHERE Active IN (true, false)" : ""

export interface Options {
  readonly baseUrl: string
  readonly clientId: string
  readonly clientSecret: string
  readonly appUrl: string
  readonly monthlyReadBudget: number
  /** Intuit's OAuth endpoints; by default Intuit's own for an Intuit base URL, else the same paths under the base URL. */
  readonly authorizeUrl?: string | undefined
  readonly tokenUrl?: string | undefined
  readonly revokeUrl?: string | undefined
  readonly fetch?: ((request: Request) => Promise<Response>) | undefined
}

type Json = Record<string, any>

const failure = (code: Ports.OnlineBooksFailure["code"], message: string) => new Ports.OnlineBooksFailure({ code, message })

/** Intuit's OAuth 2.0 endpoints (its discovery document, `/.well-known/openid_configuration`). */
export const intuitOAuth = {
  authorizeUrl: "https://appcenter.intuit.com/connect/oauth2",
  tokenUrl: "https://oauth.platform.intuit.com/oauth2/v1/tokens/bearer",
  revokeUrl: "https://developer.api.intuit.com/v2/oauth2/tokens/revoke"
} as const

/** `path` under the base URL, its own path kept. */
const endpoint = (baseUrl: string, path: string): URL => new URL(`${baseUrl.replace(/\/+$/u, "")}/${path.replace(/^\/+/u, "")}`)

/** The OAuth endpoints for a base URL: Intuit's for Intuit's API hosts, else the same paths under the base URL. */
export const oauthEndpoints = (options: Pick<Options, "baseUrl" | "authorizeUrl" | "tokenUrl" | "revokeUrl">) => {
  const intuit = /(^|\.)intuit\.com$/iu.test(new URL(options.baseUrl).hostname)
  const under = (real: string) => intuit ? real : endpoint(options.baseUrl, new URL(real).pathname).toString()
  return {
    authorizeUrl: options.authorizeUrl ?? under(intuitOAuth.authorizeUrl),
    tokenUrl: options.tokenUrl ?? under(intuitOAuth.tokenUrl),
    revokeUrl: options.revokeUrl ?? under(intuitOAuth.revokeUrl)
  }
}

/**
 * The refusal an answer carries, as the port's failure. The API's is a Fault (`{Fault: {Error:
 * [{Message, Detail, code}]}}`; its 401s are spelled in lower case, `{fault: {error: [...]}}`);
 * the OAuth endpoints' is `{error}` (RFC 6749). A 400 is an invalid grant only from the token
 * endpoint: from the API it is a refused query.
 */
export const refusal = (status: number, body: Json | null, from: "oauth" | "api", retryAfter: string | null): Ports.OnlineBooksFailure => {
  const errors = (body?.Fault?.Error ?? body?.fault?.error ?? []) as Array<Json>
  const first = errors[0] ?? {}
  const said = errors.length > 0
    ? `${String(first.Message ?? first.message ?? "")}${(first.Detail ?? first.detail) === undefined ? "" : `: ${String(first.Detail ?? first.detail)}`} (code ${String(first.code ?? "?")})`
    : typeof body?.error === "string" ? body.error : `HTTP ${status}`
  if (status === 429) return failure("throttled", `the online edition throttled the call${retryAfter === null ? "" : `, retry after ${retryAfter} s`}: ${said}`)
  if (status === 401 || status === 403) return failure("unauthorized", `the online edition refused the token: ${said}`)
  if (status === 400 && from === "oauth") return failure(body?.error === "invalid_grant" ? "invalid_grant" : "error", `the online edition refused the grant: ${said}`)
  if (status >= 500) return failure("unavailable", `the online edition answered ${status}: ${said}`)
  return failure("error", `the online edition refused the call: ${said}`)
}

/**
 * The token endpoint's answer as the port's grant: `access_token`, `expires_in` (seconds; Intuit
 * gives 3600) and `refresh_token` (Intuit's rotates: the one answered replaces the one sent).
 */
export const grantOf = (json: Json): Effect.Effect<Ports.OnlineGrant, Ports.OnlineBooksFailure> => {
  const expires = Number(json.expires_in)
  if (typeof json.access_token !== "string" || json.access_token === "" || !Number.isFinite(expires) || expires <= 0) {
    return Effect.fail(failure("error", `the token endpoint answered no usable token: ${JSON.stringify(Object.keys(json))}`))
  }
  return Effect.succeed({ accessToken: json.access_token, expiresInSeconds: expires, refreshToken: typeof json.refresh_token === "string" ? json.refresh_token : null })
}

export const make = (options: Options): Ports.OnlineBooks["Service"] => {
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request))
  const basic = `Basic ${btoa(`${options.clientId}:${options.clientSecret}`)}`
  const endpoints = oauthEndpoints(options)
  // Under the app's address, its path kept (an app served under a prefix).
  const redirect = (path: string) => /^https?:\/\//iu.test(path) ? path : endpoint(options.appUrl, path).toString()
  const call = (request: Request, from: "oauth" | "api") =>
    Effect.tryPromise({ try: () => send(request), catch: (error) => failure("unavailable", String(error)) }).pipe(
      Effect.flatMap((response) =>
        Effect.tryPromise({ try: () => response.text(), catch: (error) => failure("unavailable", String(error)) }).pipe(Effect.flatMap((text) => {
          let body: Json | null = null
          try {
            body = text === "" ? {} : JSON.parse(text) as Json
          } catch {
            body = null
          }
          if (!response.ok) return Effect.fail(refusal(response.status, body, from, response.headers.get("retry-after")))
          return body === null ? Effect.fail(failure("error", "not JSON")) : Effect.succeed(body)
        }))
      )
    )
  const query = (accessToken: string, realmId: string, text: string) => {
    const url = endpoint(options.baseUrl, `/v3/company/${encodeURIComponent(realmId)}/query`)
    url.searchParams.set("query", text)
    url.searchParams.set("minorversion", "75")
    return call(new Request(url, { headers: { authorization: `Bearer ${accessToken}`, accept: "application/json" } }), "api")
  }
  // Both grants at Intuit's token endpoint: a form, the client by HTTP Basic (RFC 6749 2.3.1).
  const token = (form: Record<string, string>) =>
    call(new Request(endpoints.tokenUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: basic, accept: "application/json" },
      body: new URLSearchParams(form).toString()
    }), "oauth").pipe(Effect.flatMap(grantOf))
  return Ports.OnlineBooks.of({
    configured: true,
    monthlyReadBudget: options.monthlyReadBudget,
    consentUrl: ({ state, redirectUri }) => {
      const url = new URL(endpoints.authorizeUrl)
      url.search = new URLSearchParams({
        client_id: options.clientId, response_type: "code", scope: "com.intuit.quickbooks.accounting", redirect_uri: redirect(redirectUri), state
      }).toString()
      return url.toString()
    },
    exchange: ({ code, redirectUri }) => token({ grant_type: "authorization_code", code, redirect_uri: redirect(redirectUri) }),
    refresh: ({ refreshToken }) => token({ grant_type: "refresh_token", refresh_token: refreshToken }),
    count: ({ accessToken, realmId, entity }) =>
      query(accessToken, realmId, `SELECT COUNT(*) FROM ${entity}${withInactive(entity)}`).pipe(Effect.map((json) => Number(json.QueryResponse?.totalCount ?? 0))),
    query: ({ accessToken, realmId, entity, startPosition, maxResults }) =>
      query(accessToken, realmId, `SELECT * FROM ${entity}${withInactive(entity)} STARTPOSITION ${startPosition} MAXRESULTS ${Math.min(1000, maxResults)}`)
        .pipe(Effect.map((json) => (json.QueryResponse?.[entity] ?? []) as ReadonlyArray<Record<string, unknown>>)),
    revoke: ({ accessToken }) =>
      call(new Request(endpoints.revokeUrl, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: basic, accept: "application/json" },
        body: JSON.stringify({ token: accessToken })
      }), "oauth").pipe(Effect.asVoid)
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
    authorizeUrl: environment.LEDGER_ONLINE_BOOKS_AUTHORIZE_URL || undefined,
    tokenUrl: environment.LEDGER_ONLINE_BOOKS_TOKEN_URL || undefined,
    revokeUrl: environment.LEDGER_ONLINE_BOOKS_REVOKE_URL || undefined,
    monthlyReadBudget: Number(environment.LEDGER_ONLINE_BOOKS_READ_BUDGET ?? 500_000)
  })
}

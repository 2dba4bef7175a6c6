import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import * as Row from "../kernel/Row.ts"
import type { Entropy } from "../ports/Entropy.ts"
import * as ClientDocuments from "./ClientDocuments.ts"
import { accessTokenSeconds, isChallenge, scopeText, type Level, verifies } from "./ConnectionRules.ts"
import { type Answer, oauthError } from "./OAuthAnswer.ts"
import * as OAuthStore from "./OAuthStore.ts"
import * as Registration from "./Registration.ts"

/**
 * The authorization server of AI apps (MCP authorization spec; RFC 9728, 8414, 7591, 7636, 8707,
 * 7009; docs/ai-apps.md). Not `/v1` operations: the server's http/OAuth.ts serves these routes
 * and hands each request here with the issuer (its own base URL) and the time. Answers are the
 * OAuth wire format (`error`, `error_description`), not Ledger's error body.
 */

export type { Answer } from "./OAuthAnswer.ts"

export const resourceOf = (issuer: string) => `${issuer}/mcp`

/** A resource URI compared as RFC 3986 normalizes it: scheme and host case, default port, a trailing slash. */
const normalized = (uri: string): string | null => {
  if (!URL.canParse(uri) || uri.includes("#")) return null
  const url = new URL(uri)
  if (url.username !== "" || url.password !== "" || url.search !== "") return null
  return `${url.origin}${url.pathname.replace(/\/+$/u, "")}`
}

/**
 * RFC 8707: the only resource this server protects is its own MCP endpoint (DECISIONS.md "AI app
 * authorization"); any other is `invalid_target`, or a token bound elsewhere would work here.
 */
export const isOwnResource = (uri: string, issuer: string): boolean => {
  const own = normalized(resourceOf(issuer))
  return own !== null && normalized(uri) === own
}
export const resourceMetadataUrl = (issuer: string) => `${issuer}/.well-known/oauth-protected-resource`

/** RFC 9728: the MCP endpoint as a protected resource, and who authorizes it. */
export const protectedResourceMetadata = (issuer: string) => ({
  resource: resourceOf(issuer),
  authorization_servers: [issuer],
  bearer_methods_supported: ["header"],
  scopes_supported: ["ledger:read", "ledger:suggest", "ledger:post"],
  resource_name: "Ledger"
})

/** RFC 8414: the authorization server's endpoints and what it supports. */
export const authorizationServerMetadata = (issuer: string) => ({
  issuer,
  authorization_endpoint: `${issuer}/oauth/authorize`,
  token_endpoint: `${issuer}/oauth/token`,
  registration_endpoint: `${issuer}/oauth/register`,
  revocation_endpoint: `${issuer}/oauth/revoke`,
  response_types_supported: ["code"],
  grant_types_supported: ["authorization_code", "refresh_token"],
  code_challenge_methods_supported: ["S256"],
  token_endpoint_auth_methods_supported: ["none"],
  // A client id may be the https URL of its metadata document (ClientDocuments.ts, ADR 1706).
  client_id_metadata_document_supported: true,
  revocation_endpoint_auth_methods_supported: ["none"],
  scopes_supported: ["ledger:read", "ledger:suggest", "ledger:post"],
  // The code reaches the client from the consent screen's approval (POST /v1/ai-connections),
  // which does not know the issuer's public address, so no `iss` is promised (RFC 9207, ADR 1706).
  authorization_response_iss_parameter_supported: false
})

/** RFC 7591 dynamic registration, limited and bounded (Registration.ts). */
export const register = Registration.register

/** What the server's fetch of a metadata document read (http/OAuth.ts), or why it read nothing. */
export interface FetchedDocument {
  readonly status: number
  readonly body: string
  readonly cacheControl: string | null
}

/**
 * A client id that is a metadata document URL, made known before the authorization endpoint looks
 * it up: kept in `oauth_clients` while its cache time runs, else fetched with `fetchDocument`,
 * judged and saved. Null when the client is known (or not a URL: registration's `ldgc_` ids); an
 * OAuth error answer, shown and never redirected to, when the URL or its document is refused.
 */
export const knowDocumentClient = <E>(
  clientId: string,
  now: string,
  allowHttp: boolean,
  fetchDocument: (url: string) => Effect.Effect<FetchedDocument, E>,
  describe: (error: E) => string
): Effect.Effect<Answer | null, never, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    if (!ClientDocuments.isDocumentClientId(clientId)) return null
    const problem = ClientDocuments.clientIdProblem(clientId, allowHttp)
    if (problem !== null) return oauthError(400, "invalid_client", problem)
    if (yield* OAuthStore.documentFresh(clientId, now)) return null
    const fetched = yield* Effect.result(fetchDocument(clientId))
    if (fetched._tag === "Failure") return oauthError(400, "invalid_client", describe(fetched.failure))
    if (fetched.success.status !== 200) {
      return oauthError(400, "invalid_client", `The client metadata document answered ${fetched.success.status}, not 200.`)
    }
    const client = ClientDocuments.parseDocument(clientId, fetched.success.body)
    if ("problem" in client) return oauthError(400, "invalid_client", client.problem)
    const expiresAt = new Date(Date.parse(now) + ClientDocuments.cacheSecondsOf(fetched.success.cacheControl) * 1_000).toISOString()
    yield* OAuthStore.saveDocumentClient(clientId, client.clientName, client.redirectUris, client.metadata, now, expiresAt)
    return null
  }).pipe(Effect.orDie)

/**
 * The request's client and its redirect URI, registered exactly; else the OAuth error to show,
 * never to redirect to (RFC 6749 4.1.2.1: a redirect URI not checked is not followed).
 */
const checkedRedirect = (params: URLSearchParams, now: string) =>
  Effect.gen(function*() {
    const clientId = params.get("client_id") ?? ""
    const redirectUri = params.get("redirect_uri") ?? ""
    const client = clientId === "" ? null : yield* OAuthStore.findClient(clientId, now)
    if (client === null) return { refused: oauthError(400, "invalid_client", "Unknown client_id.") } as const
    if (!client.redirectUris.includes(redirectUri)) {
      return { refused: oauthError(400, "invalid_request", "redirect_uri does not match a registered one exactly.") } as const
    }
    /** RFC 6749 4.1.2.1: the error, and the request's `state` unchanged, on the checked redirect URI. */
    const back = (error: string, description: string): Answer => {
      const url = new URL(redirectUri)
      url.searchParams.set("error", error)
      url.searchParams.set("error_description", description)
      const state = params.get("state")
      if (state !== null) url.searchParams.set("state", state)
      return { status: 302, body: null, headers: { location: url.toString() } }
    }
    return { client, back } as const
  })

/**
 * The authorization endpoint: checks the request and sends the browser to the web app's consent
 * screen (`consentUrl`), whose approval is `POST /v1/ai-connections`. An unknown client or a
 * redirect URI not registered exactly is shown as an error, never redirected to (RFC 6749 4.1.2.1).
 */
export const authorize = (params: URLSearchParams, consentUrl: string, issuer: string, now: string): Effect.Effect<Answer, never, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    const checked = yield* checkedRedirect(params, now)
    if ("refused" in checked) return checked.refused
    const { back, client } = checked
    if (params.get("response_type") !== "code") return back("unsupported_response_type", "Only response_type=code.")
    if (params.get("code_challenge_method") !== "S256") return back("invalid_request", "PKCE with code_challenge_method=S256 is required; plain is refused.")
    if (!isChallenge(params.get("code_challenge") ?? "")) return back("invalid_request", "code_challenge must be an S256 challenge.")
    if (params.getAll("resource").some((resource) => !isOwnResource(resource, issuer))) {
      return back("invalid_target", `The only resource is this server's MCP endpoint, ${resourceOf(issuer)}.`)
    }
    const target = new URL(consentUrl)
    for (const [name, value] of params) target.searchParams.set(name, value)
    target.searchParams.set("client_name", client.clientName ?? client.clientId)
    return { status: 302, body: null, headers: { location: target.toString() } }
  }).pipe(Effect.orDie)

/**
 * The consent screen's Decline (issue 38 item 15, ADR 2017): the person refused, so the browser
 * goes back to the app with `error=access_denied` and the request's `state` (RFC 6749 4.1.2.1),
 * as Connect's approval sends it back with its code. The client and redirect URI are checked again
 * here, exactly as `authorize` did: the consent screen's address is the browser's, and a
 * redirect URI read from it is followed only once the server has matched it to the client's.
 * Nothing is stored: a decline creates no connection and no code.
 */
export const decline = (params: URLSearchParams, now: string): Effect.Effect<Answer, never, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    const checked = yield* checkedRedirect(params, now)
    if ("refused" in checked) return checked.refused
    return checked.back("access_denied", "The person declined to connect the app.")
  }).pipe(Effect.orDie)

const tokenAnswer = (issued: OAuthStore.Issued, level: Level): Answer => ({
  status: 200,
  headers: { "cache-control": "no-store", pragma: "no-cache" },
  body: {
    access_token: issued.accessToken,
    token_type: "Bearer",
    expires_in: accessTokenSeconds,
    refresh_token: issued.refreshToken,
    scope: scopeText(level)
  }
})

/**
 * RFC 8707: the approved resource (`/mcp` when the approval named none) and any named at the token
 * endpoint must be this server's MCP endpoint; the approval itself does not check it.
 */
const resourceAllowed = (approved: string, asked: string | null, issuer: string) =>
  (approved === "/mcp" || isOwnResource(approved, issuer)) && (asked === null || isOwnResource(asked, issuer))

const exchangeCode = (form: URLSearchParams, now: string, issuer: string) =>
  Effect.gen(function*() {
    const code = form.get("code") ?? ""
    const row = code === "" ? null : yield* OAuthStore.takeCode(code, now)
    if (row === null) return oauthError(400, "invalid_grant", "Unknown authorization code.")
    const connectionId = Number(row.connection_id)
    if (row.used_at !== null) {
      yield* OAuthStore.revokeConnectionTokens(connectionId, now)
      return oauthError(400, "invalid_grant", "The authorization code was already used; the tokens it gave are revoked.")
    }
    if (Date.parse(Row.iso(row.expires_at)) <= Date.parse(now)) {
      return oauthError(400, "invalid_grant", "The authorization code has expired.")
    }
    if (row.connection_status !== "active") return oauthError(400, "invalid_grant", "The connection has been disconnected.")
    if ((form.get("client_id") ?? "") !== row.client_id) return oauthError(400, "invalid_grant", "The code was issued to another client.")
    if ((form.get("redirect_uri") ?? "") !== row.redirect_uri) return oauthError(400, "invalid_grant", "redirect_uri does not match the authorization request.")
    if (!verifies(form.get("code_verifier") ?? "", String(row.code_challenge))) {
      return oauthError(400, "invalid_grant", "The PKCE code_verifier does not match the code_challenge.")
    }
    if (!resourceAllowed(String(row.resource), form.get("resource"), issuer)) return oauthError(400, "invalid_target", "The resource does not match the approval.")
    const issued = yield* OAuthStore.issueTokens(connectionId, String(row.client_id), String(row.resource), null, now)
    return tokenAnswer(issued, row.level as Level)
  })

const refresh = (form: URLSearchParams, now: string, issuer: string) =>
  Effect.gen(function*() {
    // Every client is public (no secret), so it names itself (RFC 6749 6 with 3.2.1).
    if ((form.get("client_id") ?? "") === "") return oauthError(400, "invalid_request", "client_id is required.")
    const token = form.get("refresh_token") ?? ""
    const row = token === "" ? null : yield* OAuthStore.findRefresh(token)
    if (row === null) return oauthError(400, "invalid_grant", "Unknown refresh token.")
    const family = String(row.family)
    if (row.used_at !== null) {
      yield* OAuthStore.revokeFamily(family, now)
      return oauthError(400, "invalid_grant", "The refresh token was already used: every token of its family is revoked.")
    }
    if (row.revoked_at !== null) return oauthError(400, "invalid_grant", "The refresh token has been revoked.")
    if (row.connection_status !== "active") return oauthError(400, "invalid_grant", "The connection has been disconnected.")
    if (Date.parse(Row.iso(row.expires_at)) <= Date.parse(now)) return oauthError(400, "invalid_grant", "The refresh token has expired.")
    if (form.get("client_id") !== row.client_id) return oauthError(400, "invalid_grant", "The refresh token was issued to another client.")
    if (!resourceAllowed(String(row.resource), form.get("resource"), issuer)) return oauthError(400, "invalid_target", "The resource does not match the approval.")
    yield* OAuthStore.markUsed(token, now)
    const issued = yield* OAuthStore.issueTokens(Number(row.connection_id), String(row.client_id), String(row.resource), family, now)
    return tokenAnswer(issued, row.level as Level)
  })

/** The token endpoint, one transaction per request: a code or a refresh token for new tokens. */
export const token = (form: URLSearchParams, now: string, issuer: string): Effect.Effect<Answer, never, SqlClient.SqlClient | Entropy> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const grant = form.get("grant_type")
    if (grant === "authorization_code") return yield* sql.withTransaction(exchangeCode(form, now, issuer))
    if (grant === "refresh_token") return yield* sql.withTransaction(refresh(form, now, issuer))
    return oauthError(400, "unsupported_grant_type", "grant_type must be authorization_code or refresh_token.")
  }).pipe(Effect.orDie)

/** RFC 7009: always 200, whether or not the token was known. */
export const revoke = (form: URLSearchParams, now: string): Effect.Effect<Answer, never, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    const value = form.get("token") ?? ""
    if (value !== "") yield* OAuthStore.revokeToken(value, form.get("client_id"), now)
    return { status: 200, body: {}, headers: { "cache-control": "no-store" } } satisfies Answer
  }).pipe(Effect.orDie)

import { ByteSize, Clock, Effect } from "effect"
import { HttpIncomingMessage, type HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { SqlClient } from "effect/sql"
import { ApiError } from "@ledger/api"
import { AiApps, Ports } from "@ledger/engine"
import { ClientDocuments } from "../adapters/HttpClientDocuments.ts"
import * as SlowClients from "./SlowClients.ts"

/**
 * The authorization server's HTTP face (MCP authorization spec; docs/ai-apps.md): the two
 * well-known metadata documents, registration, authorize (and the consent screen's decline), token
 * and revoke. The protocol is the engine's (ai-apps/OAuth.ts); this reads the request within its size limit and answers, and
 * fetches a client ID metadata document when a client id is its URL (ADR 1706). It also
 * guards `/mcp`: a call without a Bearer token, or with an app's access token that is no longer
 * good, gets 401 with `WWW-Authenticate: Bearer resource_metadata=…`, so an MCP client can discover
 * where to authorize (RFC 9728 5.1) and refresh.
 */

const bodyBytesMax = 64 * 1024

const header = (request: HttpServerRequest.HttpServerRequest, name: string): string | null => {
  const value = request.headers[name]
  return typeof value === "string" && value !== "" ? value : null
}

/** This server's base URL: LEDGER_BASE_URL, else the request's scheme and host. */
export const issuerOf = (request: HttpServerRequest.HttpServerRequest): string => {
  const configured = process.env.LEDGER_BASE_URL
  if (configured !== undefined && configured !== "") return configured.replace(/\/+$/u, "")
  const original = URL.canParse(request.originalUrl) ? new URL(request.originalUrl) : null
  const host = header(request, "host") ?? original?.host ?? "localhost"
  const proto = header(request, "x-forwarded-proto") ?? original?.protocol.replace(":", "") ?? "http"
  return `${proto}://${host}`
}

const answer = (result: AiApps.OAuth.Answer) =>
  result.status === 302
    ? HttpServerResponse.empty({ status: 302, headers: result.headers ?? {} })
    : HttpServerResponse.jsonUnsafe(result.body, { status: result.status, headers: result.headers ?? {} })


/**
 * The body within its size and its deadline (SlowClients.ts `readBodyWithin`): past the deadline, a
 * `request_timeout` LedgerError. No body here has a credential known before it is read, so each
 * counts against its address's reads (`rate_limited` past them).
 */
const readText = (request: HttpServerRequest.HttpServerRequest, bodyTimeoutMs: number, unauthenticated: SlowClients.Unauthenticated) =>
  SlowClients.readBodyWithin(request, bodyBytesMax, bodyTimeoutMs, request.text.pipe(Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(bodyBytesMax))), unauthenticated)

const readForm = (request: HttpServerRequest.HttpServerRequest, bodyTimeoutMs: number, unauthenticated: SlowClients.Unauthenticated) =>
  Effect.map(readText(request, bodyTimeoutMs, unauthenticated), (text) => new URLSearchParams(text))

const failed = (status: number, error: string, description: string, headers: Record<string, string> = {}) =>
  HttpServerResponse.jsonUnsafe({ error, error_description: description }, { status, headers: { "cache-control": "no-store", ...headers } })

/**
 * A body that did not arrive in time is 408, one past its address's reads 429 with Retry-After (the
 * connection closed either way); anything else unreadable, 400.
 */
const guard = <E, R>(effect: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
  effect.pipe(
    Effect.catchIf(
      (error: unknown) => error instanceof ApiError.LedgerError && error.type === "request_timeout",
      () => Effect.succeed(failed(408, "invalid_request", "The request body did not arrive in time.", { connection: "close" }))
    ),
    Effect.catchIf(
      (error: unknown) => error instanceof ApiError.LedgerError && error.type === "rate_limited",
      (error) => {
        const refusal = error as unknown as ApiError.LedgerError
        return Effect.succeed(failed(429, "rate_limited", refusal.message, SlowClients.refusalHeaders(refusal)))
      }
    ),
    Effect.catchCause((cause) => Effect.as(Effect.logError("OAuth request failed", cause), failed(400, "invalid_request", "The request could not be read.")))
  )

const metadata = (document: (issuer: string) => unknown) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    return HttpServerResponse.jsonUnsafe(document(issuerOf(request)), { status: 200, headers: { "cache-control": "max-age=300" } })
  })

/** Codes and tokens come from the system's secure random source. */
const run = <A>(sql: SqlClient.SqlClient, effect: Effect.Effect<A, never, SqlClient.SqlClient | Ports.Entropy>) =>
  effect.pipe(Effect.provideService(SqlClient.SqlClient, sql), Effect.provide(Ports.Entropy.layer))

/**
 * Adds the authorization server's routes to the app's router (Http.ts `routes`); `addressOf` is
 * a request's client address as the rest of the server takes it (registration is limited by it).
 */
export const register = (
  router: HttpRouter.HttpRouter,
  addressOf: (request: HttpServerRequest.HttpServerRequest) => string | null,
  bodyTimeoutMs: number,
  gate: SlowClients.ReadGate = SlowClients.gate(SlowClients.defaults.bodyReadsPerAddress!)
) =>
  Effect.gen(function*() {
    const unread = (request: HttpServerRequest.HttpServerRequest) => ({ gate, address: addressOf(request) })
    const sql = yield* SqlClient.SqlClient
    // The app's clock, as the engine's requests read it (a test's manual clock moves codes' expiry,
    // registrations' limits and unused clients' expiry with the approvals'); the system clock by default.
    const clock = yield* Clock.Clock
    const now = Effect.map(clock.currentTimeMillis, (ms) => new Date(ms).toISOString())
    // Public addresses only, unless a test's providers admit loopback (HttpClientDocuments.ts).
    const documents = yield* ClientDocuments
    const { OAuth } = AiApps
    for (const path of ["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"] as const) {
      yield* router.add("GET", path, metadata(OAuth.protectedResourceMetadata))
    }
    yield* router.add("GET", "/.well-known/oauth-authorization-server", metadata(OAuth.authorizationServerMetadata))
    yield* router.add("POST", "/oauth/register", guard(Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const text = yield* readText(request, bodyTimeoutMs, unread(request))
      let body: unknown
      try {
        body = JSON.parse(text)
      } catch {
        return failed(400, "invalid_client_metadata", "The body must be JSON.")
      }
      return answer(yield* run(sql, OAuth.register(body, yield* now, addressOf(request))))
    })))
    yield* router.add("GET", "/oauth/authorize", guard(Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const params = new URL(request.url, "http://localhost").searchParams
      const consent = `${(process.env.LEDGER_APP_URL ?? issuerOf(request)).replace(/\/+$/u, "")}/connect`
      // A client id that is a metadata document URL is fetched (or found still cached) first.
      const unknown = yield* run(sql, OAuth.knowDocumentClient(
        params.get("client_id") ?? "", yield* now, documents.allowPrivate, documents.fetch, (error) => error.message
      ))
      if (unknown !== null) return answer(unknown)
      return answer(yield* run(sql, OAuth.authorize(params, consent, issuerOf(request), yield* now)))
    })))
    // The consent screen's Decline (ADR 2017): back to the app with access_denied and its state,
    // once the client and redirect URI are checked again (a metadata-document client made known
    // again if its cache ran out since authorize).
    yield* router.add("GET", "/oauth/decline", guard(Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const params = new URL(request.url, "http://localhost").searchParams
      const unknown = yield* run(sql, OAuth.knowDocumentClient(
        params.get("client_id") ?? "", yield* now, documents.allowPrivate, documents.fetch, (error) => error.message
      ))
      if (unknown !== null) return answer(unknown)
      return answer(yield* run(sql, OAuth.decline(params, yield* now)))
    })))
    yield* router.add("POST", "/oauth/token", guard(Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      return answer(yield* run(sql, OAuth.token(yield* readForm(request, bodyTimeoutMs, unread(request)), yield* now, issuerOf(request))))
    })))
    yield* router.add("POST", "/oauth/revoke", guard(Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      return answer(yield* run(sql, OAuth.revoke(yield* readForm(request, bodyTimeoutMs, unread(request)), yield* now)))
    })))
  })

const challenge = (request: HttpServerRequest.HttpServerRequest, error: string | null, description: string) =>
  HttpServerResponse.jsonUnsafe(
    { error: { type: "unauthorized", message: description } },
    {
      status: 401,
      headers: {
        "www-authenticate": `Bearer resource_metadata="${AiApps.OAuth.resourceMetadataUrl(issuerOf(request))}"${
          error === null ? "" : `, error="${error}", error_description="${description}"`
        }`
      }
    }
  )

/**
 * `/mcp` behind the challenge: no Authorization header answers 401 with where to authorize. A
 * credential presented is judged at the MCP door (mcp/Door.ts, through the dispatcher): one that
 * is not good answers `invalid` here, so an app refreshes.
 */
export const protectMcp = <E, R>(route: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const authorization = header(request, "authorization")
    if (authorization === null) return challenge(request, null, "A Bearer token is required: connect this app through OAuth.")
    // Another scheme (Basic, ...) presents a credential this endpoint never takes. A bare "Bearer"
    // presents none: it goes on, and the endpoint refuses its calls.
    if (!/^Bearer(\s+\S+)?\s*$/iu.test(authorization)) return challenge(request, "invalid_token", "The credential is not valid: send a Bearer token.")
    return yield* route
  })

/** A credential refused at the MCP door: 401 with `error="invalid_token"`, so an app refreshes it. */
export const invalidToken = (request: HttpServerRequest.HttpServerRequest, description: string) =>
  challenge(request, "invalid_token", description)

import { Context, Effect, Layer, Result, type Types } from "effect"
import { HttpRouter, HttpServerError, HttpServerRequest, HttpServerResponse } from "effect/http"
import { ApiError, Catalog, File, Limits, type Operation } from "@ledger/api"
import { Dispatcher, Ledger, type Outcome, ReadReplica } from "@ledger/engine"
import { SqlClient } from "effect/sql"
import * as ClientAddress from "./ClientAddress.ts"
import * as Docs from "./Docs.ts"
import * as Files from "./Files.ts"
import { readJsonBody } from "./JsonBody.ts"
import * as Mcp from "../mcp/Mcp.ts"
import * as McpDoor from "../mcp/Door.ts"
import * as McpSessions from "../mcp/Sessions.ts"
import * as Observability from "./Observability.ts"
import * as OpenApi from "./OpenApi.ts"
import * as WebConnector from "./WebConnector.ts"
import * as WebApp from "./WebApp.ts"
import * as OAuth from "./OAuth.ts"
import * as SessionCookie from "./SessionCookie.ts"
import * as SlowClients from "./SlowClients.ts"

const json = (status: number, body: unknown, headers: Readonly<Record<string, string>> = {}) =>
  HttpServerResponse.jsonUnsafe(body, { status, headers })

/** A body that did not arrive in time, or was refused unread, leaves its socket unusable: the answer closes it. */
const errorResponse = (error: ApiError.LedgerError) => json(error.status, error.toBody(), SlowClients.refusalHeaders(error))

/**
 * Refusals become the spec's error body; anything else is a real fault: logged in full, and the
 * caller gets a 500 that says nothing of the inside.
 */
const guard = <R>(effect: Effect.Effect<HttpServerResponse.HttpServerResponse, ApiError.LedgerError, R>) =>
  effect.pipe(
    Effect.catchTag("LedgerError", (error) => Effect.succeed(errorResponse(error))),
    Effect.catchCause((cause) =>
      Effect.as(
        Effect.logError("Unhandled failure", cause),
        json(500, ApiError.fail("internal_error", "Something went wrong on our side. It has been logged.").toBody())
      )
    )
  )

const header = (request: HttpServerRequest.HttpServerRequest, name: string): string | null => {
  const value = request.headers[name]
  return typeof value === "string" && value !== "" ? value : null
}

const bearer = (request: HttpServerRequest.HttpServerRequest): string | null => {
  const value = header(request, "authorization")
  if (value === null) return null
  const match = /^Bearer\s+(\S+)\s*$/i.exec(value)
  return match === null ? "" : match[1]!
}

const queryOf = (request: HttpServerRequest.HttpServerRequest): Record<string, unknown> => {
  const url = new URL(request.url, "http://localhost")
  const query: Record<string, unknown> = {}
  for (const [name, value] of url.searchParams) query[name] = value
  return query
}

/**
 * LEDGER_TRUST_PROXY=1: the server sits behind a reverse proxy that sets `X-Forwarded-For`, and a
 * request's client is that header's first hop. Off by default: a client could write the header
 * itself (docs/operations.md).
 */
export class TrustProxy extends Context.Reference<boolean>("@ledger/server/TrustProxy", { defaultValue: () => false }) {}

const headersOf = (request: HttpServerRequest.HttpServerRequest): Record<string, string> => {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(request.headers)) if (typeof value === "string") headers[name.toLowerCase()] = value
  return headers
}

/**
 * A POST to an operation that accepts more than the common body limit, whose body may be larger
 * than that limit (declared so, or of unknown length): its credential is checked before reading.
 */
const readsLargeBody = (operation: Operation.Any, request: HttpServerRequest.HttpServerRequest): boolean => {
  if (operation.method !== "POST" || operation.credential === "none") return false
  if ((operation.bodyBytesMax ?? Limits.requestBodyBytesMax) <= Limits.requestBodyBytesMax) return false
  const declared = header(request, "content-length")
  return declared === null || !(Number(declared) <= Limits.requestBodyBytesMax)
}

/**
 * A POST to an operation that takes a credential, sent with none or with a token no credential of
 * the operation's kind can be (by its form alone, reading nothing): refused before its body is
 * read, whatever its size (issue 41 item 3). A token of a credential's form is looked up once, by
 * the pipeline, after its body; large bodies are checked before (`readsLargeBody`).
 */
const bodyWithoutCredential = (operation: Operation.Any, credential: string | null, company: string | null): boolean =>
  operation.method === "POST" && operation.credential !== "none" && !Ledger.credentials.mayAuthenticate(operation.credential, credential, company)

const render = (outcome: Outcome) => json(outcome.status, outcome.body, outcome.headers)

const operationRoute = (
  operation: Operation.Any,
  dispatcher: Dispatcher["Service"],
  trustProxy: boolean,
  bodyTimeoutMs: number,
  gate: SlowClients.ReadGate
) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const params = yield* HttpRouter.params
    const session = SessionCookie.credentialOf(operation, bearer(request), {
      cookie: header(request, "cookie"),
      antiForgery: header(request, SessionCookie.antiForgeryHeader)
    })
    if (session.refusal !== null) return errorResponse(session.refusal)
    const query = queryOf(request)
    // A file is chosen by `format`, or by `Accept` when the query names none (ADR 0015).
    const file = operation.files === undefined ? null : File.choose(operation.files, query.format, header(request, "accept"))
    if (file?.inject != null) query.format = file.inject
    const asked = {
      operationId: operation.id,
      path: params,
      query,
      body: undefined,
      credential: session.credential,
      idempotencyKey: header(request, "idempotency-key"),
      agentModel: header(request, "x-agent-model"),
      agentRunId: header(request, "x-agent-run-id"),
      company: header(request, "x-ledger-company"),
      via: "http" as const,
      coerce: true,
      clientAddress: ClientAddress.of(request, trustProxy)
    }
    // Only a caller with a valid credential may make the server read a body larger than the
    // common limit (a statement import): the credential is checked from the headers first, and a
    // refusal closes the connection without reading on (issue 19 item 7).
    const admitted = readsLargeBody(operation, request) || bodyWithoutCredential(operation, session.credential, asked.company)
    if (admitted) {
      const refused = yield* dispatcher.admits(asked)
      if (refused !== null) return render({ ...refused, headers: { ...refused.headers, Connection: "close" } })
    }
    // A body that cannot be read is refused by the pipeline, after authentication, so that a
    // known credential's refusal is audited like any other. Until then, its read counts against its address.
    const unauthenticated = admitted ? undefined : { gate, address: asked.clientAddress }
    const read = operation.method === "POST"
      ? yield* Effect.result(readJsonBody(request, operation.bodyBytesMax ?? Limits.requestBodyBytesMax, bodyTimeoutMs, unauthenticated))
      : Result.succeed(undefined)
    // A body that did not arrive in time, or one past its address's reads, is answered at once, and its connection closed.
    if (Result.isFailure(read) && (read.failure.type === "request_timeout" || read.failure.type === "rate_limited")) return errorResponse(read.failure)
    const outcome = yield* dispatcher.execute({
      ...asked,
      body: Result.isSuccess(read) ? read.success?.value : undefined,
      unreadableBody: Result.isFailure(read) ? read.failure : undefined,
      raw: operation.rawBody && Result.isSuccess(read)
        ? { body: read.success?.text ?? "", headers: headersOf(request) }
        : undefined
    })
    const answered = SessionCookie.withCookie(operation, outcome, header(request, "host"))
    return file !== null && file.raw && file.format !== null && operation.files !== undefined
      ? Files.render(request, operation.files, file.format, answered) ?? render(answered)
      : render(answered)
  }).pipe(guard)

const mcpRoute = (dispatcher: Dispatcher["Service"], trustProxy: boolean, bodyTimeoutMs: number, gate: SlowClients.ReadGate, sessions: McpSessions.Store) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const unauthenticated = { gate, address: ClientAddress.of(request, trustProxy) }
    const body = (yield* readJsonBody(request, Limits.requestBodyBytesMax, bodyTimeoutMs, unauthenticated)).value
    const headers = new Headers()
    for (const [name, value] of Object.entries(request.headers)) if (typeof value === "string") headers.set(name, value)
    const acceptsEventStream = (headers.get("accept") ?? "").includes("text/event-stream")
    // The SDK insists on both; JSON-only clients may send just one.
    if (!(headers.get("accept") ?? "").includes("text/event-stream")) {
      headers.set("accept", "application/json, text/event-stream")
    }
    headers.set("content-type", "application/json")
    const webRequest = new Request(new URL("/mcp", "http://localhost"), {
      method: "POST",
      headers,
      body: JSON.stringify(body ?? null)
    })
    const input: Mcp.McpRequest = {
      request: webRequest,
      parsedBody: body,
      dispatcher,
      headers: {
        credential: bearer(request),
        agentModel: header(request, "x-agent-model"),
        agentRunId: header(request, "x-agent-run-id"),
        company: header(request, "x-ledger-company"),
        clientAddress: ClientAddress.of(request, trustProxy),
        toolsets: new URL(request.url, "http://localhost").searchParams.get("toolsets") ?? header(request, "x-ledger-toolsets"),
        outputSchemas: new URL(request.url, "http://localhost").searchParams.get("output_schemas") ?? header(request, "x-ledger-output-schemas"),
        sessionId: header(request, "mcp-session-id"),
        acceptsEventStream
      },
      sessions
    }
    const door = McpDoor.refusal(input, body)
    const refused = door === null ? null : yield* door
    if (refused !== null) {
      const message = (refused.body as { error?: { message?: unknown } } | null)?.error?.message
      return refused.status === 401 ? OAuth.invalidToken(request, typeof message === "string" ? message : "The credential is not valid.") : render(refused)
    }
    return HttpServerResponse.fromWeb(yield* Mcp.handle(input))
  }).pipe(guard)

const mcpMethodNotAllowed = json(
  405,
  ApiError.fail("method_not_allowed", "The MCP endpoint is stateless: POST only.").toBody(),
  { Allow: "POST" }
)

const noSuchRoute = () => json(404, ApiError.fail("not_found", "No such route.").toBody())

/**
 * Requests the router cannot even place (a path with broken percent-encoding, a segment past the
 * router's length limit) get the same JSON 404 as any unknown route, not an empty body.
 */
const unroutable = (
  effect: Effect.Effect<HttpServerResponse.HttpServerResponse, Types.unhandled>
): Effect.Effect<HttpServerResponse.HttpServerResponse, Types.unhandled> =>
  Effect.catchIf(
    effect,
    (error: unknown) => HttpServerError.isHttpServerError(error) && error.reason._tag === "RouteNotFound",
    () => Effect.succeed(noSuchRoute())
  ) as Effect.Effect<HttpServerResponse.HttpServerResponse, Types.unhandled>

/**
 * Every route: the catalog's operations, OpenAPI, MCP, and a JSON 404 for the rest. Handlers
 * close over the one `Dispatcher`, so HTTP and MCP share it and its pipeline.
 */
export const routes: Layer.Layer<never, never, HttpRouter.HttpRouter | Dispatcher | SqlClient.SqlClient> = HttpRouter.use((router) =>
  Effect.gen(function*() {
    const dispatcher = yield* Dispatcher
    const trustProxy = yield* TrustProxy
    const bodyTimeoutMs = yield* SlowClients.BodyTimeout
    const gate = SlowClients.gate(yield* SlowClients.BodyReadsPerAddress)
    const sql = yield* SqlClient.SqlClient
    yield* router.addGlobalMiddleware(unroutable)
    yield* router.addGlobalMiddleware(Observability.observe)
    // For operators, not in the catalog: readiness and Prometheus metrics (docs/operations.md).
    yield* router.add("GET", "/ready", Effect.provideService(Observability.ready, SqlClient.SqlClient, sql))
    const readReplica = yield* ReadReplica.ReadReplica
    yield* router.add("GET", "/metrics", Observability.metrics.pipe(
      Effect.provideService(SqlClient.SqlClient, sql),
      Effect.provideService(ReadReplica.ReadReplica, readReplica)
    ))
    yield* router.add("GET", "/openapi.json", Effect.sync(() => json(200, OpenApi.document())))
    yield* router.add("GET", "/docs", Docs.docsPage)
    yield* router.add("GET", "/docs/scalar.js", Docs.scalarJs)
    const mcpSessions = yield* Effect.sync(() => McpSessions.make()) // toolsets per MCP session, per process (ADR 2200)
    yield* router.add("POST", "/mcp", OAuth.protectMcp(mcpRoute(dispatcher, trustProxy, bodyTimeoutMs, gate, mcpSessions)))
    yield* router.add("GET", "/mcp", Effect.succeed(mcpMethodNotAllowed))
    yield* router.add("DELETE", "/mcp", Effect.succeed(mcpMethodNotAllowed))
    for (const operation of Catalog.operations as ReadonlyArray<Operation.Any>) {
      if (operation.id === "getOpenApi" || operation.id === "postMcp") continue
      yield* router.add(
        operation.method,
        operation.path.replace(/\{(\w+)\}/g, ":$1") as HttpRouter.PathInput,
        operationRoute(operation, dispatcher, trustProxy, bodyTimeoutMs, gate)
      )
    }
    yield* WebConnector.register(router, trustProxy, bodyTimeoutMs, gate)
    yield* WebApp.register(router)
    yield* OAuth.register(router, (request) => ClientAddress.of(request, trustProxy), bodyTimeoutMs, gate)
    yield* router.add("*", "/*", Effect.sync(noSuchRoute))
  })
)

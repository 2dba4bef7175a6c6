import { randomBytes } from "node:crypto"
import { ByteSize, Clock, Effect } from "effect"
import { HttpIncomingMessage, type HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { SqlClient } from "effect/sql"
import { ApiError } from "@ledger/api"
import { BookMigrations } from "@ledger/engine"
import * as ClientAddress from "./ClientAddress.ts"
import * as SlowClients from "./SlowClients.ts"

/**
 * The desktop edition's Web Connector endpoint (spec 4.16: "a dedicated endpoint on the web-app
 * origin"; ADR 1610): SOAP 1.1 over HTTP POST at `/qbwc`, the path the connector file names. The
 * protocol is the engine's (migrations/WebConnector.ts); this reads the envelope within its size
 * limit, hands it over with the time, a fresh ticket and the client's address (its wrong sign-ins
 * are limited per address, ADR 2110), and answers `text/xml`. A GET answers a
 * one-line description, as the connector's own test of the URL expects a 200.
 */

export const path = "/qbwc"
/** A qbXML response page of 100 transactions with lines stays well under this. */
export const bodyBytesMax = 8 * 1024 * 1024

const xml = (status: number, body: string) =>
  HttpServerResponse.text(body, { status, contentType: "text/xml; charset=utf-8" })

/** A body over the limit is the caller's doing: 413 before any parsing, and a warning, not an error. */
const tooLarge = Effect.as(
  Effect.logWarning(`Web Connector call refused: body over ${bodyBytesMax} bytes`),
  xml(413, BookMigrations.WebConnector.fault(`The body exceeds ${bodyBytesMax} bytes.`))
)

/** A body that did not arrive within its deadline (SlowClients.ts): 408, and the connection closed. */
const timedOut = HttpServerResponse.text(BookMigrations.WebConnector.fault("The request body did not arrive in time."), {
  status: 408,
  contentType: "text/xml; charset=utf-8",
  headers: { connection: "close" }
})

/** One past its address's reads at once (SlowClients.ts `ReadGate`): 429 with Retry-After, the connection closed. */
const tooManyReads = (error: ApiError.LedgerError) =>
  HttpServerResponse.text(BookMigrations.WebConnector.fault(error.message), {
    status: 429,
    contentType: "text/xml; charset=utf-8",
    headers: SlowClients.refusalHeaders(error)
  })

const post = (sql: SqlClient.SqlClient, trustProxy: boolean, bodyTimeoutMs: number, gate: SlowClients.ReadGate) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    if (Number(request.headers["content-length"] ?? "0") > bodyBytesMax) return yield* tooLarge
    // A body without a Content-Length (chunked) is read only up to the limit. Its sign-in is inside
    // it, so the read counts against its address.
    const read = yield* Effect.result(SlowClients.readBodyWithin(request, bodyBytesMax, bodyTimeoutMs,
      request.text.pipe(Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(bodyBytesMax))),
      { gate, address: ClientAddress.of(request, trustProxy) }))
    if (read._tag === "Failure") {
      const failure: unknown = read.failure
      if (failure instanceof ApiError.LedgerError && failure.type === "rate_limited") return tooManyReads(failure)
      return failure instanceof ApiError.LedgerError && failure.type === "request_timeout" ? timedOut : yield* tooLarge
    }
    const text = read.success
    const now = new Date(yield* Clock.currentTimeMillis).toISOString()
    const ticket = randomBytes(24).toString("base64url")
    const answer = yield* BookMigrations.WebConnector.handle(text, { now, ticket, client: ClientAddress.of(request, trustProxy) }).pipe(Effect.provideService(SqlClient.SqlClient, sql))
    return xml(answer.status, answer.body)
  }).pipe(
    Effect.catchCause((cause) =>
      Effect.as(Effect.logError("Web Connector call failed", cause), xml(500, BookMigrations.WebConnector.fault("The call could not be handled.", "Server"))))
  )

/** Adds the endpoint to the app's router (Http.ts `routes`); `trustProxy` as for the API's routes. */
export const register = (
  router: HttpRouter.HttpRouter,
  trustProxy: boolean,
  bodyTimeoutMs = SlowClients.defaults.bodyTimeoutMs!,
  gate = SlowClients.gate(SlowClients.defaults.bodyReadsPerAddress!)
) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* router.add("POST", path, post(sql, trustProxy, bodyTimeoutMs, gate))
    yield* router.add("GET", path, Effect.succeed(HttpServerResponse.text("Ledger Web Connector endpoint (SOAP 1.1, POST).")))
  })

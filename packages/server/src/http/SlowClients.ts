import { createServer as createNodeServer, type Server } from "node:http"
import { Context, Duration, Effect, Fiber } from "effect"
import type { HttpServerRequest } from "effect/http"
import { ApiError } from "@ledger/api"

/**
 * Bounds on how long a client may take to send its request (issue 19 item 10). A client that
 * trickles its headers or body a byte at a time holds a socket and a parser; without these bounds a
 * few hundred of them starve everyone else. Node answers 408 and closes the socket when a bound
 * passes; the checks run every `checkIntervalMs`.
 *
 * - headers: 10 s from the connection (or the previous request on a kept-alive socket);
 * - the whole request, body included: 120 s, enough for the largest body (a 64 MB statement
 *   import) at about 0.5 MB/s, far too long for nothing to happen;
 * - an idle kept-alive socket: 5 s;
 * - a body, once the route starts reading it: 10 s plus a second per 500 KB it declares (or may be,
 *   when it declares no length), answered 408 by the route (http/Http.ts `readBodyWithin`; issue 41
 *   item 3). A small body trickled a byte a second no longer holds its socket for the whole request
 *   bound.
 */
export interface Limits {
  readonly headersTimeoutMs: number
  readonly requestTimeoutMs: number
  readonly keepAliveTimeoutMs: number
  readonly checkIntervalMs: number
  /** The body's own time, before its size's allowance (`bodyBytesPerSecond`); the default when absent. */
  readonly bodyTimeoutMs?: number
}

export const defaults: Limits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 120_000,
  keepAliveTimeoutMs: 5_000,
  checkIntervalMs: 1_000,
  bodyTimeoutMs: 10_000
}

/** The slowest a body may arrive past its own time: a 64 MB statement import gets about two minutes more. */
export const bodyBytesPerSecond = 500_000

/** The time a body of at most `bytes` has to arrive. */
export const bodyDeadlineMs = (bodyTimeoutMs: number, bytes: number): number =>
  bodyTimeoutMs + Math.ceil((Math.max(0, bytes) / bodyBytesPerSecond) * 1_000)

/** A setting in whole milliseconds within `[min, max]`; `fallback` when unset. Refused in one line before start. */
export const milliseconds = (
  environment: Record<string, string | undefined>,
  name: string,
  fallback: number,
  range: { readonly min: number; readonly max: number } = { min: 100, max: 3_600_000 }
): number => {
  const text = environment[name]
  if (text === undefined || text === "") return fallback
  const value = Number(text)
  if (!Number.isInteger(value) || value < range.min || value > range.max) {
    throw new Error(`${name} must be whole milliseconds between ${range.min} and ${range.max}, got ${text}`)
  }
  return value
}

/** LEDGER_HEADERS_TIMEOUT_MS, LEDGER_REQUEST_TIMEOUT_MS, LEDGER_KEEP_ALIVE_TIMEOUT_MS, LEDGER_BODY_TIMEOUT_MS (docs/operations.md). */
export const fromEnvironment = (environment: Record<string, string | undefined>): Limits => {
  const headersTimeoutMs = milliseconds(environment, "LEDGER_HEADERS_TIMEOUT_MS", defaults.headersTimeoutMs)
  const requestTimeoutMs = milliseconds(environment, "LEDGER_REQUEST_TIMEOUT_MS", defaults.requestTimeoutMs)
  // Node requires the whole request's bound to be at least the headers' bound.
  if (requestTimeoutMs < headersTimeoutMs) throw new Error("LEDGER_REQUEST_TIMEOUT_MS must be at least LEDGER_HEADERS_TIMEOUT_MS")
  return {
    headersTimeoutMs,
    requestTimeoutMs,
    keepAliveTimeoutMs: milliseconds(environment, "LEDGER_KEEP_ALIVE_TIMEOUT_MS", defaults.keepAliveTimeoutMs),
    bodyTimeoutMs: milliseconds(environment, "LEDGER_BODY_TIMEOUT_MS", defaults.bodyTimeoutMs!),
    checkIntervalMs: Math.min(defaults.checkIntervalMs, Math.max(100, Math.floor(headersTimeoutMs / 4)))
  }
}

/** A Node HTTP server that enforces `limits`. */
export const createServer = (limits: Limits): Server => {
  const server = createNodeServer({
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: limits.checkIntervalMs
  })
  return server
}

/**
 * How long a body has to arrive once its route starts reading it, before its size's allowance
 * (LEDGER_BODY_TIMEOUT_MS). The whole request's bound (120 s) is for the largest
 * bodies; a small body trickled a byte a second is cut off at this one (issue 41 item 3).
 */
export class BodyTimeout extends Context.Reference<number>("@ledger/server/BodyTimeout", {
  defaultValue: () => defaults.bodyTimeoutMs!
}) {}

/**
 * `read` (a body's text) within its deadline: `BodyTimeout` plus the time of the bytes it declares
 * (or may be, at most `bytesMax`, when it declares no length) at `bodyBytesPerSecond`.
 * Past it, 408 `request_timeout`, and the answer closes the connection.
 */
export const readBodyWithin = <A, E, R>(
  request: HttpServerRequest.HttpServerRequest,
  bytesMax: number,
  bodyTimeoutMs: number,
  read: Effect.Effect<A, E, R>
): Effect.Effect<A, E | ApiError.LedgerError, R> => {
  const length = request.headers["content-length"]
  const declared = typeof length === "string" && length !== "" ? length : null
  const bytes = declared !== null && Number.isFinite(Number(declared)) ? Math.min(Number(declared), bytesMax) : bytesMax
  const deadlineMs = bodyDeadlineMs(bodyTimeoutMs, bytes)
  // The read runs on a fiber of its own, and only the wait for it is cut off: interrupting the
  // read would destroy the request's stream, and with it the socket the 408 is to be written to.
  // Once the 408 closes the connection, the read ends with the stream.
  return Effect.flatMap(Effect.forkDetach(read), (reading) =>
    Effect.timeoutOrElse(Fiber.join(reading), {
      duration: Duration.millis(deadlineMs),
      orElse: () =>
        Effect.fail(ApiError.fail("request_timeout", `The request body did not arrive within ${Math.ceil(deadlineMs / 1_000)} seconds.`, {
          timeout_ms: deadlineMs
        }))
    }))
}

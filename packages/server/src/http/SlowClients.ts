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
  /** Bodies one address may have read at once before their credential is known (`ReadGate`); the default when absent. */
  readonly bodyReadsPerAddress?: number
}

export const defaults: Limits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 120_000,
  keepAliveTimeoutMs: 5_000,
  checkIntervalMs: 1_000,
  bodyTimeoutMs: 10_000,
  bodyReadsPerAddress: 32
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

/** A whole number within `[1, 100,000]`; `fallback` when unset. Refused in one line before start. */
const count = (environment: Record<string, string | undefined>, name: string, fallback: number): number => {
  const text = environment[name]
  if (text === undefined || text === "") return fallback
  const value = Number(text)
  if (!Number.isInteger(value) || value < 1 || value > 100_000) throw new Error(`${name} must be a whole number between 1 and 100000, got ${text}`)
  return value
}

/**
 * LEDGER_HEADERS_TIMEOUT_MS, LEDGER_REQUEST_TIMEOUT_MS, LEDGER_KEEP_ALIVE_TIMEOUT_MS, LEDGER_BODY_TIMEOUT_MS,
 * LEDGER_BODY_READS_PER_ADDRESS (docs/operations.md).
 */
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
    bodyReadsPerAddress: count(environment, "LEDGER_BODY_READS_PER_ADDRESS", defaults.bodyReadsPerAddress!),
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

/** LEDGER_BODY_READS_PER_ADDRESS: the routes' `ReadGate` bound (ADR 2330). */
export class BodyReadsPerAddress extends Context.Reference<number>("@ledger/server/BodyReadsPerAddress", {
  defaultValue: () => defaults.bodyReadsPerAddress!
}) {}

/**
 * The bodies being read, per client address, before their credential is known (issue 41 item 3,
 * ADR 2330): a body within the common limit is read before its token is looked up (ADR 2301),
 * so without a bound one address could hold any number of sockets, each trickling a body within
 * its deadline. One gate per process (the routes' layer makes it), like the sockets it counts.
 */
export interface ReadGate {
  readonly perAddress: number
  readonly reading: Map<string, number>
}

export const gate = (perAddress: number): ReadGate => ({ perAddress, reading: new Map() })

/** A read that has not been authenticated yet: the gate it counts against and its client's address. */
export interface Unauthenticated {
  readonly gate: ReadGate
  /** Null when neither the socket nor a trusted proxy tells (an in-process handler): not bounded. */
  readonly address: string | null
}

/** A slot frees as soon as any read from the address ends; a second is a fair wait. */
const retryAfterSeconds = 1

const tooManyReads = (perAddress: number) =>
  ApiError.fail("rate_limited", `Too many request bodies being read from this address at once: at most ${perAddress}. Try again in ${retryAfterSeconds} second.`, {
    reads_per_address: perAddress,
    retry_after_seconds: retryAfterSeconds
  })

/**
 * The headers of a refusal made while reading: the body was not (wholly) read, so the connection
 * cannot carry another request and is closed; past the gate, when to try again.
 */
export const refusalHeaders = (error: ApiError.LedgerError): Record<string, string> => {
  if (error.type === "request_timeout") return { Connection: "close" }
  const retry = error.type === "rate_limited" ? error.details?.retry_after_seconds : undefined
  return typeof retry === "number" ? { Connection: "close", "Retry-After": String(retry) } : {}
}

/** `read` counted against its address while its wait lasts; past the bound, `rate_limited` before a byte is read. */
const gated = <A, E, R>(unauthenticated: Unauthenticated | undefined, read: Effect.Effect<A, E, R>): Effect.Effect<A, E | ApiError.LedgerError, R> => {
  if (unauthenticated === undefined || unauthenticated.address === null) return read
  const { gate: { perAddress, reading }, address } = unauthenticated
  const leave = Effect.sync(() => {
    const left = (reading.get(address) ?? 1) - 1
    if (left <= 0) reading.delete(address)
    else reading.set(address, left)
  })
  return Effect.acquireUseRelease(
    Effect.sync(() => {
      const now = reading.get(address) ?? 0
      if (now >= perAddress) return false
      reading.set(address, now + 1)
      return true
    }),
    (entered): Effect.Effect<A, E | ApiError.LedgerError, R> => entered ? read : Effect.fail(tooManyReads(perAddress)),
    (entered) => entered ? leave : Effect.void
  )
}

/**
 * `read` (a body's text) within its deadline: `BodyTimeout` plus the time of the bytes it declares
 * (or may be, at most `bytesMax`, when it declares no length) at `bodyBytesPerSecond`.
 * Past it, 408 `request_timeout`, and the answer closes the connection. A read before the credential
 * is known (`unauthenticated`) counts against its address's `ReadGate`.
 */
export const readBodyWithin = <A, E, R>(
  request: HttpServerRequest.HttpServerRequest,
  bytesMax: number,
  bodyTimeoutMs: number,
  read: Effect.Effect<A, E, R>,
  unauthenticated?: Unauthenticated
): Effect.Effect<A, E | ApiError.LedgerError, R> => {
  const length = request.headers["content-length"]
  const declared = typeof length === "string" && length !== "" ? length : null
  const bytes = declared !== null && Number.isFinite(Number(declared)) ? Math.min(Number(declared), bytesMax) : bytesMax
  const deadlineMs = bodyDeadlineMs(bodyTimeoutMs, bytes)
  // The read runs on a fiber of its own, and only the wait for it is cut off: interrupting the
  // read would destroy the request's stream, and with it the socket the 408 is to be written to.
  // Once the 408 closes the connection, the read ends with the stream.
  // The gate's slot is held for the wait: past the deadline the 408 closes the socket, so the read ends too.
  return gated(unauthenticated, Effect.flatMap(Effect.forkDetach(read), (reading) =>
    Effect.timeoutOrElse(Fiber.join(reading), {
      duration: Duration.millis(deadlineMs),
      orElse: () =>
        Effect.fail(ApiError.fail("request_timeout", `The request body did not arrive within ${Math.ceil(deadlineMs / 1_000)} seconds.`, {
          timeout_ms: deadlineMs
        }))
    })))
}

import { createServer as createNodeServer, type Server } from "node:http"

/**
 * Bounds on how long a client may take to send its request (issue 19 item 10). A client that
 * trickles its headers or body a byte at a time holds a socket and a parser; without these bounds a
 * few hundred of them starve everyone else. Node answers 408 and closes the socket when a bound
 * passes; the checks run every `checkIntervalMs`.
 *
 * - headers: 10 s from the connection (or the previous request on a kept-alive socket);
 * - the whole request, body included: 120 s, enough for the largest body (a 64 MB statement
 *   import) at about 0.5 MB/s, far too long for nothing to happen;
 * - an idle kept-alive socket: 5 s.
 */
export interface Limits {
  readonly headersTimeoutMs: number
  readonly requestTimeoutMs: number
  readonly keepAliveTimeoutMs: number
  readonly checkIntervalMs: number
}

export const defaults: Limits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 120_000,
  keepAliveTimeoutMs: 5_000,
  checkIntervalMs: 1_000
}

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

/** LEDGER_HEADERS_TIMEOUT_MS, LEDGER_REQUEST_TIMEOUT_MS, LEDGER_KEEP_ALIVE_TIMEOUT_MS (docs/operations.md). */
export const fromEnvironment = (environment: Record<string, string | undefined>): Limits => {
  const headersTimeoutMs = milliseconds(environment, "LEDGER_HEADERS_TIMEOUT_MS", defaults.headersTimeoutMs)
  const requestTimeoutMs = milliseconds(environment, "LEDGER_REQUEST_TIMEOUT_MS", defaults.requestTimeoutMs)
  // Node requires the whole request's bound to be at least the headers' bound.
  if (requestTimeoutMs < headersTimeoutMs) throw new Error("LEDGER_REQUEST_TIMEOUT_MS must be at least LEDGER_HEADERS_TIMEOUT_MS")
  return {
    headersTimeoutMs,
    requestTimeoutMs,
    keepAliveTimeoutMs: milliseconds(environment, "LEDGER_KEEP_ALIVE_TIMEOUT_MS", defaults.keepAliveTimeoutMs),
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

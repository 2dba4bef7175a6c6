import type { Server } from "node:http"
import { milliseconds } from "./SlowClients.ts"

/**
 * How long `ledger serve` waits, once asked to stop (SIGTERM or SIGINT), for open connections to
 * finish before it closes them (docs/operations.md, Stopping). Without a bound a socket that
 * connected but never sent a whole request holds the stop for the HTTP platform's 20 s default:
 * Node's `server.close()` also stops the headers timer that would have ended it.
 */
export const defaultTimeoutMs = 5_000

/** LEDGER_SHUTDOWN_TIMEOUT_MS: whole milliseconds, 0 (close at once) to 600000. */
export const fromEnvironment = (environment: Record<string, string | undefined>): number =>
  milliseconds(environment, "LEDGER_SHUTDOWN_TIMEOUT_MS", defaultTimeoutMs, { min: 0, max: 600_000 })

/**
 * Makes `server.close()` end every remaining connection once `timeoutMs` has passed: requests in
 * flight get that long to be answered, a silent socket no longer holds the stop.
 */
export const bounded = (server: Server, timeoutMs: number): Server => {
  const close = server.close.bind(server)
  server.close = (callback?: (error?: Error) => void) => {
    const timer = setTimeout(() => server.closeAllConnections(), timeoutMs)
    timer.unref()
    return close((error) => {
      clearTimeout(timer)
      callback?.(error)
    })
  }
  return server
}

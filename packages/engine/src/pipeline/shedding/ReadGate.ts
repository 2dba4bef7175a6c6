import { Context, Deferred, Duration, Effect } from "effect"
import { ApiError } from "@ledger/api"

/**
 * Admission control for reads (issue 43 item 3, ADR 2421): at most `concurrent` reads run at once
 * in this process, at most `queued` more wait for one of them to finish, and none waits longer than
 * `queueWaitMs`. Past that a read is answered at once with 503 `service_unavailable` and
 * `Retry-After`, before any work: offered more reads than it can serve, the process keeps serving
 * what it can at the latency it can, instead of growing a queue until every answer is late (at
 * 2,000 balance reads a second, p99 was 4.8 s with errors, issue 43). Writes never pass through
 * it: a flood of reads leaves database connections and CPU for them.
 *
 * Per process: each process of a deployment has its own gate (docs/operations.md).
 */
export interface Limits {
  /** Reads running at once. */
  readonly concurrent: number
  /** Reads waiting for a turn; past it, refused at once. */
  readonly queued: number
  /** How long a read may wait for its turn before it is refused. */
  readonly queueWaitMs: number
}

/** `ledger serve`'s: enough reads at once to keep a pool of 20 connections busy without taking all of it from writes. */
export const defaults: Limits = { concurrent: 16, queued: 256, queueWaitMs: 1_000 }

/**
 * An embedded engine's unless told otherwise: no bound. Its caller is one program that bounds its
 * own concurrency, and has no client to send a Retry-After to.
 */
export const unbounded: Limits = { concurrent: Number.POSITIVE_INFINITY, queued: 0, queueWaitMs: 0 }

export class ReadLimits extends Context.Service<ReadLimits, Limits>()("@ledger/engine/ReadLimits") {}

/** Seconds a refused reader is told to wait: one queue wait, rounded up. */
const retryAfterSeconds = (limits: Limits) => Math.max(1, Math.ceil(limits.queueWaitMs / 1_000))

/** The refusal: the spec's error body with the type the SDK retries (ApiError's 503), and its Retry-After. */
export const overloaded = (limits: Limits): { readonly error: ApiError.LedgerError; readonly headers: Record<string, string> } => {
  const seconds = retryAfterSeconds(limits)
  return {
    error: ApiError.fail("service_unavailable", `The server is serving as many reads as it can; retry in ${seconds} second${seconds === 1 ? "" : "s"}.`, {
      reason: "overloaded",
      retry_after_seconds: seconds
    }),
    headers: { "Retry-After": String(seconds) }
  }
}

/**
 * A gate: `admit(read, refused)` runs the read when there is room, else answers `refused()` (the
 * pipeline's outcome of `overloaded`). A turn freed
 * is handed straight to the longest waiting read (first come, first served), so no read waits
 * behind ones that arrived after it.
 */
export const make = (limits: Limits) => {
  let running = 0
  const waiting: Array<Deferred.Deferred<void>> = []

  const release = Effect.sync(() => {
    const next = waiting.shift()
    // The turn passes to the next reader (running stays the same), or is given back.
    if (next === undefined) running--
    else Deferred.doneUnsafe(next, Effect.void)
  })

  /** Waits for a turn: true once the turn is this reader's, false past the wait or the queue. */
  const turn: Effect.Effect<boolean> = Effect.suspend(() => {
    if (running < limits.concurrent) {
      running++
      return Effect.succeed(true)
    }
    if (waiting.length >= limits.queued) return Effect.succeed(false)
    const ticket = Deferred.makeUnsafe<void>()
    waiting.push(ticket)
    // Whether the turn came is what the queue says, not who won the race with the timeout: a ticket
    // no longer queued was handed a turn, and must use it or give it back.
    const handed = () => !waiting.includes(ticket)
    const leave = () => waiting.splice(waiting.indexOf(ticket), 1)
    return Deferred.await(ticket).pipe(
      Effect.timeoutOption(Duration.millis(limits.queueWaitMs)),
      Effect.map(() => {
        if (handed()) return true
        leave()
        return false
      }),
      Effect.onInterrupt(() => (handed() ? release : Effect.sync(() => void leave())))
    )
  })

  const admit = <A, E, R>(read: Effect.Effect<A, E, R>, refused: () => A): Effect.Effect<A, E, R> =>
    Effect.uninterruptibleMask((restore) =>
      Effect.flatMap(restore(turn), (admitted) => admitted ? Effect.ensuring(restore(read), release) : Effect.sync(refused)))

  return { admit, state: () => ({ running, waiting: waiting.length }) }
}

export type Gate = ReturnType<typeof make>

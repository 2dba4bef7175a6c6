import { Context, Data, Effect } from "effect"
import { ApiError } from "@ledger/api"

/**
 * Heavy work as a port (issue 41 item 1, ADR 2320): parsing a statement file, a receipt's PDF, a
 * qbXML page or a mail, and rendering a PDF, are pure functions of plain data (bytes or text in,
 * plain data out) that can hold a thread for seconds. The engine asks `HeavyWork` to run them; a
 * server provides a pool of worker threads with a bound on each job's time and memory
 * (server/offload/Pool.ts), so a request waits for its result while the event loop serves others.
 *
 * The default runs the job on the calling thread, with no bound: the engine stays runnable without
 * Node (an embedder, the testkit), as it was before the port. A job returns its own failures as
 * data (a structured clone carries no class), so the only failures here are the runner's.
 */

/** A job: a name the worker finds it by, and the function (the same code runs inline and in a worker). */
export interface Job<in I, out O> {
  readonly name: string
  readonly run: (input: I) => O | Promise<O>
  /**
   * The buffers of an input the caller gives up (never reads again), moved to a worker rather than
   * copied: a 25 MB mail copied on the request thread held it for tens of milliseconds (ADR 2321).
   * A moved buffer is emptied on the caller's side; the inline runner moves nothing.
   */
  readonly transfer?: ((input: I) => ReadonlyArray<ArrayBuffer>) | undefined
}

export const job = <I, O>(
  name: string,
  run: (input: I) => O | Promise<O>,
  options: { readonly transfer?: (input: I) => ReadonlyArray<ArrayBuffer> } = {}
): Job<I, O> => ({ name, run, transfer: options.transfer })

/** Bytes that alone own their buffer (not a view into a shared or pooled one) and are worth moving: [its buffer], else []. */
export const ownBuffer = (bytes: unknown): ReadonlyArray<ArrayBuffer> =>
  bytes instanceof Uint8Array && bytes.buffer instanceof ArrayBuffer && bytes.byteOffset === 0 &&
    bytes.byteLength === bytes.buffer.byteLength && bytes.byteLength >= movedBytesMin
    ? [bytes.buffer]
    : []

/** Below this, copying costs less than it matters; Node's pooled small Buffers are all under it. */
export const movedBytesMin = 64 * 1024

/**
 * The runner refused or lost a job: past its time (`time`), past its memory (`memory`, the worker
 * was ended by V8's heap limit), or no worker could take it (`unavailable`: the pool is closed or
 * its queue is full). The worker is replaced in each case; the caller maps this to its refusal.
 */
export class HeavyWorkRefused extends Data.TaggedError("HeavyWorkRefused")<{
  readonly job: string
  readonly reason: "time" | "memory" | "unavailable"
  readonly message: string
}> {}

export interface Runner {
  /** Where jobs run, for logs and the ADR's figures: `inline` or `pool`. */
  readonly kind: "inline" | "pool"
  readonly run: <I, O>(job: Job<I, O>, input: I) => Effect.Effect<O, HeavyWorkRefused>
}

const isPromise = (value: unknown): value is Promise<unknown> =>
  typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function"

/** On the calling thread, as a plain call: what the engine did before the port. */
export const inline: Runner = {
  kind: "inline",
  run: <I, O>(work: Job<I, O>, input: I) =>
    Effect.suspend(() => {
      const result = work.run(input)
      return isPromise(result) ? Effect.promise(() => result as Promise<O>) : Effect.succeed(result as O)
    })
}

export class HeavyWork extends Context.Reference<Runner>("@ledger/engine/HeavyWork", { defaultValue: () => inline }) {}

/** Runs a job with the runner in context. */
export const run = <I, O>(work: Job<I, O>, input: I): Effect.Effect<O, HeavyWorkRefused> =>
  Effect.gen(function*() {
    const runner = yield* HeavyWork
    return yield* runner.run(work, input)
  })

/**
 * A refusal as the API's error body: a job past its time or memory is the input's fault (the
 * caller names its 422, e.g. `statement_unreadable`); no worker to take it is the server's (503).
 */
export const refusal = (
  refused: HeavyWorkRefused,
  tooHeavy: (reason: string) => ApiError.LedgerError
): ApiError.LedgerError =>
  refused.reason === "unavailable"
    ? ApiError.fail("service_unavailable", "The server is too busy to read this file now: retry shortly.", { job: refused.job })
    : tooHeavy(refused.reason === "time" ? "the file took too long to read" : "the file took too much memory to read")

/** A document Ledger renders from its own bounded data: past the job's bounds is the server's trouble, a 503. */
export const renderRefusal = (refused: HeavyWorkRefused): ApiError.LedgerError =>
  ApiError.fail("service_unavailable", "The document cannot be rendered now: retry shortly.", { job: refused.job, reason: refused.reason })

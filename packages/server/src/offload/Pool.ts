import { existsSync } from "node:fs"
import { availableParallelism } from "node:os"
import { fileURLToPath } from "node:url"
import { MessageChannel, type MessagePort } from "node:worker_threads"
import { Data, Duration, Effect, Layer, type Scope } from "effect"
import { Piscina } from "piscina"
import { HeavyWork } from "@ledger/engine"
import { names, readyTask } from "./PoolWorker.ts"

/**
 * The server's HeavyWork: a pool of worker threads (piscina) that parses mail, PDFs, statement
 * files and qbXML pages and renders PDFs, so the request thread only posts the job and waits for
 * its answer while it serves everyone else (issue 41 item 1, ADR 2320). Each job is bounded:
 *
 * - time: past `jobTimeoutMs` the job is aborted, its worker terminated and a new one started;
 *   the caller gets `HeavyWorkRefused` with reason `time`;
 * - memory: each worker's V8 heap is capped (`resourceLimits`); a job past it ends its worker
 *   (ERR_WORKER_OUT_OF_MEMORY), the caller gets reason `memory`, and the pool starts another;
 * - queue: at most `queueMax` jobs wait for a worker; past it, reason `unavailable` (503).
 *
 * Workers run at a lower CPU priority (nice +10, where the platform allows), so on a small machine
 * the request thread is scheduled first and `/health` stays quick while a 25 MB mail is parsed.
 * `threads: 0` keeps every job on the request thread (the engine's inline default).
 */

export interface Settings {
  /** Worker threads; 0: no pool, jobs run inline. */
  readonly threads: number
  readonly jobTimeoutMs: number
  /** The V8 old-generation heap of each worker, in MiB. */
  readonly jobMemoryMb: number
  readonly queueMax: number
}

export const defaults: Settings = {
  threads: Math.max(1, Math.min(4, availableParallelism() - 1)),
  jobTimeoutMs: 30_000,
  jobMemoryMb: 512,
  queueMax: 256
}

const whole = (environment: Record<string, string | undefined>, name: string, fallback: number, minimum: number): number => {
  const text = environment[name]
  if (text === undefined || text.trim() === "") return fallback
  const value = Number(text)
  if (!Number.isInteger(value) || value < minimum) throw new Error(`${name} must be a whole number from ${minimum}, got ${JSON.stringify(text)}`)
  return value
}

/** LEDGER_WORKER_THREADS, LEDGER_WORKER_JOB_TIMEOUT_MS, LEDGER_WORKER_JOB_MEMORY_MB, LEDGER_WORKER_QUEUE_MAX (docs/operations.md). */
export const fromEnvironment = (environment: Record<string, string | undefined>): Settings => ({
  threads: whole(environment, "LEDGER_WORKER_THREADS", defaults.threads, 0),
  jobTimeoutMs: whole(environment, "LEDGER_WORKER_JOB_TIMEOUT_MS", defaults.jobTimeoutMs, 1),
  jobMemoryMb: whole(environment, "LEDGER_WORKER_JOB_MEMORY_MB", defaults.jobMemoryMb, 16),
  queueMax: whole(environment, "LEDGER_WORKER_QUEUE_MAX", defaults.queueMax, 0)
})

/** The worker's entry: the built one beside a bundled server, else the sources' bootstrap (worker.mjs). */
const workerFile = (): string => {
  const built = fileURLToPath(new URL("./offload/PoolWorker.js", import.meta.url))
  return existsSync(built) ? built : fileURLToPath(new URL("./worker.mjs", import.meta.url))
}

/** A job that threw in its worker: a bug, not a refusal (jobs answer their failures as data). */
class JobDefect extends Data.TaggedError("JobDefect")<{ readonly cause: unknown }> {}

const refusedBy = (job: string, error: unknown): HeavyWork.HeavyWorkRefused | JobDefect => {
  const code = (error as { code?: unknown } | null)?.code
  const message = error instanceof Error ? error.message : String(error)
  if (code === "ERR_WORKER_OUT_OF_MEMORY") {
    return new HeavyWork.HeavyWorkRefused({ job, reason: "memory", message: `${job} passed its worker's memory limit` })
  }
  if (/queue is at limit|No task queue available|Terminating worker thread|destroyed|closed/u.test(message)) {
    return new HeavyWork.HeavyWorkRefused({ job, reason: "unavailable", message: `${job} found no worker: ${message}` })
  }
  return new JobDefect({ cause: error })
}

/** Resumes when the worker has taken the job (PoolWorker.ts posts on the port as it starts). */
const startedOn = (port: MessagePort) => Effect.callback<void>((resume) => void port.once("message", () => resume(Effect.void)))

/**
 * What the runner asks of a pool: piscina's, by its shape, so the server's published declarations
 * do not carry piscina's own (which do not type-check under a consumer's
 * `exactOptionalPropertyTypes` with `skipLibCheck` off).
 */
export interface JobPool {
  readonly run: (task: unknown, options?: { readonly signal: AbortSignal; readonly transferList: Array<MessagePort | ArrayBuffer> }) => Promise<unknown>
  readonly destroy: () => Promise<void>
}

/**
 * A runner over a pool: each job posted with an abort signal and a port its worker says it started
 * on. The time limit runs from that start, so a job is not charged for the queue or for a new
 * worker's start; past it the call is interrupted, which aborts the signal: piscina terminates the
 * worker and starts another.
 */
export const runner = (pool: JobPool, settings: Settings): HeavyWork.Runner => ({
  kind: "pool",
  run: <I, O>(job: HeavyWork.Job<I, O>, input: I) =>
    Effect.suspend(() => {
      const { port1, port2 } = new MessageChannel()
      const work = Effect.tryPromise({
        try: (signal) => pool.run({ name: job.name, input, started: port2 }, { signal, transferList: [port2, ...job.transfer?.(input) ?? []] }) as Promise<O>,
        catch: (error) => refusedBy(job.name, error)
      })
      const limit = startedOn(port1).pipe(
        Effect.andThen(Effect.sleep(Duration.millis(settings.jobTimeoutMs))),
        Effect.andThen(Effect.fail(new HeavyWork.HeavyWorkRefused({ job: job.name, reason: "time", message: `${job.name} took more than ${settings.jobTimeoutMs} ms` })))
      )
      return Effect.raceFirst(work, limit).pipe(
        Effect.catchTag("JobDefect", (defect) => Effect.die(defect.cause)),
        Effect.ensuring(Effect.sync(() => port1.close()))
      )
    })
})

/** Starts the pool (its workers load the job table once each) and ends it with the layer. */
export const make = (settings: Settings): Effect.Effect<JobPool, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const pool = new Piscina({
        filename: workerFile(),
        minThreads: settings.threads,
        maxThreads: settings.threads,
        maxQueue: settings.queueMax,
        idleTimeout: Number.POSITIVE_INFINITY,
        // Jobs are async (pdf-lib, mailparser): the worker's own event loop must run between them.
        atomics: "disabled",
        niceIncrement: 10,
        resourceLimits: { maxOldGenerationSizeMb: settings.jobMemoryMb, maxYoungGenerationSizeMb: 32 }
      })
      // A worker lost between jobs (its start past the memory bound, say) is replaced by the pool;
      // without a listener the event would end the process.
      pool.on("error", (error: unknown) => Effect.runFork(Effect.logWarning("A heavy-work worker thread failed between jobs", error)))
      return pool
    }),
    (pool) => Effect.promise(() => pool.destroy())
  ).pipe(Effect.tap(ready))

/** How long a starting pool may take to load its workers' job table (tsx compiles it in the workspace). */
const readyTimeoutMs = 120_000

/**
 * A pool whose workers cannot load (a build without dist/offload/PoolWorker.js, a job table that
 * fails to import) would fail every statement, PDF and mail later, one request at a time: the
 * server refuses to start instead, saying why. The workers must also know every job this process
 * would post.
 */
const ready = (pool: JobPool) =>
  Effect.tryPromise(() => pool.run({ name: readyTask })).pipe(
    Effect.timeout(Duration.millis(readyTimeoutMs)),
    Effect.flatMap((known) => {
      const missing = names().filter((name) => !(known as ReadonlyArray<string>).includes(name))
      return missing.length === 0 ? Effect.void : Effect.die(new Error(`The heavy-work pool's workers (${workerFile()}) do not know the jobs ${missing.join(", ")}`))
    }),
    Effect.catch((error) => Effect.die(new Error(`The heavy-work pool's worker threads cannot start from ${workerFile()}: ${String(error)} (LEDGER_WORKER_THREADS=0 runs heavy work on the request thread)`)))
  )

/** HeavyWork on a pool of `settings.threads` workers; with none, the inline default stays. */
export const layer = (settings: Settings): Layer.Layer<never> =>
  settings.threads === 0
    ? Layer.empty
    : Layer.effect(HeavyWork.HeavyWork)(Effect.map(make(settings), (pool) => runner(pool, settings)))

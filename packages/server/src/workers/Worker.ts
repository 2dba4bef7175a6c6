import { Clock, Duration, Effect, Layer, Schedule } from "effect"
import { Area, Ledger, Sales } from "@ledger/engine"

/**
 * The background job runner. Jobs live in the `jobs` table; every replica runs a worker that
 * claims due jobs with FOR UPDATE SKIP LOCKED under a lease (so replicas share the work and a
 * crashed worker's jobs are taken up again when the lease runs out), runs each by its kind, and
 * records the outcome. The kinds are the engine's areas' (each area's `jobKinds`): webhook delivery
 * adds `webhook.deliver` in its own area.
 * Switched off per replica with LEDGER_WORKERS=off.
 */
export interface WorkerOptions {
  /** Names this worker in `jobs.locked_by`. */
  readonly id: string
  readonly pollInterval: Duration.Input
  readonly batchSize: number
  readonly leaseSeconds: number
  /** How long after one run of a periodic job (payment reminders) the next is due. */
  readonly reminderScanSeconds: number
}

export const defaults: Omit<WorkerOptions, "id"> = {
  pollInterval: "2 seconds",
  batchSize: 10,
  leaseSeconds: 120,
  reminderScanSeconds: 3_600
}

type Outcome = Area.JobOutcome
type Services = Area.JobServices

const nowPlus = (seconds: number) => Effect.map(Clock.currentTimeMillis, (now) => new Date(now + seconds * 1000).toISOString())

export const reminderScanKey = Sales.Reminders.jobKind

/** Every job kind the workers know, by name: the areas' (Engine.ts `jobKinds`). */
export const kinds: ReadonlyMap<string, Area.JobKind> = Ledger.jobKinds

/** The periodic kinds: one of each is kept waiting, the next enqueued once one has run. */
const periodicKinds = [...kinds].filter(([, kind]) => kind.periodic === true).map(([name]) => name)

/** Claims and runs one batch of due jobs; returns how many ran. */
export const runOnce = (options: WorkerOptions) =>
  Effect.gen(function*() {
    const jobs = yield* Sales.Jobs.claim(options.id, options.batchSize, options.leaseSeconds)
    for (const job of jobs) {
      const kind = kinds.get(job.kind)
      const outcome: Outcome = kind === undefined
        ? { _tag: "GiveUp", error: `No worker knows the job kind ${job.kind}.` }
        : yield* kind.run(job).pipe(
          Effect.catchCause((cause) => Effect.succeed<Outcome>({ _tag: "Retry", error: String(cause).slice(0, 2000) }))
        )
      if (outcome._tag === "Done") {
        yield* Sales.Jobs.complete(job, options.id)
      } else {
        const finalAttempt = yield* Sales.Jobs.fail(outcome._tag === "GiveUp" ? { ...job, attempts: job.maxAttempts } : job, options.id, outcome.error)
        if (finalAttempt) {
          yield* Effect.logWarning(`Job ${job.id} (${job.kind}) failed for good: ${outcome.error}`)
          if (kind?.gaveUp !== undefined) yield* kind.gaveUp(job, outcome.error)
        }
      }
      // The next run is enqueued once this one is done: its unique key is free again only now.
      if (kind?.periodic === true) yield* schedulePeriodic(job.kind, kind.everySeconds ?? options.reminderScanSeconds)
    }
    return jobs.length
  })

/** Makes sure one job of a periodic kind is waiting (a no-op while one is pending or running). */
export const schedulePeriodic = (kind: string, afterSeconds: number) =>
  Effect.flatMap(nowPlus(afterSeconds), (runAt) =>
    Sales.Jobs.enqueue({ kind, companyId: null, uniqueKey: kind, runAt, maxAttempts: 3 }))

/** Makes sure one reminder scan is waiting (a no-op while one is pending or running). */
export const scheduleReminderScan = (afterSeconds: number) => schedulePeriodic(reminderScanKey, afterSeconds)

/** Runs batches until none is due (tests and the CLI use it to drain the queue). */
export const drain = (options: WorkerOptions, maxBatches = 100) =>
  Effect.gen(function*() {
    let total = 0
    for (let batch = 0; batch < maxBatches; batch++) {
      const ran = yield* runOnce(options)
      total += ran
      if (ran === 0) break
    }
    return total
  })

/**
 * Full batches run back to back before the loop rests: a full batch says more are due, and one
 * batch per poll held webhook deliveries to about 5 a second under load (docs/webhooks.md). The
 * bound keeps one process from holding the queue's rows forever when producers outpace it.
 */
const fullBatchesBeforeRestMax = 50

/** Runs batches while they come back full (at most `fullBatchesBeforeRestMax`); how many jobs ran. */
export const pass = (options: WorkerOptions) =>
  Effect.gen(function*() {
    let total = 0
    for (let batch = 0; batch < fullBatchesBeforeRestMax; batch++) {
      const ran = yield* runOnce(options)
      total += ran
      if (ran < options.batchSize) break
    }
    return total
  })

/** The worker loop as a layer: starts with the server, stops with it. */
export const layer = (options: WorkerOptions): Layer.Layer<never, never, Services> =>
  Layer.effectDiscard(Effect.gen(function*() {
    yield* Effect.forEach(periodicKinds, (kind) => schedulePeriodic(kind, 0), { discard: true })
    yield* pass(options).pipe(
      Effect.catchCause((cause) => Effect.logError("Worker batch failed", cause)),
      Effect.repeat(Schedule.spaced(options.pollInterval)),
      Effect.forkScoped
    )
  }))

/**
 * What the server adds to its start (Server.serverLayer): the worker loop, over the mail port the
 * server wires (adapters/Ports.ts), or nothing when LEDGER_WORKERS=off.
 */
export const fromEnvironment = (environment: Record<string, string | undefined> = process.env): Layer.Layer<never, never, Services> => {
  if (environment.LEDGER_WORKERS === "off") return Layer.empty
  const id = `${environment.HOSTNAME ?? "ledger"}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`
  return layer({ id, ...defaults })
}

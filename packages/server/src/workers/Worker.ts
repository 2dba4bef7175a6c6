import { Clock, Duration, Effect, Layer, Schedule } from "effect"
import { SqlClient } from "effect/sql"
import { Mail, Sales } from "@ledger/engine"
import * as SmtpMail from "../adapters/SmtpMail.ts"

/**
 * The background job runner. Jobs live in the `jobs` table; every replica runs a worker that
 * claims due jobs with FOR UPDATE SKIP LOCKED under a lease (so replicas share the work and a
 * crashed worker's jobs are taken up again when the lease runs out), runs each by its kind, and
 * records the outcome. A kind is one entry in `kinds`: webhook delivery adds `webhook.deliver`.
 * Switched off per replica with LEDGER_WORKERS=off.
 */
export interface WorkerOptions {
  /** Names this worker in `jobs.locked_by`. */
  readonly id: string
  readonly pollInterval: Duration.Input
  readonly batchSize: number
  readonly leaseSeconds: number
  /** How often payment reminders are looked for. */
  readonly reminderScanSeconds: number
}

export const defaults: Omit<WorkerOptions, "id"> = {
  pollInterval: "2 seconds",
  batchSize: 10,
  leaseSeconds: 120,
  reminderScanSeconds: 3_600
}

type Outcome = { readonly _tag: "Done" } | { readonly _tag: "Retry"; readonly error: string } | { readonly _tag: "GiveUp"; readonly error: string }
type Services = SqlClient.SqlClient | Mail
type Kind = (job: Sales.Jobs.Job) => Effect.Effect<Outcome, never, Services>

const nowPlus = (seconds: number) => Effect.map(Clock.currentTimeMillis, (now) => new Date(now + seconds * 1000).toISOString())

export const reminderScanKey = "reminders.scan"

/** Every job kind the workers know, by name. */
export const kinds: Record<string, Kind> = {
  "email.send": (job) =>
    Effect.map(
      Sales.EmailDelivery.deliver(job.companyId ?? "", Number(job.payload.email_id)),
      (delivery): Outcome => delivery._tag === "Retry" ? { _tag: "Retry", error: delivery.error } : { _tag: "Done" }
    ),
  [reminderScanKey]: () => Effect.as(Sales.Reminders.scan(), { _tag: "Done" } as Outcome)
}

/** Claims and runs one batch of due jobs; returns how many ran. */
export const runOnce = (options: WorkerOptions) =>
  Effect.gen(function*() {
    const jobs = yield* Sales.Jobs.claim(options.id, options.batchSize, options.leaseSeconds)
    for (const job of jobs) {
      const kind = kinds[job.kind]
      const outcome: Outcome = kind === undefined
        ? { _tag: "GiveUp", error: `No worker knows the job kind ${job.kind}.` }
        : yield* kind(job).pipe(
          Effect.catchCause((cause) => Effect.succeed<Outcome>({ _tag: "Retry", error: String(cause).slice(0, 2000) }))
        )
      if (outcome._tag === "Done") {
        yield* Sales.Jobs.complete(job, options.id)
      } else {
        const finalAttempt = yield* Sales.Jobs.fail(outcome._tag === "GiveUp" ? { ...job, attempts: job.maxAttempts } : job, options.id, outcome.error)
        if (finalAttempt) {
          yield* Effect.logWarning(`Job ${job.id} (${job.kind}) failed for good: ${outcome.error}`)
          if (job.kind === "email.send" && job.companyId !== null) {
            yield* Sales.EmailDelivery.giveUp(job.companyId, Number(job.payload.email_id), outcome.error)
          }
        }
      }
      // The next scan is enqueued once this one is done: its unique key is free again only now.
      if (job.kind === reminderScanKey) yield* scheduleReminderScan(options.reminderScanSeconds)
    }
    return jobs.length
  })

/** Makes sure one reminder scan is waiting (a no-op while one is pending or running). */
export const scheduleReminderScan = (afterSeconds: number) =>
  Effect.flatMap(nowPlus(afterSeconds), (runAt) =>
    Sales.Jobs.enqueue({ kind: reminderScanKey, companyId: null, uniqueKey: reminderScanKey, runAt, maxAttempts: 3 }))

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

/** The worker loop as a layer: starts with the server, stops with it. */
export const layer = (options: WorkerOptions): Layer.Layer<never, never, Services> =>
  Layer.effectDiscard(Effect.gen(function*() {
    yield* scheduleReminderScan(0)
    yield* runOnce(options).pipe(
      Effect.catchCause((cause) => Effect.logError("Worker batch failed", cause)),
      Effect.repeat(Schedule.spaced(options.pollInterval)),
      Effect.forkScoped
    )
  }))

/** The mail port the environment configures: SMTP when set, else deliveries wait (and say why). */
export const mailFromEnvironment = (environment: Record<string, string | undefined> = process.env): Layer.Layer<Mail> => {
  const config = SmtpMail.fromEnvironment(environment)
  return config === null ? Mail.layerUnconfigured : SmtpMail.layer(config)
}

/**
 * What the server adds to its start (Server.serverLayer): the worker loop with the configured mail
 * port, or nothing when LEDGER_WORKERS=off.
 */
export const fromEnvironment = (environment: Record<string, string | undefined> = process.env): Layer.Layer<never, never, SqlClient.SqlClient> => {
  if (environment.LEDGER_WORKERS === "off") return Layer.empty
  const id = `${environment.HOSTNAME ?? "ledger"}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`
  return layer({ id, ...defaults }).pipe(Layer.provide(mailFromEnvironment(environment)))
}

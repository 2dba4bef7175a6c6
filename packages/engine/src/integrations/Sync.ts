import { Clock, Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Integrations } from "@ledger/api"
import * as Handler from "../kernel/Handler.ts"
import { requireCompanyId } from "../kernel/CompanyContext.ts"
import { RequestContext, type RequestInfo } from "../kernel/RequestContext.ts"
import * as Row from "../kernel/Row.ts"
import { proposalKind } from "../kernel/Registry.ts"
import * as Common from "./Common.ts"
import * as ConnectionStore from "./ConnectionStore.ts"
import { setStatus, syncInto } from "./SyncObjects.ts"
import type { JobKind, JobOutcome, JobServices } from "../pipeline/Area.ts"
import * as Outbox from "../pipeline/Outbox.ts"
import * as Jobs from "../store/Jobs.ts"
import type { Job } from "../store/Jobs.ts"

/**
 * The sync job and its run bookkeeping (ADR 1604): a request or the periodic scan enqueues one job
 * per connection; the job claims the connection's run, syncs it (SyncObjects.ts) in one
 * transaction as the connection's agent, and ends the run with its counts and errors.
 */

/** Syncs of one connection are one job kind: the request's and the schedule's alike (ADR 1604). */
export const jobKind = "integrations.sync"
/** The scan that enqueues the syncs that are due (a periodic job of the deployment). */
export const scheduleJobKind = "integrations.schedule"
/** The scan runs every minute, so a request's sync or a due one starts within a minute or two (spec 4.2). */
export const scheduleEverySeconds = 60
/** Connections enqueued by one scan; the next scan takes the rest. */
const dueScanMax = 500

const jobKey = (company: string, id: number) => `${jobKind}:${company}:${id}`

const nowIso = Effect.map(Clock.currentTimeMillis, (milliseconds) => new Date(milliseconds).toISOString())

/**
 * Makes sure the connection's sync job is waiting, due at `runAt`: at most one waits or runs per
 * connection (the jobs' unique key), and one already waiting for later is brought forward.
 */
export const enqueue = Effect.fn("Sync.enqueue")(function*(company: string, id: number, runAt: string) {
  const sql = yield* SqlClient.SqlClient
  yield* Jobs.enqueue({ kind: jobKind, companyId: company, payload: { connection_id: id }, uniqueKey: jobKey(company, id), runAt, maxAttempts: 3 })
  yield* sql`UPDATE jobs SET run_at = ${runAt} WHERE unique_key = ${jobKey(company, id)} AND status = 'pending' AND run_at > ${runAt}`
    .pipe(Effect.orDie)
})

/** The request the job acts in: the connection's own agent, as a sync in a request was (ADR 1600). */
const jobRequest = (company: string, connection: Record<string, unknown>, now: string, suspended: boolean): RequestInfo => ({
  actor: {
    type: "agent",
    id: Row.int(connection.agent_id),
    name: `${String(connection.provider)} sync`,
    role: null,
    companyId: company,
    scopes: ["read", "propose"],
    isPerson: false,
    keyId: null,
    credentialKind: "none",
    postingThresholdCents: Row.int(connection.posting_threshold_cents),
    rateLimitRpm: null,
    firmId: null
  },
  companyId: company,
  operationId: jobKind,
  via: "engine",
  now,
  today: now.slice(0, 10),
  agentModel: null,
  agentRunId: null,
  idempotencyKey: null,
  killSwitchSuspended: suspended
})

/**
 * The run a job works on, committed as `running` before the sync starts so `GET` of the
 * connection shows it while it runs: the oldest queued one (or one left running by a worker that
 * died), else a new scheduled one. A connection paused or disconnected since fails its waiting run.
 */
const claimRun = Effect.fn("Sync.claimRun")(function*(company: string, id: number, now: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM integration_connections WHERE company_id = ${company} AND id = ${id} FOR UPDATE`
    .pipe(Effect.orDie)
  const connection = rows[0]
  if (connection === undefined) return null
  const open = yield* sql<Record<string, unknown>>`SELECT id FROM integration_sync_runs WHERE company_id = ${company} AND connection_id = ${id}
    AND status IN ('queued', 'running') ORDER BY id LIMIT 1 FOR UPDATE`.pipe(Effect.orDie)
  if (connection.status !== "connected") {
    if (open[0] !== undefined) {
      yield* sql`UPDATE integration_sync_runs SET ${sql.update({
        status: "failed", errors: JSON.stringify([`integration_${String(connection.status)}: the connection was ${String(connection.status)} before its sync ran.`]), finished_at: now
      })} WHERE company_id = ${company} AND id = ${Row.int(open[0].id)}`.pipe(Effect.orDie)
    }
    return null
  }
  if (open[0] !== undefined) {
    yield* sql`UPDATE integration_sync_runs SET status = 'running' WHERE company_id = ${company} AND id = ${Row.int(open[0].id)}`.pipe(Effect.orDie)
    return Row.int(open[0].id)
  }
  const made = yield* sql<{ id: unknown }>`INSERT INTO integration_sync_runs ${sql.insert({
    company_id: company, connection_id: id, status: "running", trigger: "schedule", counts: JSON.stringify(Common.counts()), created_at: now
  })} RETURNING id`.pipe(Effect.orDie)
  return Row.int(made[0]!.id)
})

/** Ends a run: its counts and errors, the connection's next scheduled sync and last error, and `integration.error` when it failed. */
const finish = Effect.fn("Sync.finish")(function*(company: string, connection: Record<string, unknown>, runId: number, counts: Common.Counts, errors: ReadonlyArray<string>) {
  const sql = yield* SqlClient.SqlClient
  const request = yield* RequestContext
  const id = Row.int(connection.id)
  yield* sql`UPDATE integration_sync_runs SET ${sql.update({
    status: errors.length === 0 ? "succeeded" : "failed",
    counts: JSON.stringify(counts),
    errors: JSON.stringify(errors),
    finished_at: request.now
  })} WHERE company_id = ${company} AND id = ${runId}`.pipe(Effect.orDie)
  const interval = Row.int(connection.sync_interval_minutes ?? 60)
  const lastError = errors.length === 0 ? null : errors.join("; ").slice(0, 2000)
  yield* sql`UPDATE integration_connections SET ${sql.update({
    next_sync_at: Common.plusMinutes(request.now, interval),
    last_error: lastError,
    last_error_at: lastError === null ? null : request.now
  })} WHERE company_id = ${company} AND id = ${id}`.pipe(Effect.orDie)
  if (lastError !== null) {
    yield* Outbox.emit("integration.error", {
      connection_id: id,
      provider: String(connection.provider),
      sync_run_id: runId,
      errors
    })
  }
})

/** The sync job: claims the connection's run, then syncs it in one transaction as the connection's agent. */
export const runJob = (job: Job): Effect.Effect<JobOutcome, never, JobServices> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const company = job.companyId
    const id = Number(job.payload.connection_id)
    if (company === null || !Number.isSafeInteger(id)) return { _tag: "GiveUp", error: "A sync job names no connection." } as const
    const claimedAt = yield* nowIso
    const runId = yield* sql.withTransaction(claimRun(company, id, claimedAt)).pipe(Effect.orDie)
    if (runId === null) return { _tag: "Done" } as const
    yield* sql.withTransaction(Effect.gen(function*() {
      const now = yield* nowIso
      const rows = yield* sql<Record<string, unknown>>`SELECT c.*, k.kill_switch_suspended FROM integration_connections c
        JOIN companies k ON k.company_id = c.company_id
        WHERE c.company_id = ${company} AND c.id = ${id} FOR UPDATE OF c`.pipe(Effect.orDie)
      const connection = rows[0]!
      const suspended = connection.kill_switch_suspended === true
      yield* Effect.gen(function*() {
        const done = connection.status !== "connected"
          ? { counts: Common.counts(), errors: [`integration_${String(connection.status)}: the connection was ${String(connection.status)} while its sync waited.`] }
          : suspended
          ? { counts: Common.counts(), errors: ["kill_switch: the company's kill switch suspends agents' writes; the sync waits for it to be lifted."] }
          : yield* syncInto(company, connection, runId)
        yield* finish(company, connection, runId, done.counts, done.errors)
      }).pipe(Effect.provideService(RequestContext, jobRequest(company, connection, now, suspended)))
    })).pipe(Effect.orDie)
    return { _tag: "Done" } as const
  })

/** Given up (its attempts spent on failures that are not the provider's): the run fails and says so where people look. */
const gaveUp = (job: Job, error: string): Effect.Effect<void, never, JobServices> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const company = job.companyId
    const id = Number(job.payload.connection_id)
    if (company === null || !Number.isSafeInteger(id)) return
    const now = yield* nowIso
    const message = `sync_failed: ${error}`.slice(0, 2000)
    yield* sql.withTransaction(Effect.gen(function*() {
      const rows = yield* sql<Record<string, unknown>>`UPDATE integration_connections SET last_error = ${message}, last_error_at = ${now}
        WHERE company_id = ${company} AND id = ${id} RETURNING *`
      const runs = yield* sql<{ id: unknown }>`UPDATE integration_sync_runs SET status = 'failed', errors = ${JSON.stringify([message])}, finished_at = ${now}
        WHERE company_id = ${company} AND connection_id = ${id} AND status IN ('queued', 'running') RETURNING id`
      if (rows[0] === undefined) return
      yield* Outbox.emit("integration.error", {
        connection_id: id, provider: String(rows[0].provider), sync_run_id: runs[0] === undefined ? null : Row.int(runs[0].id), errors: [message]
      }).pipe(Effect.provideService(RequestContext, jobRequest(company, rows[0], now, false)))
    })).pipe(Effect.orDie)
  })

/** The periodic scan: every connected connection whose sync is due, or that has a run waiting, gets its job. */
export const scheduleDue = (): Effect.Effect<JobOutcome, never, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const now = yield* nowIso
    const due = yield* sql<{ company_id: string; id: unknown }>`SELECT c.company_id, c.id FROM integration_connections c
      WHERE c.status = 'connected' AND (c.next_sync_at IS NULL OR c.next_sync_at <= ${now}
        OR EXISTS (SELECT 1 FROM integration_sync_runs r WHERE r.company_id = c.company_id AND r.connection_id = c.id AND r.status = 'queued'))
      ORDER BY c.next_sync_at NULLS FIRST LIMIT ${dueScanMax}`.pipe(Effect.orDie)
    for (const row of due) yield* enqueue(row.company_id, Row.int(row.id), now)
    return { _tag: "Done" } as const
  })

export const jobKinds: Readonly<Record<string, JobKind>> = {
  [jobKind]: { run: runJob, gaveUp },
  [scheduleJobKind]: { run: scheduleDue, periodic: true, everySeconds: scheduleEverySeconds }
}

export const handlers = [
  Handler.make(Integrations.Connections.requestSync, ({ path }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const company = yield* requireCompanyId
      // Not locked: a sync running holds the connection's row for its whole transaction, and a
      // request must not wait for it. A run queued meanwhile is taken up by the next scan.
      const connection = yield* ConnectionStore.load(company, path.id)
      yield* ConnectionStore.requireLive(connection)
      if (connection.status === "paused") return yield* Effect.fail(ApiError.fail("integration_paused", "This connection is paused: resume it in its settings first."))
      // One waiting run per connection: asking again while it waits answers the same run.
      const queued = yield* sql<Record<string, unknown>>`SELECT * FROM integration_sync_runs WHERE company_id = ${company}
        AND connection_id = ${path.id} AND status = 'queued' ORDER BY id LIMIT 1`.pipe(Effect.orDie)
      const run = queued[0] ?? (yield* sql<Record<string, unknown>>`INSERT INTO integration_sync_runs ${sql.insert({
        company_id: company, connection_id: path.id, status: "queued", trigger: "request", counts: JSON.stringify(Common.counts()), created_at: request.now
      })} RETURNING *`.pipe(Effect.orDie))[0]!
      yield* enqueue(company, path.id, request.now)
      const body = ConnectionStore.syncRun(run)
      return {
        status: 202,
        body,
        audit: { targetType: "integration_connection", targetId: path.id, details: { sync_run_id: body.id } }
      }
    }))
]

/** A synced object's proposal: approval posts it (the object becomes `posted`), rejection marks it `rejected`. */
export const proposal = proposalKind({
  request: Schema.Struct({ connection_id: Schema.Number, object_id: Schema.Number }),
  // The entry leads to the synced object, as one posted directly does.
  sourceId: ({ request }) => Effect.succeed(request.object_id),
  approved: ({ request, entry }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      yield* setStatus(company, request.object_id, { status: "posted", entry_id: entry.id })
      return { object_id: request.object_id, entry_id: entry.id }
    }),
  rejected: ({ request }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      yield* setStatus(company, request.object_id, { status: "rejected" })
    })
})

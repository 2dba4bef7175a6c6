import { Clock, Context, Effect, Metric, type Types } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import { PrometheusMetrics } from "effect/observability"
import { SqlClient } from "effect/sql"
import { Migrations, ReadReplica } from "@ledger/engine"

/**
 * What an operator watches a running server by (issue 20, docs/operations.md): an access log line
 * per request, Prometheus metrics at `/metrics`, and readiness at `/ready` beside `/health`.
 *
 * Nothing here names a company's data: metrics are labelled by method, route pattern and status
 * class only (a company or key per label would let a scraper count one tenant's traffic and would
 * grow without bound), and an access log line names the company a request asked for, never a
 * credential.
 */

/** Whether to write an access log line per request (`LEDGER_ACCESS_LOG`, on for `ledger serve`). */
export class AccessLog extends Context.Reference<boolean>("@ledger/server/AccessLog", { defaultValue: () => false }) {}

/**
 * Whether to give a request without a sane `X-Request-Id` a new one (on for `ledger serve`). Off
 * in process (the testkit): there a caller's own id is still echoed, but none is made up, so that
 * one seed keeps giving byte-identical answers.
 */
export class GenerateRequestIds extends Context.Reference<boolean>("@ledger/server/GenerateRequestIds", {
  defaultValue: () => false
}) {}

const requests = Metric.counter("ledger_http_requests_total", {
  description: "HTTP requests answered, by method, route and status class.",
  incremental: true
})

// Seconds, as Prometheus expects: 1 ms to about 16 s.
const durationBoundariesSeconds = Metric.exponentialBoundaries({ start: 0.001, factor: 2, count: 15 })
const durations = Metric.histogram("ledger_http_request_duration_seconds", {
  description: "Time to answer an HTTP request, in seconds, by method and route.",
  boundaries: durationBoundariesSeconds
})

const jobsWaiting = Metric.gauge("ledger_jobs_waiting", { description: "Background jobs waiting to run, by kind." })
const outboxEvents = Metric.gauge("ledger_outbox_events", { description: "Events held in the outbox." })
const replicaLag = Metric.gauge("ledger_read_replica_lag_seconds", {
  description: "How long ago the read replica last held all the primary had (-1: not known); only with a read replica."
})
const replicaReads = Metric.gauge("ledger_read_replica_reads", {
  description: "Report reads since start, by where they ran (replica, or primary when the replica was stale); only with a read replica."
})

/** Longest request id taken from a caller's `X-Request-Id`; a longer or odd one is replaced. */
const requestIdLengthMax = 128

/**
 * A route for labels: `/v1/invoices/123` -> `/v1/invoices/:id`. Numbers, UUIDs and long tokens are
 * the parameters of the catalog's paths, so the label set stays the catalog's size.
 */
export const routeLabel = (path: string): string =>
  path
    .split("?")[0]!
    .split("/")
    .map((segment) =>
      /^\d+$/.test(segment) || /^[0-9a-f]{8}-[0-9a-f-]{27}$/i.test(segment) || segment.length > 40 ? ":id" : segment
    )
    .join("/")
    .slice(0, 200)

const statusClass = (status: number): string => `${Math.floor(status / 100)}xx`

const requestIdOf = (request: HttpServerRequest.HttpServerRequest, generate: boolean): string | null => {
  const given = request.headers["x-request-id"]
  if (typeof given === "string" && given.length <= requestIdLengthMax && /^[\w.:-]+$/.test(given)) return given
  return generate ? crypto.randomUUID() : null
}

/**
 * The global middleware: times each request, counts it, answers with its `X-Request-Id`, and when
 * access logs are on writes one line (JSON with `LEDGER_LOG_FORMAT=json`) with the method, route,
 * status, duration, company asked for and request id.
 */
export const observe = (
  effect: Effect.Effect<HttpServerResponse.HttpServerResponse, Types.unhandled>
): Effect.Effect<HttpServerResponse.HttpServerResponse, Types.unhandled> =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const startedMs = yield* Clock.currentTimeMillis
    const requestId = requestIdOf(request, yield* GenerateRequestIds)
    const response = yield* effect
    const durationMs = (yield* Clock.currentTimeMillis) - startedMs
    const route = routeLabel(request.url)
    const attributes = { method: request.method, route, status: statusClass(response.status) }
    yield* Metric.update(Metric.withAttributes(requests, attributes), 1)
    yield* Metric.update(Metric.withAttributes(durations, { method: request.method, route }), durationMs / 1000)
    if (yield* AccessLog) {
      const company = request.headers["x-ledger-company"]
      yield* Effect.logInfo("request").pipe(Effect.annotateLogs({
        method: request.method,
        route,
        status: response.status,
        duration_ms: durationMs,
        ...(requestId === null ? {} : { request_id: requestId }),
        ...(typeof company === "string" ? { company: company.slice(0, 64) } : {})
      }))
    }
    return requestId === null ? response : HttpServerResponse.setHeader(response, "x-request-id", requestId)
  }) as Effect.Effect<HttpServerResponse.HttpServerResponse, Types.unhandled>

/** Reads the backlogs into their gauges, then renders every metric in Prometheus' text format. */
export const metrics = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const waiting = yield* sql<{ kind: string; count: number }>`
    SELECT kind, count(*)::int AS count FROM jobs WHERE status = 'pending' GROUP BY kind`
  for (const row of waiting) yield* Metric.update(Metric.withAttributes(jobsWaiting, { kind: row.kind }), Number(row.count))
  const held = yield* sql<{ count: number }>`SELECT count(*)::int AS count FROM outbox_events`
  yield* Metric.update(outboxEvents, Number(held[0]?.count ?? 0))
  const replica = yield* (yield* ReadReplica.ReadReplica).status
  if (replica.configured) {
    yield* Metric.update(replicaLag, replica.reachable && replica.lagMs !== null ? replica.lagMs / 1000 : -1)
    yield* Metric.update(Metric.withAttributes(replicaReads, { served_by: "replica" }), replica.readsOnReplica)
    yield* Metric.update(Metric.withAttributes(replicaReads, { served_by: "primary" }), replica.readsOnPrimary)
  }
  const text = yield* PrometheusMetrics.format()
  return HttpServerResponse.text(text, { contentType: "text/plain; version=0.0.4; charset=utf-8" })
}).pipe(
  Effect.catchCause((cause) =>
    Effect.as(Effect.logError("metrics failed", cause), HttpServerResponse.text("metrics unavailable\n", { status: 503 }))
  )
)

/** Ready: the database answers and holds every migration this build has (a replica mid-upgrade is not). */
export const ready = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const recorded = yield* sql<{ id: number }>`SELECT id FROM ledger_migrations`
  const have = new Set(recorded.map((row) => Number(row.id)))
  const missing = Migrations.migrations.filter((migration) => migration.sql.trim() !== "" && !have.has(migration.id))
  return missing.length === 0
    ? HttpServerResponse.jsonUnsafe({ status: "ready" })
    : HttpServerResponse.jsonUnsafe({ status: "not_ready", reason: "migrations_pending", pending: missing.map((m) => m.name) }, { status: 503 })
}).pipe(
  Effect.catchCause(() =>
    Effect.succeed(HttpServerResponse.jsonUnsafe({ status: "not_ready", reason: "database_unreachable" }, { status: 503 }))
  )
)

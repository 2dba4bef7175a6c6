import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, type Webhooks } from "@ledger/api"
import * as Row from "../kernel/Row.ts"

/** The SQL of deliveries (table `webhook_deliveries`, migration 0008) and of the event feed (`outbox_events`). */

export const jobKind = "webhook.deliver"

export const delivery = (row: Record<string, unknown>): Webhooks.Shared.Delivery => ({
  id: Row.int(row.id),
  endpoint_id: Row.int(row.endpoint_id),
  event_id: Row.int(row.event_id),
  event_type: String(row.event_type),
  test: row.test === true,
  status: row.status as Webhooks.Shared.Delivery["status"],
  attempts: Row.int(row.attempts),
  response_status: Row.intOrNull(row.response_status),
  error: (row.error as string | null) ?? null,
  last_attempt_at: Row.isoOrNull(row.last_attempt_at),
  next_attempt_at: Row.isoOrNull(row.next_attempt_at),
  created_at: Row.iso(row.created_at)
})

/** An endpoint's deliveries, newest first, below the id `before` (a page's cursor) when given; `limit + 1` to learn of more. */
export const latest = Effect.fn("DeliveryStore.latest")(function*(company: string, endpointId: number, limit: number, before: number | null = null) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM webhook_deliveries
    WHERE company_id = ${company} AND endpoint_id = ${endpointId} ${before === null ? sql`` : sql`AND id < ${before}`}
    ORDER BY id DESC LIMIT ${limit}`.pipe(Effect.orDie)
  return rows.map(delivery)
})

/** A delivery of an endpoint that was not removed. */
export const load = Effect.fn("DeliveryStore.load")(function*(company: string, id: number) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT d.*, w.enabled AS endpoint_enabled FROM webhook_deliveries d
    JOIN webhook_endpoints w ON w.company_id = d.company_id AND w.id = d.endpoint_id AND w.removed_at IS NULL
    WHERE d.company_id = ${company} AND d.id = ${id}`.pipe(Effect.orDie)
  if (rows[0] === undefined) return yield* Effect.fail(ApiError.notFound("webhook delivery"))
  return rows[0]
})

/** A job that sends delivery `id` when its token is `token`, due at `runAt`. */
const enqueue = (sql: SqlClient.SqlClient, company: string, id: number, token: number, runAt: string, now: string) =>
  sql`INSERT INTO jobs (kind, company_id, payload, run_at, max_attempts, created_at)
    VALUES (${jobKind}, ${company}, ${JSON.stringify({ delivery_id: id, token })}::jsonb, ${runAt}, 3, ${now})`.pipe(Effect.orDie)

/** Redelivery (spec 6.2 rule 6): waiting again, at once, with its attempts counted afresh. */
export const requeue = Effect.fn("DeliveryStore.requeue")(function*(company: string, id: number, now: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`UPDATE webhook_deliveries SET status = 'pending', attempts = 0,
      token = nextval('ledger_ids'), next_attempt_at = ${now}, error = NULL, response_status = NULL
    WHERE company_id = ${company} AND id = ${id} RETURNING *`.pipe(Effect.orDie)
  const row = rows[0]!
  yield* enqueue(sql, company, id, Row.int(row.token), now, now)
  return delivery(row)
})

/** A test delivery as it was sent (spec 6.2 rule 5): one attempt, never retried. */
export const recordTest = Effect.fn("DeliveryStore.recordTest")(function*(test: {
  readonly company: string
  readonly endpointId: number
  readonly eventId: number
  readonly ok: boolean
  readonly status: number | null
  readonly error: string | null
  readonly now: string
}) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`INSERT INTO webhook_deliveries ${sql.insert({
    company_id: test.company,
    endpoint_id: test.endpointId,
    event_id: test.eventId,
    event_type: "webhook.test",
    test: true,
    status: test.ok ? "succeeded" : "failed",
    attempts: 1,
    last_attempt_at: test.now,
    response_status: test.status,
    error: test.error,
    created_at: test.now
  })} RETURNING *`.pipe(Effect.orDie)
  return delivery(rows[0]!)
})

/** Everything one attempt needs: the delivery, its endpoint (even removed) and its event. */
export const forSending = Effect.fn("DeliveryStore.forSending")(function*(company: string, id: number) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT d.id, d.endpoint_id, d.event_id, d.event_type, d.status, d.attempts,
      d.token, w.url, w.enabled, w.removed_at, w.secret_sealed, w.previous_secret_sealed, w.previous_valid_until,
      w.failing_since, e.payload, e.occurred_at
    FROM webhook_deliveries d
    JOIN webhook_endpoints w ON w.company_id = d.company_id AND w.id = d.endpoint_id
    LEFT JOIN outbox_events e ON e.company_id = d.company_id AND e.id = d.event_id
    WHERE d.company_id = ${company} AND d.id = ${id}`.pipe(Effect.orDie)
  return rows[0]
})

export interface AttemptRecord {
  readonly company: string
  readonly id: number
  readonly endpointId: number
  readonly token: number
  readonly attempts: number
  readonly ok: boolean
  readonly status: number | null
  readonly error: string | null
  readonly now: string
  /** After a failure: when to try again, or null when the attempts are spent. */
  readonly retryAt: string | null
  /** After a failure: the endpoint is turned off (`failing`). */
  readonly turnOff: boolean
}

/**
 * Records one attempt in one transaction, if the delivery still has the token its job was given
 * (a redelivery or a removal since leaves it alone): the outcome, the retry's job, and the
 * endpoint's failure streak.
 */
export const recordAttempt = Effect.fn("DeliveryStore.recordAttempt")(function*(attempt: AttemptRecord) {
  const sql = yield* SqlClient.SqlClient
  const status = attempt.ok ? "succeeded" : attempt.retryAt === null ? "failed" : "pending"
  yield* sql.withTransaction(Effect.gen(function*() {
    const rows = yield* sql<{ token: number | string }>`UPDATE webhook_deliveries SET status = ${status},
        attempts = ${attempt.attempts}, last_attempt_at = ${attempt.now}, response_status = ${attempt.status},
        error = ${attempt.error === null ? null : attempt.error.slice(0, 1000)}, next_attempt_at = ${attempt.retryAt},
        token = CASE WHEN ${status} = 'pending' THEN nextval('ledger_ids') ELSE token END
      WHERE company_id = ${attempt.company} AND id = ${attempt.id} AND token = ${attempt.token} AND status = 'pending'
      RETURNING token`.pipe(Effect.orDie)
    if (rows[0] === undefined) return
    if (status === "pending") {
      yield* enqueue(sql, attempt.company, attempt.id, Row.int(rows[0].token), attempt.retryAt!, attempt.now)
    }
    yield* (attempt.ok
      ? sql`UPDATE webhook_endpoints SET failing_since = NULL
          WHERE company_id = ${attempt.company} AND id = ${attempt.endpointId} AND failing_since IS NOT NULL`
      : sql`UPDATE webhook_endpoints SET failing_since = coalesce(failing_since, ${attempt.now}),
          enabled = CASE WHEN ${attempt.turnOff} THEN false ELSE enabled END,
          disabled_reason = CASE WHEN ${attempt.turnOff} THEN 'failing' ELSE disabled_reason END
          WHERE company_id = ${attempt.company} AND id = ${attempt.endpointId}`).pipe(Effect.orDie)
  })).pipe(Effect.orDie)
})

/** A waiting delivery whose endpoint is off or gone, or whose event was pruned: given up. */
export const giveUp = Effect.fn("DeliveryStore.giveUp")(function*(company: string, id: number, token: number, error: string) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`UPDATE webhook_deliveries SET status = 'given_up', next_attempt_at = NULL, error = ${error}
    WHERE company_id = ${company} AND id = ${id} AND token = ${token} AND status = 'pending'`.pipe(Effect.orDie)
})

/** Deletes events and deliveries older than the feed keeps them (spec 6.2 rule 4: 30 days). */
export const prune = Effect.fn("DeliveryStore.prune")(function*(before: string) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`DELETE FROM webhook_deliveries WHERE created_at < ${before} AND status <> 'pending'`.pipe(Effect.orDie)
  yield* sql`DELETE FROM outbox_events WHERE occurred_at < ${before}`.pipe(Effect.orDie)
})

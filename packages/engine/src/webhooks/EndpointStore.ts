import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, type Webhooks } from "@ledger/api"
import * as Row from "../kernel/Row.ts"

/** The SQL of webhook endpoints (table `webhook_endpoints`, migrations 0001 and 0008). */

type Subscription = Webhooks.Endpoints.Endpoint["event_types"][number]

export const endpoint = (row: Record<string, unknown>): Webhooks.Endpoints.Endpoint => ({
  id: Row.int(row.id),
  url: String(row.url),
  description: (row.description as string | null) ?? null,
  event_types: Row.json<Array<Subscription>>(row.event_types),
  enabled: row.enabled === true,
  disabled_reason: (row.disabled_reason as "failing" | null) ?? null,
  secret_prefix: String(row.secret_prefix),
  previous_secret_valid_until: row.previous_valid_until === null || row.previous_valid_until === undefined
    ? null
    : Row.iso(row.previous_valid_until),
  created_at: Row.iso(row.created_at),
  updated_at: Row.iso(row.updated_at)
})

/** The columns an endpoint is read with; `event_types` as json, so drivers agree on arrays. */
const columns = (sql: SqlClient.SqlClient) =>
  sql`id, url, description, to_json(event_types) AS event_types, enabled, disabled_reason, secret_prefix,
    secret_sealed, previous_secret_sealed, previous_valid_until, failing_since, created_at, updated_at`

/** An endpoint of the company that was not removed (rows without an address are not endpoints). */
export const load = Effect.fn("EndpointStore.load")(function*(company: string, id: number) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT ${columns(sql)} FROM webhook_endpoints
    WHERE company_id = ${company} AND id = ${id} AND url IS NOT NULL AND removed_at IS NULL`.pipe(Effect.orDie)
  if (rows[0] === undefined) return yield* Effect.fail(ApiError.notFound("webhook endpoint"))
  return rows[0]
})

export const list = Effect.fn("EndpointStore.list")(function*(company: string) {
  const sql = yield* SqlClient.SqlClient
  return yield* sql<Record<string, unknown>>`SELECT ${columns(sql)} FROM webhook_endpoints
    WHERE company_id = ${company} AND url IS NOT NULL AND removed_at IS NULL ORDER BY id DESC`.pipe(Effect.orDie)
})

/**
 * Serializes endpoint creation within a company for the rest of the transaction, so two creations
 * at once cannot both pass the count check.
 */
export const countLocked = Effect.fn("EndpointStore.countLocked")(function*(company: string) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`SELECT pg_advisory_xact_lock(hashtext(${`webhooks:${company}`}))`.pipe(Effect.orDie)
  const rows = yield* sql<{ count: number | string }>`SELECT count(*) AS count FROM webhook_endpoints
    WHERE company_id = ${company} AND url IS NOT NULL AND removed_at IS NULL`.pipe(Effect.orDie)
  return Number(rows[0]!.count)
})

export const nextId = Effect.fn("EndpointStore.nextId")(function*() {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ id: number | string }>`SELECT nextval('ledger_ids') AS id`.pipe(Effect.orDie)
  return Row.int(rows[0]!.id)
})

export const insert = Effect.fn("EndpointStore.insert")(function*(row: {
  readonly company: string
  readonly id: number
  readonly url: string
  readonly description: string | null
  readonly eventTypes: ReadonlyArray<string>
  readonly secretSealed: string
  readonly secretPrefix: string
  readonly now: string
}) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`INSERT INTO webhook_endpoints (company_id, id, url, description, event_types, enabled, secret_sealed,
      secret_prefix, created_at, updated_at)
    VALUES (${row.company}, ${row.id}, ${row.url}, ${row.description},
      ARRAY(SELECT json_array_elements_text(${JSON.stringify(row.eventTypes)}::json)), true,
      ${row.secretSealed}, ${row.secretPrefix}, ${row.now}, ${row.now})`.pipe(Effect.orDie)
  return yield* load(row.company, row.id)
})

export const update = Effect.fn("EndpointStore.update")(function*(company: string, id: number, fields: {
  readonly url?: string | undefined
  readonly description?: string | null | undefined
  readonly eventTypes?: ReadonlyArray<string> | undefined
  readonly enabled?: boolean | undefined
  readonly now: string
}) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`UPDATE webhook_endpoints SET updated_at = ${fields.now}
      ${fields.url === undefined ? sql`` : sql`, url = ${fields.url}`}
      ${fields.description === undefined ? sql`` : sql`, description = ${fields.description}`}
      ${fields.eventTypes === undefined ? sql`` : sql`, event_types = ARRAY(SELECT json_array_elements_text(${JSON.stringify(fields.eventTypes)}::json))`}
      ${fields.enabled === undefined ? sql`` : sql`, enabled = ${fields.enabled}, disabled_reason = NULL, failing_since = NULL`}
    WHERE company_id = ${company} AND id = ${id}`.pipe(Effect.orDie)
  return yield* load(company, id)
})

/** Marks the endpoint removed (and off, so the outbox stops keeping its events); gives up its waiting deliveries. */
export const remove = Effect.fn("EndpointStore.remove")(function*(company: string, id: number, now: string) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`UPDATE webhook_endpoints SET removed_at = ${now}, enabled = false, updated_at = ${now}
    WHERE company_id = ${company} AND id = ${id}`.pipe(Effect.orDie)
  const given = yield* sql`UPDATE webhook_deliveries SET status = 'given_up', next_attempt_at = NULL,
      error = 'The endpoint was removed.'
    WHERE company_id = ${company} AND endpoint_id = ${id} AND status = 'pending' RETURNING id`.pipe(Effect.orDie)
  return given.length
})

export const rotate = Effect.fn("EndpointStore.rotate")(function*(company: string, id: number, rotation: {
  readonly secretSealed: string
  readonly secretPrefix: string
  /** The sealed secret being replaced, re-sealed as the previous one; null when it stops at once. */
  readonly previousSealed: string | null
  readonly previousValidUntil: string | null
  readonly now: string
}) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`UPDATE webhook_endpoints SET secret_sealed = ${rotation.secretSealed}, secret_prefix = ${rotation.secretPrefix},
      previous_secret_sealed = ${rotation.previousSealed}, previous_valid_until = ${rotation.previousValidUntil},
      updated_at = ${rotation.now}
    WHERE company_id = ${company} AND id = ${id}`.pipe(Effect.orDie)
  return yield* load(company, id)
})

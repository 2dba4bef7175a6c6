import { Context, Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { Events } from "@ledger/api"
import { RequestContext } from "../kernel/RequestContext.ts"

/**
 * The outbox: an event is written in the transaction of the change it describes; delivery
 * (webhooks) reads the outbox later, so a crash never loses or invents one. Events exist only
 * while an endpoint wants them (spec 6.2 rule 4, ADR 0709): the insert keeps an event only when an
 * enabled endpoint of its company subscribes to its type or to `*`.
 *
 * `EventType` is the contract's one list (`@ledger/api` `Events`, ADR 2010): each area declares its
 * events in `packages/api/src/<area>/Events.ts`, so emitting a type no area declares is a type
 * error, and every type emitted is one an endpoint may subscribe to.
 */
export type EventType = Events.EventType

/** An event as it is stored; waiting in a request's `Pending` list until the request's last statement. */
export type PendingEvent = {
  readonly company_id: string
  readonly event_type: EventType
  readonly payload: string
  readonly occurred_at: string
}

/**
 * The events of the request being served, when the Dispatcher runs it: they are inserted by the
 * statement that completes the request (with its audit event and idempotency result), not one
 * round trip each. Nothing reads the outbox inside the request that writes it, and a failed
 * request rolls back whatever it emitted either way. Outside a request (workers), `emit` inserts
 * at once.
 */
export class Pending extends Context.Service<Pending, Array<PendingEvent>>()("@ledger/engine/Outbox/Pending") {}

export const emit = Effect.fn("Outbox.emit")(function*(eventType: EventType, payload: Record<string, unknown>) {
  const request = yield* RequestContext
  if (request.companyId === null) return yield* Effect.die(new Error("Outbox.emit needs a company"))
  const event: PendingEvent = {
    company_id: request.companyId,
    event_type: eventType,
    payload: JSON.stringify(payload),
    occurred_at: request.now
  }
  const pending = yield* Effect.serviceOption(Pending)
  if (pending._tag === "Some") {
    pending.value.push(event)
    return
  }
  const sql = yield* SqlClient.SqlClient
  yield* insert(sql, [event])
})

/**
 * The INSERT of events, their ids in the order they were emitted: every insert into
 * `outbox_events` is this one (a group commit runs it inside its statement). It keeps an event only
 * when an enabled endpoint of its company wants its type, as read by this statement: an endpoint
 * enabled, changed or removed by a transaction that committed before it counts, and one that
 * commits later sees only later events. The events go as one json parameter whatever their number.
 * Each event's endpoints are found by its company in a scalar subquery, which the planner cannot
 * turn into a join over every company's endpoints.
 */
export const insert = (sql: SqlClient.SqlClient, events: ReadonlyArray<PendingEvent>) =>
  sql`INSERT INTO outbox_events (company_id, event_type, payload, occurred_at)
      SELECT o.company_id, o.event_type, o.payload::jsonb, o.occurred_at
      FROM ROWS FROM (json_to_recordset(${JSON.stringify(events)}::json) AS (company_id uuid, event_type text,
        payload text, occurred_at timestamptz)) WITH ORDINALITY AS o(company_id, event_type, payload, occurred_at, emitted)
      WHERE (SELECT true FROM webhook_endpoints w WHERE w.company_id = o.company_id AND w.enabled
        AND (o.event_type = ANY (w.event_types) OR '*' = ANY (w.event_types)) LIMIT 1)
      ORDER BY o.emitted`

/** The INSERT of a request's pending events (see `insert`); null when there are none. */
export const insertPending = (sql: SqlClient.SqlClient, events: ReadonlyArray<PendingEvent>) =>
  events.length === 0 ? null : insert(sql, events)

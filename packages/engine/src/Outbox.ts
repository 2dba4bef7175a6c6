import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { RequestContext } from "./RequestContext.ts"

/**
 * Event types of spec 6.1. An event is written to the outbox in the transaction of the change it
 * describes; delivery (webhooks) reads the outbox later, so a crash never loses or invents one.
 */
export type EventType =
  | "entry.posted"
  | "entry.reversed"
  | "invoice.created"
  | "invoice.paid"
  | "invoice.voided"
  | "bill.created"
  | "bill.paid"
  | "bill.voided"
  | "payment.received"
  | "payment.made"
  | "proposal.created"
  | "proposal.decided"
  | "reconciliation.finished"
  | "period.status_changed"
  | "integration.error"

export const emit = Effect.fn("Outbox.emit")(function*(eventType: EventType, payload: Record<string, unknown>) {
  const sql = yield* SqlClient.SqlClient
  const request = yield* RequestContext
  if (request.companyId === null) return yield* Effect.die(new Error("Outbox.emit needs a company"))
  yield* sql`INSERT INTO outbox_events ${sql.insert({
    company_id: request.companyId,
    event_type: eventType,
    payload: JSON.stringify(payload),
    occurred_at: request.now
  })}`
})

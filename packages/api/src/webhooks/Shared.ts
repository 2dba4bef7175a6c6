import { Schema } from "effect"
import { Id, Timestamp } from "../Common.ts"
import { eventTypes } from "../Events.ts"

/** The contract pieces the webhooks area's resources share: limits, event types, a delivery. */

export const area = "4.15 Webhooks"

/** Spec 8.2: at most 10 endpoints per company. */
export const endpointsPerCompanyMax = 10
export const urlLengthMax = 2_048
export const descriptionLengthMax = 500
/** Spec 4.15: `previous_valid_hours` 0 to 168, default 24. */
export const previousValidHoursMax = 168
export const previousValidHoursDefault = 24
/** Spec 6.2 rule 4: the event feed is kept 30 days. */
export const eventRetentionDays = 30
/** Deliveries shown by `GET /v1/webhooks/{id}` ("latest deliveries"). */
export const latestDeliveriesShown = 10

/**
 * The event types an endpoint may subscribe to (`*`: all of them): spec 6.1's and the other
 * areas' (ADR 2010), each declared once by its area and gathered in `Events.ts`.
 */
export { type EventType, eventTypes } from "../Events.ts"

/** What a test delivery's event is called (spec 6.1); never subscribed to. */
export const testEventType = "webhook.test"

/**
 * Entries in an endpoint's `event_types` (the database's bound too, migration 0038): every
 * declared type and `*`, with room for areas to declare more (a test keeps the catalog under it).
 */
export const subscriptionsMax = 64

export const Subscription = Schema.Literals([...eventTypes, "*"])
export const Subscriptions = Schema.Array(Subscription).check(
  Schema.isMinLength(1),
  Schema.isMaxLength(subscriptionsMax)
).annotate({
  description: "Event types (spec 6.1 and ADR 2010; `GET /v1/webhooks` lists them with what emits each), or `*` for all of them."
})

export const IdPath = Schema.Struct({ id: Id })

export const DeliveryStatus = Schema.Literals(["pending", "succeeded", "failed", "given_up"])

/** One delivery of one event to one endpoint, as the delivery log shows it (spec 6.2 rule 7). */
export const Delivery = Schema.Struct({
  id: Id,
  endpoint_id: Id,
  event_id: Id,
  event_type: Schema.String,
  test: Schema.Boolean,
  status: DeliveryStatus,
  attempts: Schema.Int,
  response_status: Schema.NullOr(Schema.Int),
  error: Schema.NullOr(Schema.String),
  last_attempt_at: Schema.NullOr(Timestamp),
  next_attempt_at: Schema.NullOr(Timestamp),
  created_at: Timestamp
}).annotate({ identifier: "WebhookDelivery" })
export type Delivery = typeof Delivery.Type

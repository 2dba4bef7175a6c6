import { Schema } from "effect"
import { Id, Timestamp } from "../Common.ts"

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
export const deliveriesPageMax = 100
export const deliveriesPageDefault = 25

/** Spec 6.1: the event types an endpoint may subscribe to (`*`: all of them). */
export const eventTypes = [
  "entry.posted",
  "entry.reversed",
  "invoice.created",
  "invoice.paid",
  "invoice.voided",
  "bill.created",
  "bill.paid",
  "bill.voided",
  "payment.received",
  "payment.made",
  "proposal.created",
  "proposal.decided",
  "reconciliation.finished",
  "period.status_changed",
  "integration.error"
] as const
export type EventType = typeof eventTypes[number]

/** What a test delivery's event is called (spec 6.1); never subscribed to. */
export const testEventType = "webhook.test"

export const Subscription = Schema.Literals([...eventTypes, "*"])
export const Subscriptions = Schema.Array(Subscription).check(
  Schema.isMinLength(1),
  Schema.isMaxLength(eventTypes.length + 1)
).annotate({ description: "Event types of spec 6.1, or `*` for all of them." })

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

import { Schema } from "effect"
import { CompanyId, Id, Page, PageQuery, Timestamp } from "../Common.ts"
import * as Operation from "../Operation.ts"
import { area, Delivery, IdPath } from "./Shared.ts"

/** The delivery log of an endpoint, redelivery, and the event feed (spec 4.15, 6.2). */

export const listWebhookDeliveries = Operation.make({
  id: "listWebhookDeliveries",
  method: "GET",
  path: "/v1/webhooks/{id}/deliveries",
  area,
  peopleOnly: true,
  summary: "An endpoint's deliveries, newest first: event, attempts, receiver status or error, next retry.",
  scope: "read",
  mode: "R",
  pathParams: IdPath,
  query: Schema.Struct(PageQuery),
  success: Page(Delivery)
})

export const redeliverWebhookDelivery = Operation.make({
  id: "redeliverWebhookDelivery",
  method: "POST",
  path: "/v1/webhook-deliveries/{id}/redeliver",
  area,
  peopleOnly: true,
  summary: "Queue a delivery again, at once, with fresh retries.",
  scope: "admin",
  mode: "-",
  pathParams: IdPath,
  body: Schema.Struct({}),
  success: Delivery,
  errors: ["webhook_not_redeliverable", "webhook_endpoint_disabled"]
})

export const Event = Schema.Struct({
  id: Id,
  type: Schema.String,
  created_at: Timestamp,
  company_id: CompanyId,
  data: Schema.Unknown
}).annotate({ identifier: "WebhookEvent", description: "What a delivery's body carries." })
export type Event = typeof Event.Type

export const listWebhookEvents = Operation.make({
  id: "listWebhookEvents",
  method: "GET",
  path: "/v1/webhook-events",
  area,
  peopleOnly: true,
  summary: "Events of the last 30 days that an endpoint wanted, newest first.",
  scope: "read",
  mode: "R",
  query: Schema.Struct({
    type: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(100)).annotate({ description: "Only events of this type (invoice.created...)." })),
    before: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(100)).annotate({
      description: "An event id (the page's `next_cursor`) or an ISO 8601 timestamp: only older events."
    })),
    limit: PageQuery.limit,
    cursor: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(100)).annotate({
      description: "The previous page's `next_cursor` (the same as `before`, which every list names `cursor`)."
    }))
  }),
  success: Page(Event)
})

export const operations = [listWebhookDeliveries, redeliverWebhookDelivery, listWebhookEvents] as const

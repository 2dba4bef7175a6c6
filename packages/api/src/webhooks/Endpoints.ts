import { Schema } from "effect"
import { Id, PageQuery, Timestamp } from "../Common.ts"
import * as Operation from "../Operation.ts"
import {
  area,
  Delivery,
  descriptionLengthMax,
  IdPath,
  previousValidHoursMax,
  Subscription,
  Subscriptions,
  urlLengthMax
} from "./Shared.ts"

/**
 * Webhook endpoints (spec 4.15): where a company's events are delivered, signed with a secret
 * shown once. People with admin access only; agents and AI apps are refused.
 */

const Url = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(urlLengthMax)).annotate({
  description: "https at a public address (http and private addresses only where LEDGER_WEBHOOK_ALLOW_PRIVATE=true)."
})
const Description = Schema.String.check(Schema.isMaxLength(descriptionLengthMax)).annotate({ description: "A note for people: what the endpoint is for." })

export const Endpoint = Schema.Struct({
  id: Id,
  url: Schema.String,
  description: Schema.NullOr(Schema.String),
  event_types: Schema.Array(Subscription),
  enabled: Schema.Boolean,
  disabled_reason: Schema.NullOr(Schema.Literals(["failing"])).annotate({
    description: "`failing`: turned off after persistent failure; turning the endpoint on clears it."
  }),
  secret_prefix: Schema.String.annotate({ description: "The start of the signing secret, to recognise it; never enough to sign." }),
  previous_secret_valid_until: Schema.NullOr(Timestamp).annotate({
    description: "While set and in the future, deliveries carry a second signature made with the previous secret."
  }),
  created_at: Timestamp,
  updated_at: Timestamp
}).annotate({ identifier: "WebhookEndpoint" })
export type Endpoint = typeof Endpoint.Type

const EventTypeInfo = Schema.Struct({
  type: Schema.String,
  emitted_by: Schema.String.annotate({ description: "Which operations emit it." })
})

const DeliveryPolicy = Schema.Struct({
  retry_delays_seconds: Schema.Array(Schema.Int).annotate({
    description: "Delay before each retry after a failed attempt (each varies by up to 10 percent)."
  }),
  attempts_max: Schema.Int,
  timeout_seconds: Schema.Int,
  turn_off: Schema.String,
  order: Schema.String,
  success: Schema.String
})

export const EndpointList = Schema.Struct({
  data: Schema.Array(Endpoint),
  has_more: Schema.Boolean,
  next_cursor: Schema.NullOr(Schema.String),
  event_types: Schema.Array(EventTypeInfo),
  delivery: DeliveryPolicy
})

const WithSecret = Schema.Struct({
  webhook: Endpoint,
  secret: Schema.String.annotate({ description: "`ldgwhsec_` + 43 characters. Shown once; sign-checking key for deliveries." })
})

const people = { peopleOnly: true, area } as const

export const listWebhooks = Operation.make({
  ...people,
  id: "listWebhooks",
  method: "GET",
  path: "/v1/webhooks",
  summary: "Webhook endpoints, the event types one may subscribe to and the delivery rules.",
  scope: "read",
  mode: "R",
  query: Schema.Struct(PageQuery),
  success: EndpointList
})

export const createWebhook = Operation.make({
  ...people,
  id: "createWebhook",
  method: "POST",
  path: "/v1/webhooks",
  summary: "Add an endpoint. The answer carries its signing secret, shown this once.",
  scope: "admin",
  mode: "K",
  body: Schema.Struct({ url: Url, description: Schema.optionalKey(Description), event_types: Subscriptions }),
  success: WithSecret,
  errors: ["webhook_limit_reached", "webhook_url_not_allowed", "webhooks_not_configured"]
})

export const getWebhook = Operation.make({
  ...people,
  id: "getWebhook",
  method: "GET",
  path: "/v1/webhooks/{id}",
  summary: "One endpoint with its latest deliveries.",
  scope: "read",
  mode: "R",
  pathParams: IdPath,
  success: Schema.Struct({ ...Endpoint.fields, latest_deliveries: Schema.Array(Delivery) })
})

export const updateWebhook = Operation.make({
  ...people,
  id: "updateWebhook",
  method: "POST",
  path: "/v1/webhooks/{id}",
  summary: "Change an endpoint's address, description or event types, or turn it off or on.",
  scope: "admin",
  mode: "-",
  pathParams: IdPath,
  body: Schema.Struct({
    url: Schema.optionalKey(Url),
    description: Schema.optionalKey(Schema.NullOr(Description)),
    event_types: Schema.optionalKey(Subscriptions),
    enabled: Schema.optionalKey(Schema.Boolean.annotate({ description: "False pauses deliveries to the endpoint; true resumes them." }))
  }),
  success: Endpoint,
  errors: ["webhook_url_not_allowed", "webhooks_not_configured"]
})

export const removeWebhook = Operation.make({
  ...people,
  id: "removeWebhook",
  method: "POST",
  path: "/v1/webhooks/{id}/remove",
  summary: "Remove an endpoint; its waiting deliveries are given up.",
  scope: "admin",
  mode: "-",
  pathParams: IdPath,
  body: Schema.Struct({}),
  success: Schema.Struct({ id: Id, removed: Schema.Boolean, deliveries_given_up: Schema.Int })
})

export const rotateWebhookSecret = Operation.make({
  ...people,
  id: "rotateWebhookSecret",
  method: "POST",
  path: "/v1/webhooks/{id}/rotate-secret",
  summary: "A new signing secret, shown once; the previous one keeps signing for previous_valid_hours.",
  scope: "admin",
  mode: "K",
  status: 200,
  pathParams: IdPath,
  body: Schema.Struct({
    previous_valid_hours: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: previousValidHoursMax })).annotate({
      description: "How many hours deliveries also carry a signature with the previous secret."
    }))
  }),
  success: WithSecret,
  errors: ["webhooks_not_configured"]
})

export const testWebhook = Operation.make({
  ...people,
  id: "testWebhook",
  method: "POST",
  path: "/v1/webhooks/{id}/test",
  summary: "Send a `webhook.test` event now, signed like any delivery and not retried; says what the receiver answered.",
  scope: "admin",
  mode: "-",
  pathParams: IdPath,
  body: Schema.Struct({}),
  success: Schema.Struct({
    delivered: Schema.Boolean,
    response_status: Schema.NullOr(Schema.Int),
    response_body: Schema.NullOr(Schema.String).annotate({ description: "The start of the receiver's answer (at most 1 KB)." }),
    error: Schema.NullOr(Schema.String),
    duration_ms: Schema.NullOr(Schema.Int),
    delivery: Delivery
  }),
  errors: ["webhook_endpoint_disabled", "webhooks_not_configured"]
})

export const operations = [
  listWebhooks,
  createWebhook,
  getWebhook,
  updateWebhook,
  removeWebhook,
  rotateWebhookSecret,
  testWebhook
] as const

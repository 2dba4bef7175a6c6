import { Events, Webhooks } from "@ledger/api"
import * as JsonSchema from "../JsonSchema.ts"

type Json = Record<string, unknown>

/**
 * OpenAPI 3.1's `webhooks`: one entry per event type the areas declare (`@ledger/api` `Events`,
 * ADR 2010), the request Ledger sends to a subscribed endpoint: the event envelope (DECISIONS.md
 * "Webhooks") with `type` fixed, its headers, and which operations emit it.
 */

export const eventRef = { $ref: "#/components/schemas/WebhookEvent" }

/** The envelope every delivery carries, for `components.schemas`. */
export const eventSchema = (): Json => JsonSchema.of(Webhooks.Deliveries.Event, { closed: false })

const header = (name: string, description: string, required = true): Json => ({
  name,
  in: "header",
  required,
  description,
  schema: { type: "string" }
})

const headers: ReadonlyArray<Json> = [
  header("Ledger-Signature", "`t=<unix seconds>,v1=<hex HMAC-SHA256 of t + \".\" + raw body>` keyed with the endpoint's secret; a second `v1` while a rotated secret is still valid."),
  header("Ledger-Event-Id", "The event's id, the same on every retry and redelivery: drop repeats by it."),
  header("Ledger-Event-Type", "The event's type, to route before parsing."),
  header("Ledger-Delivery-Id", "The delivery's id (absent on a test delivery).", false)
]

export const webhooks = (): Json =>
  Object.fromEntries(Events.eventTypes.map((type) => {
    const declared = Events.declared[type]
    return [type, {
      post: {
        operationId: `event:${type}`,
        summary: type,
        description: `Emitted by: ${declared.emittedBy}\n\nDeclared by the ${declared.area} area. Subscribe with \`event_types\` on \`POST /v1/webhooks\`.`,
        tags: [Webhooks.Shared.area],
        parameters: headers,
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: { allOf: [eventRef, { type: "object", properties: { type: { const: type } } }] }
            }
          }
        },
        responses: {
          "200": { description: "Any 2xx within 10 seconds takes the delivery; anything else is retried (`GET /v1/webhooks` `delivery`)." }
        }
      }
    }]
  }))

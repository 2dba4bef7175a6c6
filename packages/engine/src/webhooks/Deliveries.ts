import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Webhooks } from "@ledger/api"
import { requireCompanyId } from "../kernel/CompanyContext.ts"
import * as Handler from "../kernel/Handler.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Pagination from "../kernel/Pagination.ts"
import * as Row from "../kernel/Row.ts"
import * as DeliveryStore from "./DeliveryStore.ts"
import * as EndpointStore from "./EndpointStore.ts"

const { Deliveries, Shared } = Webhooks

/** `before`: an event id (digits) or an ISO 8601 timestamp. */
const beforeOf = (before: string | undefined) => {
  if (before === undefined) return Effect.succeed(null)
  if (/^\d{1,18}$/.test(before)) return Effect.succeed({ id: Number(before) } as const)
  const ms = Date.parse(before)
  if (Number.isNaN(ms)) {
    return Effect.fail(ApiError.invalidRequest([{ path: ["query", "before"], message: "An event id or an ISO 8601 timestamp" }]))
  }
  return Effect.succeed({ at: new Date(ms).toISOString() } as const)
}

const event = (row: Record<string, unknown>): Webhooks.Deliveries.Event => ({
  id: Row.int(row.id),
  type: String(row.event_type),
  created_at: Row.iso(row.occurred_at),
  company_id: String(row.company_id),
  data: Row.json(row.payload)
})

export const handlers = [
  Handler.make(Deliveries.listWebhookDeliveries, ({ path, query }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      yield* EndpointStore.load(company, path.id)
      const limit = Pagination.limitOf(query)
      const rows = yield* DeliveryStore.latest(company, path.id, limit + 1, yield* Pagination.afterId(query))
      return { body: Pagination.page(rows, limit, (row) => row.id, (row) => row) }
    })),

  Handler.make(Deliveries.redeliverWebhookDelivery, ({ path }) =>
    Effect.gen(function*() {
      const request = yield* RequestContext
      const company = yield* requireCompanyId
      const row = yield* DeliveryStore.load(company, path.id)
      if (row.test === true) {
        return yield* Effect.fail(ApiError.fail("webhook_not_redeliverable", "A test delivery is not redelivered; send another test."))
      }
      if (row.status === "pending") {
        return yield* Effect.fail(ApiError.fail("webhook_not_redeliverable", "The delivery is still waiting to be sent."))
      }
      if (row.endpoint_enabled !== true) {
        return yield* Effect.fail(ApiError.fail("webhook_endpoint_disabled", "The endpoint is turned off; turn it on first."))
      }
      const delivery = yield* DeliveryStore.requeue(company, path.id, request.now)
      return { body: delivery, audit: { targetType: "webhook_delivery", targetId: path.id } }
    })),

  Handler.make(Deliveries.listWebhookEvents, ({ query }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const company = yield* requireCompanyId
      const before = yield* beforeOf(query.cursor ?? query.before)
      const limit = Pagination.limitOf(query)
      const kept = new Date(Date.parse(request.now) - Shared.eventRetentionDays * 86_400_000).toISOString()
      const rows = yield* sql<Record<string, unknown>>`SELECT company_id, id, event_type, payload, occurred_at FROM outbox_events
        WHERE company_id = ${company} AND occurred_at >= ${kept}
        ${query.type === undefined ? sql`` : sql`AND event_type = ${query.type}`}
        ${before === null ? sql`` : "id" in before ? sql`AND id < ${before.id}` : sql`AND occurred_at < ${before.at}`}
        ORDER BY id DESC LIMIT ${limit + 1}`.pipe(Effect.orDie)
      const shown = rows.slice(0, limit)
      const last = shown[shown.length - 1]
      return {
        body: {
          data: shown.map(event),
          has_more: rows.length > limit,
          next_cursor: rows.length > limit && last !== undefined ? String(Row.int(last.id)) : null
        }
      }
    }))
]

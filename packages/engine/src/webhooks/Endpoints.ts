import { Effect } from "effect"
import { ApiError, Events, Webhooks } from "@ledger/api"
import { requireCompanyId } from "../kernel/CompanyContext.ts"
import * as Handler from "../kernel/Handler.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Pagination from "../kernel/Pagination.ts"
import * as Row from "../kernel/Row.ts"
import * as Secret from "../kernel/Secret.ts"
import { TokenSealer } from "../ports/TokenSealer.ts"
import { addressProblem, WebhookTransport } from "../ports/WebhookTransport.ts"
import * as Delivery from "./Delivery.ts"
import * as DeliveryStore from "./DeliveryStore.ts"
import * as EndpointStore from "./EndpointStore.ts"
import * as WebhookRules from "./WebhookRules.ts"

const { Endpoints, Shared } = Webhooks

/** The transport and the sealer, or the 503 that says this deployment cannot deliver webhooks. */
const requireConfigured = Effect.gen(function*() {
  const transport = yield* WebhookTransport
  const sealer = yield* TokenSealer
  if (!transport.configured || !sealer.configured) {
    return yield* Effect.fail(ApiError.fail(
      "webhooks_not_configured",
      "Webhooks need a master key (LEDGER_MASTER_KEY) and the webhook transport on this deployment."
    ))
  }
  return { transport, sealer }
})

/** Spec 4.15: https at a public address, checked without DNS here and with it by the transport. */
const checkUrl = (url: string) =>
  Effect.gen(function*() {
    const { transport } = yield* requireConfigured
    const problem = addressProblem(url, transport.allowPrivate)
    const refusal = (message: string) =>
      ApiError.fail("webhook_url_not_allowed", message, { issues: [{ path: ["body", "url"], message }] })
    if (problem !== null) return yield* Effect.fail(refusal(problem))
    yield* transport.vet(url).pipe(Effect.mapError((failure) => refusal(failure.message)))
  })

/** A new signing secret, its sealed form bound to the endpoint, and the prefix lists show. */
const newSecret = (company: string, endpointId: number) =>
  Effect.gen(function*() {
    const { sealer } = yield* requireConfigured
    const secret = yield* Secret.generate("ldgwhsec_")
    const sealed = yield* sealer.seal(secret, Delivery.sealedFor(company, endpointId))
    return { secret, sealed, prefix: Secret.displayPrefix(secret) }
  })

const policy = {
  retry_delays_seconds: WebhookRules.retryDelaysSeconds,
  attempts_max: WebhookRules.attemptsMax,
  timeout_seconds: WebhookRules.timeoutSeconds,
  turn_off: `An endpoint whose every attempt has failed for ${WebhookRules.turnOffAfterSeconds / 3600} hours is turned off ` +
    "(enabled false, disabled_reason failing); turning it on clears that. Waiting deliveries of an endpoint that is off are given up.",
  order: "Deliveries are independent and may arrive out of order, or more than once: order by the event's created_at and id, " +
    "and drop repeats by Ledger-Event-Id.",
  success: "Any 2xx answer within the timeout; anything else, or no answer, is retried. Redirects are not followed."
}

export const handlers = [
  Handler.make(Endpoints.listWebhooks, ({ query }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      // At most ten endpoints (newest first): paged like every list, in memory.
      const after = yield* Pagination.afterId(query)
      const rows = (yield* EndpointStore.list(company)).filter((row) => after === null || Row.int(row.id) < after)
      return {
        body: {
          ...Pagination.page(rows, Pagination.limitOf(query), (row) => Row.int(row.id), EndpointStore.endpoint),
          event_types: Events.eventTypes.map((type) => ({ type, emitted_by: Events.declared[type].emittedBy })),
          delivery: policy
        }
      }
    })),

  Handler.make(Endpoints.createWebhook, ({ body }) =>
    Effect.gen(function*() {
      const request = yield* RequestContext
      const company = yield* requireCompanyId
      yield* checkUrl(body.url)
      if ((yield* EndpointStore.countLocked(company)) >= Shared.endpointsPerCompanyMax) {
        return yield* Effect.fail(ApiError.fail(
          "webhook_limit_reached",
          `A company has at most ${Shared.endpointsPerCompanyMax} webhook endpoints; remove one first.`,
          { limit: Shared.endpointsPerCompanyMax }
        ))
      }
      const id = yield* EndpointStore.nextId()
      const secret = yield* newSecret(company, id)
      const row = yield* EndpointStore.insert({
        company,
        id,
        url: body.url,
        description: body.description ?? null,
        eventTypes: WebhookRules.normalizeSubscriptions(body.event_types),
        secretSealed: secret.sealed,
        secretPrefix: secret.prefix,
        now: request.now
      })
      const webhook = EndpointStore.endpoint(row)
      return {
        body: { webhook, secret: secret.secret },
        audit: { targetType: "webhook_endpoint", targetId: id, details: { url: body.url, event_types: webhook.event_types } }
      }
    })),

  Handler.make(Endpoints.getWebhook, ({ path }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      const row = yield* EndpointStore.load(company, path.id)
      const latest = yield* DeliveryStore.latest(company, path.id, Shared.latestDeliveriesShown)
      return { body: { ...EndpointStore.endpoint(row), latest_deliveries: latest } }
    })),

  Handler.make(Endpoints.updateWebhook, ({ path, body }) =>
    Effect.gen(function*() {
      const request = yield* RequestContext
      const company = yield* requireCompanyId
      yield* EndpointStore.load(company, path.id)
      if (body.url !== undefined) yield* checkUrl(body.url)
      const row = yield* EndpointStore.update(company, path.id, {
        url: body.url,
        description: body.description,
        eventTypes: body.event_types === undefined ? undefined : WebhookRules.normalizeSubscriptions(body.event_types),
        enabled: body.enabled,
        now: request.now
      })
      return {
        body: EndpointStore.endpoint(row),
        audit: { targetType: "webhook_endpoint", targetId: path.id, details: { changed: Object.keys(body) } }
      }
    })),

  Handler.make(Endpoints.removeWebhook, ({ path }) =>
    Effect.gen(function*() {
      const request = yield* RequestContext
      const company = yield* requireCompanyId
      yield* EndpointStore.load(company, path.id)
      const givenUp = yield* EndpointStore.remove(company, path.id, request.now)
      return {
        body: { id: path.id, removed: true, deliveries_given_up: givenUp },
        audit: { targetType: "webhook_endpoint", targetId: path.id, details: { deliveries_given_up: givenUp } }
      }
    })),

  Handler.make(Endpoints.rotateWebhookSecret, ({ path, body }) =>
    Effect.gen(function*() {
      const request = yield* RequestContext
      const company = yield* requireCompanyId
      const current = yield* EndpointStore.load(company, path.id)
      const secret = yield* newSecret(company, path.id)
      const hours = body.previous_valid_hours ?? Shared.previousValidHoursDefault
      const until = hours === 0 ? null : new Date(Date.parse(request.now) + hours * 3_600_000).toISOString()
      const row = yield* EndpointStore.rotate(company, path.id, {
        secretSealed: secret.sealed,
        secretPrefix: secret.prefix,
        previousSealed: until === null ? null : String(current.secret_sealed),
        previousValidUntil: until,
        now: request.now
      })
      return {
        body: { webhook: EndpointStore.endpoint(row), secret: secret.secret },
        audit: { targetType: "webhook_endpoint", targetId: path.id, details: { previous_valid_hours: hours } }
      }
    })),

  Handler.make(Endpoints.testWebhook, ({ path }) =>
    Effect.gen(function*() {
      const request = yield* RequestContext
      const company = yield* requireCompanyId
      const row = yield* EndpointStore.load(company, path.id)
      yield* requireConfigured
      if (row.enabled !== true) {
        return yield* Effect.fail(ApiError.fail("webhook_endpoint_disabled", "The endpoint is turned off; turn it on to test it."))
      }
      const eventId = yield* EndpointStore.nextId()
      const sent = yield* Delivery.send({
        url: String(row.url),
        deliveryId: null,
        signing: {
          company,
          endpointId: path.id,
          secretSealed: String(row.secret_sealed),
          previousSealed: (row.previous_secret_sealed as string | null) ?? null,
          previousValidUntilMs: row.previous_valid_until === null ? null : Date.parse(Row.iso(row.previous_valid_until))
        },
        event: { id: eventId, type: Shared.testEventType, createdAt: request.now, data: { webhook_id: path.id, test: true } }
      })
      const delivery = yield* DeliveryStore.recordTest({
        company,
        endpointId: path.id,
        eventId,
        ok: sent.ok,
        status: sent.status,
        error: sent.error,
        now: request.now
      })
      return {
        body: {
          delivered: sent.ok,
          response_status: sent.status,
          response_body: sent.body,
          error: sent.error,
          duration_ms: sent.durationMs,
          delivery
        },
        audit: { targetType: "webhook_endpoint", targetId: path.id, details: { delivered: sent.ok, response_status: sent.status } }
      }
    }))
]

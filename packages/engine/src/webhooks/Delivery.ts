import { Clock, Effect } from "effect"
import type { JobOutcome } from "../pipeline/Area.ts"
import * as Row from "../kernel/Row.ts"
import type { Job } from "../store/Jobs.ts"
import { TokenSealer } from "../ports/TokenSealer.ts"
import { WebhookTransport } from "../ports/WebhookTransport.ts"
import * as DeliveryStore from "./DeliveryStore.ts"
import * as WebhookRules from "./WebhookRules.ts"

/**
 * Sending a delivery: the signed POST (shared by the worker's job and the test delivery), and the
 * job `webhook.deliver` that makes one attempt and records it (ADR 1101).
 */

/** What the sealed secrets of an endpoint are bound to: a sealed secret copied elsewhere does not open. */
export const sealedFor = (company: string, endpointId: number): string => `webhook_endpoint:${company}:${endpointId}`

export interface Signing {
  readonly company: string
  readonly endpointId: number
  readonly secretSealed: string
  readonly previousSealed: string | null
  readonly previousValidUntilMs: number | null
}

/** The secrets that sign now: the current one, and the previous one while it is still valid. */
export const secretsOf = (signing: Signing, nowMs: number) =>
  Effect.gen(function*() {
    const sealer = yield* TokenSealer
    const boundTo = sealedFor(signing.company, signing.endpointId)
    const current = yield* sealer.open(signing.secretSealed, boundTo)
    const previousValid = signing.previousSealed !== null && signing.previousValidUntilMs !== null && signing.previousValidUntilMs > nowMs
    return previousValid ? [current, yield* sealer.open(signing.previousSealed!, boundTo)] : [current]
  })

export interface Sent {
  readonly ok: boolean
  readonly status: number | null
  readonly body: string | null
  readonly error: string | null
  readonly durationMs: number | null
}

/** One signed POST of an event to an endpoint; never fails: a failure is what it reports. */
export const send = (input: {
  readonly url: string
  readonly signing: Signing
  readonly deliveryId: number | null
  readonly event: { readonly id: number; readonly type: string; readonly createdAt: string; readonly data: unknown }
}) =>
  Effect.gen(function*() {
    const transport = yield* WebhookTransport
    const nowMs = yield* Clock.currentTimeMillis
    const secrets = yield* secretsOf(input.signing, nowMs)
    const body = WebhookRules.eventBody({ ...input.event, companyId: input.signing.company })
    const timestamp = Math.floor(nowMs / 1000)
    const headers: Record<string, string> = {
      "content-type": "application/json",
      "user-agent": "Ledger-Webhooks/1",
      "ledger-signature": WebhookRules.signatureHeader(secrets, timestamp, body),
      "ledger-event-id": String(input.event.id),
      "ledger-event-type": input.event.type
    }
    if (input.deliveryId !== null) headers["ledger-delivery-id"] = String(input.deliveryId)
    return yield* transport.send({ url: input.url, headers, body, timeoutMs: WebhookRules.timeoutSeconds * 1000 }).pipe(
      Effect.map((response): Sent => {
        const ok = response.status >= 200 && response.status < 300
        return {
          ok,
          status: response.status,
          body: response.body,
          error: ok ? null : `The receiver answered ${response.status}.`,
          durationMs: response.durationMs
        }
      }),
      Effect.catch((failure) => Effect.succeed<Sent>({ ok: false, status: null, body: null, error: failure.message, durationMs: null }))
    )
  })

const msOrNull = (value: unknown): number | null => value === null || value === undefined ? null : Date.parse(Row.iso(value))

/** The job `webhook.deliver`: one attempt of one delivery, if the job's token is still the delivery's. */
export const deliver = (job: Job) =>
  Effect.gen(function*() {
    const company = job.companyId ?? ""
    const id = Number(job.payload.delivery_id)
    const token = Number(job.payload.token)
    const row = yield* DeliveryStore.forSending(company, id)
    if (row === undefined || row.status !== "pending" || Row.int(row.token) !== token) return { _tag: "Done" } as JobOutcome
    if (row.removed_at !== null || row.enabled !== true) {
      yield* DeliveryStore.giveUp(company, id, token, "The endpoint is turned off.")
      return { _tag: "Done" } as JobOutcome
    }
    if (row.payload === null || row.payload === undefined) {
      yield* DeliveryStore.giveUp(company, id, token, "The event is no longer kept.")
      return { _tag: "Done" } as JobOutcome
    }
    const endpointId = Row.int(row.endpoint_id)
    const sent = yield* send({
      url: String(row.url),
      deliveryId: id,
      signing: {
        company,
        endpointId,
        secretSealed: String(row.secret_sealed),
        previousSealed: (row.previous_secret_sealed as string | null) ?? null,
        previousValidUntilMs: msOrNull(row.previous_valid_until)
      },
      event: { id: Row.int(row.event_id), type: String(row.event_type), createdAt: Row.iso(row.occurred_at), data: Row.json(row.payload) }
    })
    const nowMs = yield* Clock.currentTimeMillis
    const attempts = Row.int(row.attempts) + 1
    const retry = sent.ok ? null : WebhookRules.afterFailure(id, attempts)
    const failingSinceMs = msOrNull(row.failing_since) ?? nowMs
    yield* DeliveryStore.recordAttempt({
      company,
      id,
      endpointId,
      token,
      attempts,
      ok: sent.ok,
      status: sent.status,
      error: sent.error,
      now: new Date(nowMs).toISOString(),
      retryAt: retry === null ? null : new Date(nowMs + retry.retryInSeconds * 1000).toISOString(),
      turnOff: !sent.ok && WebhookRules.turnsOff(failingSinceMs, nowMs)
    })
    return { _tag: "Done" } as JobOutcome
  })

/** The periodic job `webhooks.prune`: the feed and the delivery log keep 30 days. */
export const prune = () =>
  Effect.gen(function*() {
    const nowMs = yield* Clock.currentTimeMillis
    yield* DeliveryStore.prune(new Date(nowMs - 30 * 86_400_000).toISOString())
    return { _tag: "Done" } as JobOutcome
  })

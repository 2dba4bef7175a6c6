import { Clock, Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Worker from "@ledger/server/workers"
import { createClient } from "@ledger/client"
import { connectMcp, newKey, type TestApp } from "../support/index.ts"
import { appForDelivery, createEndpoint, drain, postEntry, type Receiver, startReceiver, verify } from "./support.ts"

/**
 * Deliveries end to end (spec 4.15, 6.2): a change commits, its event is fanned out to the
 * endpoints that want it, the workers POST it signed to a real HTTP receiver on loopback, and the
 * receiver checks the signature with the SDK's verifier (@ledger/client Webhooks.verifySignature).
 */

let app: TestApp
let receiver: Receiver

beforeAll(async () => {
  app = await appForDelivery()
  receiver = await startReceiver()
}, 60_000)
afterAll(async () => {
  await receiver?.close()
  await app?.close()
})

const now = () => app.clock!.currentTimeMillisUnsafe()
const fresh = () => receiver.received.splice(0)

const deliveriesOf = async (company: { ownerKey: string }, endpointId: number) =>
  (await app.call("GET", `/v1/webhooks/${endpointId}/deliveries`, { token: company.ownerKey })).body.data as Array<any>

describe("delivery", () => {
  it("delivers a posting signed, verifiable by the SDK, with the event id in header and body", async () => {
    const company = await app.createCompany({ name: "Delivered Co" })
    const { webhook, secret } = await createEndpoint(app, company, { url: receiver.url, event_types: ["entry.posted"] })
    fresh()
    const posted = await postEntry(app, company, 12_345)
    expect(posted.status).toBe(201)
    await drain(app)
    const [delivery, ...others] = fresh()
    expect(others).toEqual([])
    expect(await verify(delivery!, secret, now())).toEqual({ valid: true, timestamp: Math.floor(now() / 1000) })
    expect(await verify(delivery!, "ldgwhsec_not-the-secret", now())).toMatchObject({ valid: false })
    expect(delivery!.body).toMatchObject({ type: "entry.posted", company_id: company.companyId, data: { entry_id: posted.body.id, total_cents: 12_345 } })
    expect(delivery!.headers["ledger-event-id"]).toBe(String(delivery!.body.id))
    expect(delivery!.headers["content-type"]).toBe("application/json")
    const log = await deliveriesOf(company, webhook.id)
    expect(log).toMatchObject([{ event_id: delivery!.body.id, event_type: "entry.posted", status: "succeeded", attempts: 1, response_status: 200 }])
    const feed = await app.call("GET", "/v1/webhook-events?type=entry.posted", { token: company.ownerKey })
    expect(feed.body.data.map((event: any) => event.id)).toEqual([delivery!.body.id])
    expect(JSON.parse(delivery!.raw)).toEqual(feed.body.data[0])
  })

  it("retries a failing receiver with backoff: three failures then success deliver the same event once more, not lost nor doubled", async () => {
    const company = await app.createCompany({ name: "Flaky Receiver Co" })
    const { webhook, secret } = await createEndpoint(app, company, { url: receiver.url, event_types: ["*"] })
    fresh()
    receiver.answerNext(500, 503, 404)
    await postEntry(app, company, 500)
    await drain(app)
    let [delivery] = await deliveriesOf(company, webhook.id)
    expect(delivery).toMatchObject({ status: "pending", attempts: 1, response_status: 500 })
    const firstRetryIn = Date.parse(delivery.next_attempt_at) - now()
    expect(firstRetryIn).toBeGreaterThanOrEqual(54_000)
    expect(firstRetryIn).toBeLessThanOrEqual(66_000)
    // Not due yet: nothing is sent.
    await drain(app)
    expect(receiver.received).toHaveLength(1)
    for (const step of ["70 seconds", "5 minutes", "18 minutes"] as const) {
      app.clock!.advance(step)
      await drain(app)
    }
    ;[delivery] = await deliveriesOf(company, webhook.id)
    expect(delivery).toMatchObject({ status: "succeeded", attempts: 4, response_status: 200, next_attempt_at: null })
    const received = fresh()
    expect(received.map((request) => request.answered)).toEqual([500, 503, 404, 200])
    expect(new Set(received.map((request) => request.headers["ledger-event-id"])).size).toBe(1)
    expect(await verify(received[3]!, secret, now())).toMatchObject({ valid: true })
    app.clock!.advance("1 day")
    await drain(app)
    expect(receiver.received).toEqual([])
  })

  it("gives up after the last retry, about three days on, and says so in the log", async () => {
    const company = await app.createCompany({ name: "Dead Receiver Co" })
    const { webhook } = await createEndpoint(app, company, { url: receiver.url, event_types: ["entry.posted"] })
    fresh()
    receiver.answerNext(...Array.from({ length: 11 }, () => 500))
    const started = now()
    await postEntry(app, company, 700)
    await drain(app)
    for (let step = 0; step < 12; step++) {
      const [waiting] = await deliveriesOf(company, webhook.id)
      if (waiting.next_attempt_at === null) break
      app.clock!.set(waiting.next_attempt_at)
      await drain(app)
    }
    const [delivery] = await deliveriesOf(company, webhook.id)
    expect(delivery).toMatchObject({ status: "failed", attempts: 11, response_status: 500, next_attempt_at: null })
    const lastAttempt = Date.parse(delivery.last_attempt_at) - started
    expect(lastAttempt).toBeGreaterThan(50 * 3_600_000)
    expect(fresh()).toHaveLength(11)
  })

  it("gives up a removed endpoint's waiting deliveries and sends them nothing more", async () => {
    const company = await app.createCompany({ name: "Removed Endpoint Co" })
    const { webhook } = await createEndpoint(app, company, { url: receiver.url, event_types: ["entry.posted"] })
    fresh()
    receiver.answerNext(500)
    await postEntry(app, company, 800)
    await drain(app)
    const removed = await app.call("POST", `/v1/webhooks/${webhook.id}/remove`, { token: company.ownerKey, body: {} })
    expect(removed.body).toEqual({ id: webhook.id, removed: true, deliveries_given_up: 1 })
    const [row] = await app.query<{ status: string }>(
      `SELECT status FROM webhook_deliveries WHERE company_id = $1 AND endpoint_id = $2`,
      [company.companyId, webhook.id]
    )
    expect(row!.status).toBe("given_up")
    app.clock!.advance("1 hour")
    await drain(app)
    expect(fresh()).toHaveLength(1)
    expect((await app.call("GET", `/v1/webhooks/${webhook.id}`, { token: company.ownerKey })).status).toBe(404)
  })

  it("signs with both secrets during a rotation's overlap, and only the new one after", async () => {
    const company = await app.createCompany({ name: "Rotating Co" })
    const { webhook, secret: oldSecret } = await createEndpoint(app, company, { url: receiver.url, event_types: ["entry.posted"] })
    const rotated = await app.call("POST", `/v1/webhooks/${webhook.id}/rotate-secret`, {
      token: company.ownerKey,
      key: newKey(),
      body: { previous_valid_hours: 2 }
    })
    expect(rotated.status).toBe(200)
    const newSecret = rotated.body.secret as string
    expect(newSecret).toMatch(/^ldgwhsec_[A-Za-z0-9_-]{43}$/)
    expect(newSecret).not.toBe(oldSecret)
    fresh()
    await postEntry(app, company, 900)
    await drain(app)
    const [during] = fresh()
    expect((during!.headers["ledger-signature"] as string).match(/v1=/g)).toHaveLength(2)
    expect(await verify(during!, oldSecret, now())).toMatchObject({ valid: true })
    expect(await verify(during!, newSecret, now())).toMatchObject({ valid: true })
    app.clock!.advance("2 hours")
    await postEntry(app, company, 901)
    await drain(app)
    const [after] = fresh()
    expect((after!.headers["ledger-signature"] as string).match(/v1=/g)).toHaveLength(1)
    expect(await verify(after!, newSecret, now())).toMatchObject({ valid: true })
    expect(await verify(after!, oldSecret, now())).toEqual({ valid: false, reason: "no_matching_signature" })
  })

  it("sends a test delivery at once, reports the receiver's answer, and never retries it", async () => {
    const company = await app.createCompany({ name: "Test Delivery Co" })
    const { webhook, secret } = await createEndpoint(app, company, { url: receiver.url, event_types: ["entry.posted"] })
    fresh()
    const ok = await app.call("POST", `/v1/webhooks/${webhook.id}/test`, { token: company.ownerKey, body: {} })
    expect(ok.status).toBe(200)
    expect(ok.body).toMatchObject({ delivered: true, response_status: 200, response_body: "thanks", error: null })
    const [test] = fresh()
    expect(test!.body).toMatchObject({ type: "webhook.test", company_id: company.companyId, data: { webhook_id: webhook.id } })
    expect(await verify(test!, secret, now())).toMatchObject({ valid: true })
    receiver.answerNext(500)
    const failed = await app.call("POST", `/v1/webhooks/${webhook.id}/test`, { token: company.ownerKey, body: {} })
    expect(failed.body).toMatchObject({ delivered: false, response_status: 500, response_body: "not now", delivery: { status: "failed", test: true } })
    app.clock!.advance("1 day")
    await drain(app)
    expect(fresh()).toHaveLength(1)
    const redeliver = await app.call("POST", `/v1/webhook-deliveries/${failed.body.delivery.id}/redeliver`, { token: company.ownerKey, body: {} })
    expect(redeliver.status).toBe(409)
    expect(redeliver.body.error.type).toBe("webhook_not_redeliverable")
  })

  it("redelivers a delivery at once with fresh retries, under the same event id", async () => {
    const company = await app.createCompany({ name: "Redelivery Co" })
    const { webhook } = await createEndpoint(app, company, { url: receiver.url, event_types: ["entry.posted"] })
    fresh()
    await postEntry(app, company, 1_000)
    await drain(app)
    const [first] = fresh()
    const [delivery] = await deliveriesOf(company, webhook.id)
    const again = await app.call("POST", `/v1/webhook-deliveries/${delivery.id}/redeliver`, { token: company.ownerKey, body: {} })
    expect(again.status).toBe(200)
    expect(again.body).toMatchObject({ id: delivery.id, status: "pending", attempts: 0 })
    await drain(app)
    const [second] = fresh()
    expect(second!.headers["ledger-event-id"]).toBe(first!.headers["ledger-event-id"])
    expect((await deliveriesOf(company, webhook.id))[0]).toMatchObject({ status: "succeeded", attempts: 1 })
  })

  it("turns an endpoint off after 72 hours of failures, and turning it on clears that", async () => {
    const company = await app.createCompany({ name: "Failing Endpoint Co" })
    const { webhook } = await createEndpoint(app, company, { url: receiver.url, event_types: ["entry.posted"] })
    fresh()
    receiver.answerNext(...Array.from({ length: 30 }, () => 500))
    await postEntry(app, company, 1_100)
    await drain(app)
    app.clock!.advance("73 hours")
    await postEntry(app, company, 1_101)
    await drain(app)
    const off = (await app.call("GET", `/v1/webhooks/${webhook.id}`, { token: company.ownerKey })).body
    expect(off).toMatchObject({ enabled: false, disabled_reason: "failing" })
    // Waiting deliveries of an endpoint that is off are given up, not sent.
    app.clock!.advance("1 day")
    const sentBefore = receiver.received.length
    await drain(app)
    expect(receiver.received.length).toBe(sentBefore)
    expect((await deliveriesOf(company, webhook.id)).every((delivery) => delivery.status !== "pending")).toBe(true)
    receiver.received.splice(0)
    receiver.clearAnswers()
    const on = await app.call("POST", `/v1/webhooks/${webhook.id}`, { token: company.ownerKey, body: { enabled: true } })
    expect(on.body).toMatchObject({ enabled: true, disabled_reason: null })
  })

  it("works over MCP: create, test and list deliveries as tools", async () => {
    const company = await app.createCompany({ name: "MCP Webhooks Co" })
    const client = await connectMcp(app, company.ownerKey)
    const created = await client.callTool({
      name: "create_webhook",
      arguments: { url: receiver.url, event_types: ["entry.posted"], idempotency_key: newKey() }
    })
    expect(created.isError).toBeFalsy()
    const { webhook, secret } = created.structuredContent as any
    fresh()
    const tested = await client.callTool({ name: "test_webhook", arguments: { id: webhook.id } })
    expect(tested.structuredContent).toMatchObject({ delivered: true, response_status: 200 })
    const [delivery] = fresh()
    expect(await verify(delivery!, secret, now())).toMatchObject({ valid: true })
    const log = await client.callTool({ name: "list_webhook_deliveries", arguments: { id: webhook.id } })
    expect((log.structuredContent as any).data).toMatchObject([{ event_type: "webhook.test", test: true, status: "succeeded" }])
    await client.close()
  })

  it("works through the SDK, its answers valid against the contract", async () => {
    const company = await app.createCompany({ name: "SDK Webhooks Co" })
    const fetchOf = ((input: RequestInfo | URL, init?: RequestInit) => app.fetch(new Request(input, init))) as typeof fetch
    const client = createClient({ baseUrl: "http://ledger.test", fetch: fetchOf, token: company.ownerKey, validateResponses: true, retry: false })
    const { webhook, secret } = await client.createWebhook({ url: receiver.url, event_types: ["entry.posted"], description: "SDK" })
    fresh()
    await postEntry(app, company, 1_234)
    await drain(app)
    const [delivery] = fresh()
    expect(await verify(delivery!, secret, now())).toMatchObject({ valid: true })
    const got = await client.getWebhook({ id: webhook.id })
    expect(got.latest_deliveries).toMatchObject([{ status: "succeeded", event_id: delivery!.body.id }])
    const listed = await client.listWebhooks({})
    expect(listed.data.map((endpoint) => endpoint.id)).toEqual([webhook.id])
    const events = await client.listWebhookEvents({ type: "entry.posted" })
    expect(events.data[0]).toMatchObject({ id: delivery!.body.id, type: "entry.posted" })
    const redelivered = await client.redeliverWebhookDelivery({ id: got.latest_deliveries[0]!.id })
    expect(redelivered.status).toBe("pending")
    const rotated = await client.rotateWebhookSecret({ id: webhook.id, previous_valid_hours: 0 })
    expect(rotated.secret).not.toBe(secret)
    expect(await client.removeWebhook({ id: webhook.id })).toMatchObject({ removed: true, deliveries_given_up: 1 })
  })

  it("lets two workers share the queue: each event is delivered exactly once between them", async () => {
    const company = await app.createCompany({ name: "Two Workers Co" })
    await createEndpoint(app, company, { url: receiver.url, event_types: ["entry.posted"] })
    fresh()
    for (let index = 0; index < 8; index++) expect((await postEntry(app, company, 2_000 + index)).status).toBe(201)
    await Promise.all([drain(app, "worker-a"), drain(app, "worker-b")])
    const ids = fresh().map((request) => request.headers["ledger-event-id"])
    expect(ids).toHaveLength(8)
    expect(new Set(ids).size).toBe(8)
  })

  it("keeps the event feed 30 days and pages it with before", async () => {
    const company = await app.createCompany({ name: "Feed Co" })
    await createEndpoint(app, company, { url: receiver.url, event_types: ["*"] })
    for (let index = 0; index < 3; index++) await postEntry(app, company, 3_000 + index)
    const page = await app.call("GET", "/v1/webhook-events?limit=2", { token: company.ownerKey })
    expect(page.body.data).toHaveLength(2)
    expect(page.body.has_more).toBe(true)
    const rest = await app.call("GET", `/v1/webhook-events?before=${page.body.next_cursor}`, { token: company.ownerKey })
    expect(rest.body.data).toHaveLength(1)
    expect(rest.body.data[0].id).toBeLessThan(page.body.data[1].id)
    await drain(app)
    fresh()
    app.clock!.advance("31 days")
    const later = await app.call("GET", "/v1/webhook-events", { token: company.ownerKey })
    expect(later.body.data).toEqual([])
    // The periodic prune deletes what the feed no longer shows, and the finished deliveries with it.
    await app.runtime.runPromise(Worker.schedulePeriodic("webhooks.prune", 0).pipe(Effect.provideService(Clock.Clock, app.clock!)))
    await drain(app)
    const left = await app.query<{ events: string | number; deliveries: string | number }>(
      `SELECT (SELECT count(*) FROM outbox_events WHERE company_id = $1) AS events,
        (SELECT count(*) FROM webhook_deliveries WHERE company_id = $1) AS deliveries`,
      [company.companyId]
    )
    expect(left.map((row) => [Number(row.events), Number(row.deliveries)])).toEqual([[0, 0]])
  })
})

import { createHmac } from "node:crypto"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { WebhookRules } from "@ledger/engine/rules"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { nodeListener } from "../src/NodeListener.ts"
import { type LedgerEvent, webhookReceiver } from "../src/Receiver.ts"

/**
 * Deliveries signed here with Node's own HMAC, independently of the SDK's Web Crypto verifier:
 * `Ledger-Signature: t=<unix>,v1=<hex HMAC-SHA256(secret, t + "." + raw body)>` (spec 6.2).
 */
const sign = (secret: string, timestamp: number, body: string | Buffer) =>
  createHmac("sha256", secret).update(`${timestamp}.`).update(body).digest("hex")

const secret = "ldgwhsec_example_current_secret_0123456789abcdef"
const previous = "ldgwhsec_example_previous_secret_fedcba9876543210"
const now = 1_750_000_000

// Bodies built by the server's own serializer (the delivery job's), so they have a real delivery's
// shape: a numeric id, created_at, company_id and data.
const company = "0197a3c2-5d1e-7f00-8000-000000000001"
const event = (id: number, type = "invoice.paid", data: unknown = { invoice_id: 1042, amount_cents: 125_00 }) =>
  WebhookRules.eventBody({ id, type, createdAt: "2025-06-15T15:06:40.000Z", companyId: company, data })

const delivery = (body: string, header: string | null) =>
  new Request("http://receiver.test/webhooks/ledger", {
    method: "POST",
    headers: { "content-type": "application/json", ...(header === null ? {} : { "ledger-signature": header }) },
    body
  })

const receiver = () => {
  const handled: Array<LedgerEvent> = []
  const handle = webhookReceiver({ secrets: [secret, previous], onEvent: (received) => void handled.push(received), nowSeconds: () => now })
  return { handled, handle }
}

describe("the webhook receiver", () => {
  it("accepts a genuine delivery, and a rotation header with both secrets' signatures", async () => {
    const { handled, handle } = receiver()
    const body = event(1001)
    const accepted = await handle(delivery(body, `t=${now},v1=${sign(secret, now, body)}`))
    expect(accepted.status).toBe(200)
    const rotating = event(1002)
    const both = await handle(delivery(rotating, `t=${now - 60},v1=${sign(secret, now - 60, rotating)},v1=${sign(previous, now - 60, rotating)}`))
    expect(both.status).toBe(200)
    // An endpoint still on the old secret's deliveries (only the previous signature) is accepted too.
    const old = event(1003)
    expect((await handle(delivery(old, `t=${now},v1=${sign(previous, now, old)}`))).status).toBe(200)
    expect(handled.map((received) => received.id)).toEqual([1001, 1002, 1003])
  })

  it("refuses a forged, altered, unsigned or stale delivery, saying why", async () => {
    const { handled, handle } = receiver()
    const body = event(1009)
    const reason = async (response: Response) => (await response.json() as { error: string }).error
    expect(await reason(await handle(delivery(body, `t=${now},v1=${sign("ldgwhsec_someone_else", now, body)}`)))).toBe("no_matching_signature")
    expect(await reason(await handle(delivery(body.replace("12500", "99999"), `t=${now},v1=${sign(secret, now, body)}`)))).toBe("no_matching_signature")
    expect(await reason(await handle(delivery(body, null)))).toBe("missing_header")
    expect(await reason(await handle(delivery(body, "sha256=deadbeef")))).toBe("malformed_header")
    expect(await reason(await handle(delivery(body, `t=${now - 3_600},v1=${sign(secret, now - 3_600, body)}`)))).toBe("timestamp_out_of_tolerance")
    expect(handled).toEqual([])
  })

  it("hands over the event as Ledger sent it, and refuses a signed body that is not an event", async () => {
    const { handled, handle } = receiver()
    const body = event(1042)
    expect((await handle(delivery(body, `t=${now},v1=${sign(secret, now, body)}`))).status).toBe(200)
    expect(handled).toEqual([JSON.parse(body)])
    const notEvent = JSON.stringify({ id: "1043", type: "invoice.paid" })
    const refused = await handle(delivery(notEvent, `t=${now},v1=${sign(secret, now, notEvent)}`))
    expect(await refused.json()).toEqual({ error: "not_an_event" })
  })

  it("acknowledges a redelivery without handling the event twice", async () => {
    const { handled, handle } = receiver()
    const body = event(1005)
    const header = `t=${now},v1=${sign(secret, now, body)}`
    expect(await (await handle(delivery(body, header))).json()).toEqual({ received: true })
    expect(await (await handle(delivery(body, header))).json()).toEqual({ received: true, duplicate: true })
    expect(handled).toHaveLength(1)
  })
})

describe("over real HTTP", () => {
  let server: Server
  let url = ""
  const handled: Array<LedgerEvent> = []
  beforeAll(async () => {
    server = createServer(nodeListener(webhookReceiver({ secrets: secret, onEvent: (received) => void handled.push(received), nowSeconds: () => now })))
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/ledger`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it("verifies the raw bytes Node receives, non-ASCII included", async () => {
    const body = Buffer.from(event(1077, "entry.posted", { entry_id: 1076, memo: "Café — 東京" }), "utf8")
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", "ledger-signature": `t=${now},v1=${sign(secret, now, body)}` },
      body: new Uint8Array(body)
    })
    expect(response.status).toBe(200)
    expect(handled.map((received) => received.id)).toEqual([1077])
    const wrong = await fetch(url, { method: "POST", headers: { "ledger-signature": `t=${now},v1=${"0".repeat(64)}` }, body: new Uint8Array(body) })
    expect(wrong.status).toBe(400)
    expect((await fetch(url)).status).toBe(405)
  })
})

import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectErrorBody } from "../support/index.ts"
import { balance, deliverAll, invoiceWithLink, makePaymentsApp, onboardedShop, payOnPage, type PaymentsApp } from "./support.ts"

/**
 * The processor's event receiver over real HTTP (ADR 1803): the fake processor POSTs each event as
 * the body with its `Stripe-Signature` header, and Ledger checks the signature over those exact
 * bytes. What the events book is recorded under the connection's system principal (ADR 1806).
 */
let world: PaymentsApp

beforeAll(async () => {
  world = await makePaymentsApp({ clock: true })
})
afterAll(async () => {
  await world.app.close()
  await world.processor.close()
})

const nowSeconds = () => Math.floor(world.app.clock!.now() / 1000)

describe("the processor's signed events", () => {
  it("verifies the raw body and header: a changed byte, a re-encoding, a stale time, a wrong secret or no header are refused; a replay applies once", async () => {
    const { app, processor } = world
    const shop = await onboardedShop(world)
    const { token } = await invoiceWithLink(app, shop, 40_00)
    await payOnPage(world, token, 1_50)
    const [event, ...others] = processor.take()
    expect(others).toEqual([])
    const { payload, signature } = event!
    const now = nowSeconds()
    // The payload as sent has whitespace: a decoded-and-re-encoded body is not what was signed.
    expect(payload).toContain("\n")
    const oneByte = payload.replace(/"type": "([a-z_.]+)"/u, (_whole, type: string) => `"type": "${type.slice(0, -1)}X"`)
    expect(oneByte).not.toBe(payload)
    expect(oneByte.length).toBe(payload.length)
    const refused = [
      await processor.post({ payload: oneByte, signature }),
      await processor.post({ payload: JSON.stringify(JSON.parse(payload)), signature }),
      await processor.post({ payload, timestamp: now - 301 }),
      await processor.post({ payload, timestamp: now + 301 }),
      await processor.post({ payload, secret: "whsec_guess" }),
      await processor.post({ payload, signature: "" }),
      await processor.post({ payload, signature: signature.replace(/^t=\d+/u, `t=${now}`) }),
      // The former wrapper, `{ payload, signature }` as JSON, carries no header: refused.
      await processor.post({ payload: JSON.stringify({ payload, signature }), signature: "" })
    ]
    for (const result of refused) {
      expect(result.status, JSON.stringify(result.body)).toBe(400)
      expectErrorBody(result.body, "invalid_signature")
    }
    expect(await balance(app, shop.companyId, "1150")).toBe(0)

    // The event as the processor sent it applies; the same delivery again (a replay) applies nothing more.
    const first = await processor.post({ payload, signature })
    expect(first).toMatchObject({ status: 200, body: { received: true, duplicate: false, event_id: event!.id } })
    const replay = await processor.post({ payload, signature })
    expect(replay).toMatchObject({ status: 200, body: { received: true, duplicate: true, event_id: event!.id } })
    const resigned = await processor.post({ payload })
    expect(resigned.body.duplicate).toBe(true)
    expect(await balance(app, shop.companyId, "1150")).toBe(40_00 - 1_50)
    expect(await balance(app, shop.companyId, "6010")).toBe(1_50)
  })
})

describe("the processor's system principal", () => {
  it("posts the charge, fee, refund and payout entries as the connection's system principal, and audits each event under it", async () => {
    const { app, processor } = world
    const shop = await onboardedShop(world)
    const { token } = await invoiceWithLink(app, shop, 60_00)
    await payOnPage(world, token, 2_00)
    await deliverAll(processor)
    const charge = (await app.call("GET", "/v1/online-payments", { token: shop.ownerKey })).body.data[0]
    const asked = await app.call("POST", `/v1/online-payments/charges/${charge.id}/refund`, { token: shop.session, key: `refund-${charge.id}`, body: { reason: "Returned", amount_cents: 5_00 } })
    expect(asked.status, JSON.stringify(asked.body)).toBe(201)
    processor.settleRefund([...processor.state.refunds.keys()].at(-1)!)
    processor.payout(shop.accountId, new Date(world.app.clock!.now()).toISOString().slice(0, 10))
    await deliverAll(processor)
    expect(await balance(app, shop.companyId, "1150")).toBe(0)

    const entries = await app.query<{ memo: string; posted_by_type: string; posted_by_id: string | null; posted_by_name: string }>(
      "SELECT memo, posted_by_type, posted_by_id, posted_by_name FROM journal_entries WHERE company_id = $1 ORDER BY id", [shop.companyId])
    const processorName = `payment processor ${shop.accountId}`
    const byProcessor = entries.filter((entry) => entry.posted_by_name === processorName)
    // The payment, its fee, the refund and the payout: four entries, none by the operator or the owner.
    expect(byProcessor).toHaveLength(4)
    for (const entry of byProcessor) expect(entry).toMatchObject({ posted_by_type: "system", posted_by_id: null })
    expect(entries.filter((entry) => entry.posted_by_type === "operator")).toEqual([])

    const audit = (await app.call("GET", "/v1/audit/events?limit=100", { token: shop.ownerKey })).body.data as Array<any>
    const applied = audit.filter((event) => event.action === "receiveProcessorEvent")
    expect(applied.length).toBeGreaterThanOrEqual(3)
    for (const event of applied) {
      expect(event).toMatchObject({ principal_type: "system", principal_id: null, principal_name: processorName, target_type: "processor_event" })
      expect(event.details.account).toBe(shop.accountId)
    }
    expect(applied.map((event) => event.details.type)).toEqual(expect.arrayContaining(["payment_intent.succeeded", "refund.updated", "payout.paid"]))
    expect(audit.filter((event) => event.principal_type === "operator" && event.action === "receiveProcessorEvent")).toEqual([])
  })
})

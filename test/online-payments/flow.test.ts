import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { eventProblems, requestProblems, responseProblems } from "../support/providers/stripe.ts"
import { getFile } from "../support/files.ts"
import { balance, deliver, deliverAll, get, invoiceWithLink, makePaymentsApp, onboardedShop, payOnPage, type PaymentsApp, post } from "./support.ts"

/**
 * Online payments end to end over HTTP, the real processor adapter against the loopback fake:
 * an invoice paid in full and in part on its pay page, a refund, a chargeback, a payout whose
 * bank line then reconciles, the clearing account back to zero, events twice and out of order.
 */
let world: PaymentsApp

beforeAll(async () => {
  world = await makePaymentsApp()
})
afterAll(async () => {
  await world.app.close()
  await world.processor.close()
})

describe("online payments", () => {
  it("pays an invoice in full: the payment and fee post, the invoice is paid, events book once", async () => {
    const { app, processor } = world
    const shop = await onboardedShop(world)
    const { invoiceId, token } = await invoiceWithLink(app, shop, 100_00)
    const page = await app.call("GET", `/v1/pay/${token}`)
    expect(page.status).toBe(200)
    expect(page.body).toMatchObject({ company_name: "Pay Shop", total_cents: 100_00, open_balance_cents: 100_00, allow_partial: false, methods: ["card"] })
    await payOnPage(world, token, 3_20)
    const events = processor.take()
    // The same event twice books once.
    for (const event of [...events, ...events]) expect((await deliver(processor, event)).status).toBe(200)
    const charges = await get(app, shop.ownerKey, `/v1/online-payments?document_id=${invoiceId}`)
    expect(charges.body.data).toHaveLength(1)
    expect(charges.body.data[0]).toMatchObject({ status: "succeeded", amount_cents: 100_00, fee_cents: 3_20, net_cents: 96_80 })
    const invoice = await get(app, shop.ownerKey, `/v1/documents/${invoiceId}`)
    expect(invoice.body.open_balance_cents).toBe(0)
    expect(await balance(app, shop.companyId, "1150")).toBe(96_80)
    expect(await balance(app, shop.companyId, "6010")).toBe(3_20)
    // The paid invoice's page shows nothing more to pay.
    expect((await app.call("GET", `/v1/pay/${token}`)).body.error?.type).toBe("document_not_payable")
  })

  it("pays in part when allowed, refuses a part when not, and refunds once the processor confirms", async () => {
    const { app, processor } = world
    const shop = await onboardedShop(world)
    const { token } = await invoiceWithLink(app, shop, 80_00)
    const refused = await app.call("POST", `/v1/pay/${token}`, { body: { method: "card", amount_cents: 30_00 } })
    expect(refused.status).toBe(422)
    expect(refused.body.error?.type).toBe("partial_payment_not_allowed")
    await post(app, shop.session, "/v1/online-payments/settings", { allow_partial: true })
    await payOnPage(world, token, 1_00, 30_00)
    await deliverAll(processor)
    const page = await app.call("GET", `/v1/pay/${token}`)
    expect(page.body.open_balance_cents).toBe(50_00)
    const charge = (await get(app, shop.ownerKey, "/v1/online-payments")).body.data[0]
    const preview = await post(app, shop.session, `/v1/online-payments/charges/${charge.id}/refund`, { reason: "Customer asked", amount_cents: 10_00, dry_run: true })
    expect(preview.status).toBe(200)
    expect(preview.body.refundable_cents).toBe(30_00)
    const tooMuch = await post(app, shop.session, `/v1/online-payments/charges/${charge.id}/refund`, { reason: "x", amount_cents: 30_01 })
    expect(tooMuch.body.error?.type).toBe("refund_exceeds_charge")
    const asked = await post(app, shop.session, `/v1/online-payments/charges/${charge.id}/refund`, { reason: "Customer asked", amount_cents: 10_00 })
    expect(asked.status).toBe(201)
    expect(asked.body).toMatchObject({ status: "pending", entry_id: null })
    expect(await balance(app, shop.companyId, "4900")).toBe(0)
    processor.settleRefund([...processor.state.refunds.keys()].at(-1)!)
    await deliverAll(processor)
    const after = await get(app, shop.ownerKey, `/v1/online-payments/charges/${charge.id}`)
    expect(after.body.refunded_cents).toBe(10_00)
    expect(after.body.refunds[0].status).toBe("succeeded")
    expect(await balance(app, shop.companyId, "4900")).toBe(10_00)
    expect(await balance(app, shop.companyId, "1150")).toBe(30_00 - 1_00 - 10_00)
  })

  it("books a chargeback that arrives before its payment's event, then a payout that reconciles to its bank line; clearing returns to zero", async () => {
    const { app, processor } = world
    const shop = await onboardedShop(world)
    const first = await invoiceWithLink(app, shop, 200_00)
    const second = await invoiceWithLink(app, shop, 50_00)
    await payOnPage(world, first.token, 6_00)
    const disputed = await payOnPage(world, second.token, 1_75)
    processor.dispute(disputed, 15_00)
    const events = processor.take().reverse()
    for (const event of events) expect((await deliver(processor, event)).status).toBe(200)
    for (const event of events) expect((await deliver(processor, event)).body.duplicate).toBe(true)
    expect(await balance(app, shop.companyId, "1150")).toBe(200_00 - 6_00 + 50_00 - 1_75 - 50_00 - 15_00)
    const payout = processor.payout(shop.accountId, new Date().toISOString().slice(0, 10))
    expect(payout.amount).toBe(200_00 - 6_00 + 50_00 - 1_75 - 50_00 - 15_00)
    await deliverAll(processor)
    expect(await balance(app, shop.companyId, "1150")).toBe(0)
    const listed = await get(app, shop.ownerKey, "/v1/online-payments/payouts")
    expect(listed.body.data[0]).toMatchObject({ amount_cents: payout.amount, reconciled: false })
    expect(listed.body.data[0].lines).toHaveLength(3)
    const dollars = `${Math.floor(payout.amount / 100)}.${String(payout.amount % 100).padStart(2, "0")}`
    const imported = await post(app, shop.ownerKey, `/v1/bank-accounts/${shop.bankAccountId}/imports`, {
      format: "csv", content: `Date,Description,Amount\n${new Date().toISOString().slice(0, 10)},PROCESSOR PAYOUT,${dollars}\n`
    })
    expect(imported.status, JSON.stringify(imported.body)).toBe(201)
    const synced = await post(app, shop.session, "/v1/online-payments/sync", {})
    expect(synced.body.payouts_reconciled).toBe(1)
    const payoutPath = `/v1/online-payments/payouts/${listed.body.data[0].id}`
    const one = await get(app, shop.ownerKey, payoutPath)
    expect(one.body.reconciled).toBe(true)
    // Files are files (ADR 0015): format=csv is a CSV file over HTTP, with its name.
    const csv = await getFile(app.fetch, `${payoutPath}?format=csv`, shop.ownerKey)
    expect(csv.status).toBe(200)
    expect(csv.contentType).toBe("text/csv; charset=utf-8")
    expect(csv.filename).toBe(`payout-${listed.body.data[0].id}.csv`)
    // CRLF line ends (RFC 4180), like every other CSV export.
    expect(csv.text.split("\r\n")).toHaveLength(5)
    expect(csv.text.replace(/\r\n/g, "")).not.toContain("\n")
    expect(csv.text.split("\r\n")[0]).toBe("type,source,amount,fee,net")
    const lines = await get(app, shop.ownerKey, `/v1/bank-lines?bank_account_id=${shop.bankAccountId}`)
    const line = lines.body.data.find((item: any) => item.id === one.body.bank_line_id)
    expect(line?.status, JSON.stringify(lines.body)).toBe("categorized")
  })

  it("sent the processor only requests Stripe's description has; its answers and events are as described", () => {
    const requests = world.processor.state.requests
    expect(requests.flatMap((request) => requestProblems(request))).toEqual([])
    expect(requests.flatMap(responseProblems)).toEqual([])
    expect(world.processor.state.events.flatMap((event) => eventProblems(event.payload))).toEqual([])
  })
})

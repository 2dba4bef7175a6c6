import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { entriesWithoutSourceId, expectSource } from "../support/sources.ts"
import { deliverAll, get, invoiceWithLink, makePaymentsApp, onboardedShop, payOnPage, post, type PaymentsApp } from "./support.ts"

/**
 * Every entry an online payment books names its record as `source.id` (issue 38 item 11): the
 * payment its sales payment, the fee its charge, a refund, a chargeback (opened and won) its
 * dispute, and a payout itself. The fee, refund, dispute and payout entries used to post with
 * `source.id` null.
 */

let world: PaymentsApp
beforeAll(async () => {
  world = await makePaymentsApp({ clock: true })
})
afterAll(async () => {
  await world.app.close()
  await world.processor.close()
})

describe("the source of an online payment's entries", () => {
  it("names the payment, the charge, the refund, the dispute and the payout", async () => {
    const { app, processor } = world
    const shop = await onboardedShop(world)
    const first = await invoiceWithLink(app, shop, 60_00)
    await payOnPage(world, first.token, 2_00)
    await deliverAll(processor)
    const charge = (await get(app, shop.ownerKey, "/v1/online-payments")).body.data[0]
    expect(charge).toMatchObject({ status: "succeeded", payment_id: expect.any(Number), fee_entry_id: expect.any(Number) })
    const payment = (await get(app, shop.ownerKey, `/v1/payments/${charge.payment_id}`)).body
    await expectSource(app, shop.ownerKey, payment.entry_id, "payment_received", charge.payment_id)
    await expectSource(app, shop.ownerKey, charge.fee_entry_id, "online_payment_fee", charge.id)

    const asked = await post(app, shop.session, `/v1/online-payments/charges/${charge.id}/refund`, { reason: "Returned", amount_cents: 5_00 })
    expect(asked.status, JSON.stringify(asked.body)).toBe(201)
    processor.settleRefund([...processor.state.refunds.keys()].at(-1)!)
    await deliverAll(processor)
    const refund = (await get(app, shop.ownerKey, `/v1/online-payments/charges/${charge.id}`)).body.refunds[0]
    expect(refund.id).toBe(asked.body.id)
    await expectSource(app, shop.ownerKey, refund.entry_id, "online_payment_refund", refund.id)

    const second = await invoiceWithLink(app, shop, 50_00)
    const disputed = await payOnPage(world, second.token, 1_75)
    const opened = processor.dispute(disputed, 15_00)
    await deliverAll(processor)
    processor.closeDispute(opened.id, true)
    await deliverAll(processor)
    const disputedCharge = (await get(app, shop.ownerKey, "/v1/online-payments")).body.data.find((one: any) => one.processor_payment_id === disputed)
    const dispute = (await get(app, shop.ownerKey, `/v1/online-payments/charges/${disputedCharge.id}`)).body.disputes[0]
    expect(dispute).toMatchObject({ status: "won" })
    await expectSource(app, shop.ownerKey, dispute.entry_id, "online_payment_dispute", dispute.id)
    await expectSource(app, shop.ownerKey, dispute.close_entry_id, "online_payment_dispute", dispute.id)

    processor.payout(shop.accountId, new Date(app.clock!.now()).toISOString().slice(0, 10))
    await deliverAll(processor)
    const payout = (await get(app, shop.ownerKey, "/v1/online-payments/payouts")).body.data[0]
    await expectSource(app, shop.ownerKey, payout.entry_id, "online_payout", payout.id)

    expect(await entriesWithoutSourceId(app, shop.companyId)).toEqual([])
  })
})

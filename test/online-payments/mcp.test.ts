import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { connectMcp } from "../support/index.ts"
import { deliverAll, invoiceWithLink, makePaymentsApp, onboardedShop, payOnPage, type PaymentsApp } from "./support.ts"

/** Over MCP: the reads are tools; the public pay page, the event receiver and the people-only writes are not. */
let world: PaymentsApp

beforeAll(async () => {
  world = await makePaymentsApp()
})
afterAll(async () => {
  await world.app.close()
  await world.processor.close()
})

describe("online payments over MCP", () => {
  it("lists charges and reads one; offers no pay page, event receiver, settings change or refund", async () => {
    const { app, processor } = world
    const shop = await onboardedShop(world)
    const { invoiceId, token } = await invoiceWithLink(app, shop, 25_00)
    await payOnPage(world, token, 1_03)
    await deliverAll(processor)
    const client = await connectMcp(app, shop.ownerKey, { "x-ledger-toolsets": "online-payments,billing" })
    try {
      const tools = (await client.listTools()).tools.map((tool) => tool.name)
      expect(tools).toEqual(expect.arrayContaining(["get_online_payment_settings", "list_online_payments", "get_online_charge", "list_online_payouts", "get_online_payout", "create_pay_link", "get_billing"]))
      for (const hidden of ["get_pay_page", "pay_invoice_online", "receive_processor_event", "update_online_payment_settings", "refund_online_charge", "start_billing_checkout", "change_billing_plan"]) {
        expect(tools).not.toContain(hidden)
      }
      const listed = await client.callTool({ name: "list_online_payments", arguments: { document_id: invoiceId } })
      const page = JSON.parse((listed.content as Array<{ text: string }>)[0]!.text)
      expect(page.data[0]).toMatchObject({ status: "succeeded", amount_cents: 25_00, fee_cents: 1_03, net_cents: 23_97 })
      const one = await client.callTool({ name: "get_online_charge", arguments: { id: page.data[0].id } })
      expect(JSON.parse((one.content as Array<{ text: string }>)[0]!.text).document_id).toBe(invoiceId)
    } finally {
      await client.close()
    }
  })
})

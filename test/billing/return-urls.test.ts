import { Layer } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { FakePaymentProcessor } from "@ledger/testkit"
import { Ports as ServerPorts } from "@ledger/server/adapters"
import { makeTestApp, signInAs, type TestApp } from "../support/index.ts"
import { appUrl, type BillingApp, deliverAll, makeBillingApp, ownerPost, post } from "./support.ts"

/**
 * Every address Ledger hands the card processor is one the processor can send a person to: absolute,
 * under the web app's address (LEDGER_APP_URL, its path kept). The fake refuses relative ones as
 * the real processor does ("Not a valid URL"), so onboarding, checkout and the portal used to fail.
 */
let world: BillingApp
beforeAll(async () => {
  world = await makeBillingApp()
})
afterAll(async () => {
  await world.app.close()
  await world.processor.close()
})

const sent = (processor: FakePaymentProcessor.FakePaymentProcessor, path: string) => {
  const request = processor.state.requests.filter((item) => item.method === "POST" && item.path === path).at(-1)!
  expect(request.status, JSON.stringify(request.answer)).toBe(200)
  return new URLSearchParams(request.body)
}

describe("addresses handed to the processor", () => {
  it("are absolute under the web app's address: onboarding, checkout, the portal and the license", async () => {
    const { app, processor } = world
    const company = await app.createCompany({ name: "Return Co" })
    const onboarding = await ownerPost(app, company, "/v1/online-payments/onboarding", {})
    expect(onboarding.status, JSON.stringify(onboarding.body)).toBe(200)
    const link = sent(processor, "/v1/account_links")
    expect([link.get("return_url"), link.get("refresh_url")]).toEqual([
      `${appUrl}/settings/online-payments?onboarding=done`, `${appUrl}/settings/online-payments?onboarding=again`
    ])

    const checkout = await ownerPost(app, company, "/v1/billing/checkout", { plan: "solo", interval: "month" })
    expect(checkout.status, JSON.stringify(checkout.body)).toBe(200)
    const session = sent(processor, "/v1/checkout/sessions")
    expect([session.get("success_url"), session.get("cancel_url")]).toEqual([`${appUrl}/settings/billing?session_id={CHECKOUT_SESSION_ID}`, `${appUrl}/settings/billing`])
    processor.completeCheckout(checkout.body.session_id)
    await deliverAll(processor)

    const portal = await ownerPost(app, company, "/v1/billing/portal", {})
    expect(portal.status, JSON.stringify(portal.body)).toBe(200)
    expect(sent(processor, "/v1/billing_portal/sessions").get("return_url")).toBe(`${appUrl}/settings/billing`)

    const license = await ownerPost(app, company, "/v1/billing/license/checkout", {})
    expect(license.status, JSON.stringify(license.body)).toBe(200)
    expect(sent(processor, "/v1/checkout/sessions").get("success_url")).toBe(`${appUrl}/settings/billing?license=done`)
  })
})

describe("a deployment that names no web app address", () => {
  let bare: TestApp
  const processor = FakePaymentProcessor.make()
  beforeAll(async () => {
    bare = await makeTestApp({ providers: Layer.merge(ServerPorts.wire({ dataDir: "memory" }).layer, processor.layer) })
  })
  afterAll(async () => {
    await bare.close()
    await processor.close()
  })

  it("refuses onboarding and checkout with 503, and creates nothing at the processor", async () => {
    const company = await bare.createCompany({ name: "Nowhere Co" })
    const { secret: session } = await signInAs(bare, company)
    const onboarding = await post(bare, session, "/v1/online-payments/onboarding", {})
    expect(onboarding.status).toBe(503)
    expect(onboarding.body.error).toMatchObject({ type: "online_payments_not_configured" })
    expect(onboarding.body.error.message).toContain("LEDGER_APP_URL")
    const checkout = await post(bare, (await signInAs(bare, company)).secret, "/v1/billing/checkout", { plan: "solo", interval: "month" })
    expect(checkout.status).toBe(503)
    expect(checkout.body.error).toMatchObject({ type: "billing_not_configured" })
    expect(processor.state.requests).toEqual([])
  })
})

import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { agentModel, agentWithKey, newKey } from "../support/index.ts"
import { type BillingApp, deliverAll, get, makeBillingApp, ownerPost, post } from "./support.ts"

/**
 * AI-transaction metering (issue 29, spec 8.2's overage): `GET /v1/billing`'s
 * `usage.ai_transactions_this_period` counts the writes agents made that succeeded in the current
 * period: not people's writes, not refusals, not dry runs, not other companies'.
 */
let world: BillingApp
const start = Date.parse("2026-03-01T00:00:00Z")

beforeAll(async () => {
  world = await makeBillingApp({ clock: new Date(start).toISOString() })
  world.processor.advanceTo(Math.floor(start / 1000))
})
afterAll(async () => {
  await world.app.close()
  await world.processor.close()
})

describe("AI-transaction usage", () => {
  it("counts an agent's successful writes in the period, nothing else", async () => {
    const { app, processor } = world
    const company = await app.createCompany({ name: "Metered Co" })
    const other = await app.createCompany({ name: "Other Co" })
    const checkout = await ownerPost(app, company, "/v1/billing/checkout", { plan: "business", interval: "month" })
    processor.completeCheckout(checkout.body.session_id)
    await deliverAll(processor)
    const usage = async () => (await get(app, company.ownerKey, "/v1/billing")).body.usage.ai_transactions_this_period
    expect(await usage()).toBe(0)

    const { key } = await agentWithKey(app, company.ownerKey, ["read", "propose"])
    const asAgent = (body: Record<string, unknown>, withKey = true) =>
      app.call("POST", "/v1/contacts", { token: key.secret, ...(withKey ? { key: newKey() } : {}), headers: { "x-agent-model": agentModel }, body })
    expect((await asAgent({ kind: "customer", name: "By agent 1" })).status).toBe(201)
    expect((await asAgent({ kind: "customer", name: "By agent 2" })).status).toBe(201)
    // Refused (no Idempotency-Key) and invalid writes are not transactions.
    expect((await asAgent({ kind: "customer", name: "No key" }, false)).status).toBe(400)
    expect((await asAgent({ kind: "nobody", name: "Bad kind" })).status).toBe(400)
    // A person's write is not an AI transaction; nor is another company's agent's.
    expect((await post(app, company.ownerKey, "/v1/contacts", { kind: "customer", name: "By owner" })).status).toBe(201)
    const stranger = await agentWithKey(app, other.ownerKey, ["read", "propose"])
    expect((await app.call("POST", "/v1/contacts", { token: stranger.key.secret, key: newKey(), headers: { "x-agent-model": agentModel }, body: { kind: "customer", name: "Elsewhere" } })).status).toBe(201)
    expect(await usage()).toBe(2)
  })
})

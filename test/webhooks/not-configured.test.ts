import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Events } from "@ledger/api"
import { expectErrorBody, makeTestApp, newKey, type TestApp } from "../support/index.ts"

/**
 * A deployment that cannot seal secrets (no master key) nor deliver (no transport): the server's
 * unconfigured ports. Creating an endpoint answers 503 `webhooks_not_configured`; reads still work.
 */

let app: TestApp

beforeAll(async () => {
  app = await makeTestApp()
}, 60_000)
afterAll(() => app?.close())

describe("webhooks on a deployment without the ports they need", () => {
  it("refuses to create an endpoint with 503 webhooks_not_configured, and lists none", async () => {
    const company = await app.createCompany({ name: "Unconfigured Co" })
    const created = await app.call("POST", "/v1/webhooks", {
      token: company.ownerKey,
      key: newKey(),
      body: { url: "https://hooks.example.com/ledger", event_types: ["*"] }
    })
    expect(created.status).toBe(503)
    expectErrorBody(created.body, "webhooks_not_configured")
    const listed = await app.call("GET", "/v1/webhooks", { token: company.ownerKey })
    expect(listed.status).toBe(200)
    expect(listed.body.data).toEqual([])
    expect(listed.body.event_types).toHaveLength(Events.eventTypes.length)
  })
})

import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { appForDelivery, createEndpoint, postEntry, type Receiver, startReceiver } from "./support.ts"
import type { TestApp } from "../support/index.ts"

/**
 * The delivery log and the event feed page like every list (DECISIONS "Lists", issue 38 item 9):
 * 100 when no limit is given, up to 1000. They used to take at most 100 and show 25.
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

describe("webhook lists", () => {
  it("pages events and deliveries like every list: 100 when no limit is given, up to 1000 (issue 38 item 9)", async () => {
    const company = await app.createCompany({ name: "Long Feed Co" })
    const { webhook } = await createEndpoint(app, company, { url: receiver.url, event_types: ["entry.posted"] })
    for (let index = 0; index < 101; index++) expect((await postEntry(app, company, 1_000 + index)).status).toBe(201)
    for (const path of ["/v1/webhook-events", `/v1/webhooks/${webhook.id}/deliveries`]) {
      const first = await app.call("GET", path, { token: company.ownerKey })
      expect(first.status, JSON.stringify(first.body)).toBe(200)
      expect(first.body.data).toHaveLength(100)
      expect(first.body.has_more).toBe(true)
      const all = await app.call("GET", `${path}?limit=1000`, { token: company.ownerKey })
      expect(all.status, JSON.stringify(all.body)).toBe(200)
      expect(all.body.data).toHaveLength(101)
      expect(all.body.has_more).toBe(false)
      const tooMany = await app.call("GET", `${path}?limit=1001`, { token: company.ownerKey })
      expect(tooMany.status).toBe(400)
    }
  })
})

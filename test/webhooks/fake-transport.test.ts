import { Layer } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Ports } from "@ledger/engine"
import { TokenSealer } from "@ledger/engine/ports"
import { FakeWebhookTransport, Providers } from "@ledger/testkit"
import { makeTestApp, type TestApp } from "../support/index.ts"
import { createEndpoint, drain, postEntry, verify } from "./support.ts"

/** The testkit's fake transport: what it records and how a test scripts the receiver with it. */

let app: TestApp
const fake = FakeWebhookTransport.make()

beforeAll(async () => {
  app = await makeTestApp({
    clock: "2026-03-02T09:00:00Z",
    providers: Layer.mergeAll(Ports.layerUnconfigured, TokenSealer.layerFromKey(Providers.masterKeyOf(5)), fake.layer)
  })
}, 60_000)
afterAll(() => app?.close())

describe("FakeWebhookTransport", () => {
  it("records signed deliveries and answers as scripted", async () => {
    const company = await app.createCompany({ name: "Fake Receiver Co" })
    const { webhook, secret } = await createEndpoint(app, company, { url: "https://hooks.example.com/x", event_types: ["entry.posted"] })
    fake.answerNext({ fail: "timeout" })
    await postEntry(app, company, 5_000)
    await drain(app)
    const [delivery] = (await app.call("GET", `/v1/webhooks/${webhook.id}/deliveries`, { token: company.ownerKey })).body.data
    expect(delivery).toMatchObject({ status: "pending", attempts: 1, response_status: null, error: "Scripted failure: timeout" })
    app.clock!.advance("2 minutes")
    await drain(app)
    expect(fake.sent).toHaveLength(2)
    const last = fake.sent[1]!
    const received = { headers: last.headers, raw: last.body, body: JSON.parse(last.body), answered: 200 }
    expect(await verify(received, secret, app.clock!.currentTimeMillisUnsafe())).toMatchObject({ valid: true })
    expect(last.url).toBe("https://hooks.example.com/x")
  })
})

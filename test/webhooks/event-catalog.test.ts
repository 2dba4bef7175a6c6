import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Events } from "@ledger/api"
import { newKey, type TestApp } from "../support/index.ts"
import { appForDelivery, createEndpoint, drain, type Receiver, startReceiver } from "./support.ts"

/**
 * Every event an area declares is subscribable by name, listed by `GET /v1/webhooks` and OpenAPI,
 * and delivered to an endpoint that names it (issue 38 item 10): payroll, mileage, estimated-tax
 * and crypto events used to reach only `*` subscribers, as `POST /v1/webhooks` refused their names.
 */

let app: TestApp
let receiver: Receiver

beforeAll(async () => {
  app = await appForDelivery("2026-05-04T12:00:00Z")
  receiver = await startReceiver()
}, 60_000)
afterAll(async () => {
  await receiver?.close()
  await app?.close()
})

describe("the declared event types over HTTP", () => {
  it("an endpoint may name any declared type, and only those", async () => {
    const company = await app.createCompany({ name: "Subscriber Co" })
    const create = (event_types: ReadonlyArray<string>) =>
      app.call("POST", "/v1/webhooks", { token: company.ownerKey, key: newKey(), body: { url: receiver.url, event_types } })
    const every = await create(Events.eventTypes)
    expect(every.status, JSON.stringify(every.body)).toBe(201)
    expect(every.body.webhook.event_types).toEqual(Events.eventTypes)
    for (const type of ["crypto.receipt_confirmed", "payroll.voided", "mileage.reimbursement_voided", "estimated_tax.payment_voided"]) {
      expect((await create([type])).status, type).toBe(201)
    }
    // A name no area declares, and the test delivery's type, which is never subscribed to.
    for (const type of ["entry.created", "webhook.test"]) {
      const refused = await create([type])
      expect(refused.status, type).toBe(400)
      expect(refused.body.error.type).toBe("invalid_request")
    }
    const listed = await app.call("GET", "/v1/webhooks", { token: company.ownerKey })
    expect(listed.body.event_types).toEqual(Events.eventTypes.map((type) => ({ type, emitted_by: Events.declared[type].emittedBy })))
  })

  it("delivers an estimated-tax payment and its void to an endpoint that names them, and nothing else", async () => {
    const company = await app.createCompany({ name: "Quarterly Co" })
    await createEndpoint(app, company, { url: receiver.url, event_types: ["estimated_tax.payment_recorded", "estimated_tax.payment_voided"] })
    const post = async (path: string, body: unknown) => {
      const result = await app.call("POST", path, { token: company.ownerKey, key: newKey(), body })
      expect(result.status, `${path}: ${JSON.stringify(result.body)}`).toBeLessThan(300)
      return result.body
    }
    const payment = await post("/v1/estimated-taxes/payments", {
      year: 2026, quarter: 1, paid_on: "2026-04-14", amount_cents: 300_000, method: "eftps", payment_account: "3020", pay_from_account: "1010"
    })
    await post(`/v1/estimated-taxes/payments/${payment.id}/void`, { reason: "Paid twice by mistake" })
    await drain(app)
    const received = receiver.received.splice(0).filter((delivery) => delivery.body.company_id === company.companyId)
    expect(received.map((delivery) => delivery.body.type).sort()).toEqual(["estimated_tax.payment_recorded", "estimated_tax.payment_voided"])
    expect(received.find((delivery) => delivery.body.type === "estimated_tax.payment_recorded")!.body.data).toMatchObject({ payment_id: payment.id })
  })

  it("OpenAPI lists every declared type: as what an endpoint may name, and as a webhook with its envelope", async () => {
    const document = (await app.call("GET", "/openapi.json")).body
    const body = document.paths["/v1/webhooks"].post.requestBody.content["application/json"].schema
    expect([...body.properties.event_types.items.enum].sort()).toEqual([...Events.eventTypes, "*"].sort())
    expect(Object.keys(document.webhooks)).toEqual(Events.eventTypes)
    for (const type of Events.eventTypes) {
      const operation = document.webhooks[type].post
      expect(operation.description, type).toContain(Events.declared[type].emittedBy)
      const schema = operation.requestBody.content["application/json"].schema
      expect(schema.allOf).toEqual([{ $ref: "#/components/schemas/WebhookEvent" }, { type: "object", properties: { type: { const: type } } }])
      expect(operation.parameters.map((parameter: { name: string }) => parameter.name)).toContain("Ledger-Signature")
    }
    expect(document.components.schemas.WebhookEvent.properties).toHaveProperty("data")
  })
})

import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeTestApp, type TestApp } from "../support/index.ts"
import { salesCompany } from "./support.ts"

let app: TestApp
beforeAll(async () => {
  app = await makeTestApp()
})
afterAll(() => app.close())

/** On PostgreSQL these requests really run at once (on PGlite they queue on its one connection). */
describe("concurrent sales writes", () => {
  it("numbers concurrent invoices without gaps or repeats; dry runs take none", async () => {
    const company = await salesCompany(app, "Numbers Co")
    const body = { contact_id: company.customerId, doc_date: "2026-05-05", lines: [{ amount_cents: 1_000 }] }
    const results = await Promise.all(Array.from({ length: 12 }, (_, index) =>
      company.post("/v1/invoices", index % 4 === 0 ? { ...body, dry_run: true } : body)
    ))
    const posted = results.filter((result) => result.status === 201).map((result) => result.body.number).sort()
    expect(results.filter((result) => result.status === 200)).toHaveLength(3)
    expect(posted).toEqual(Array.from({ length: 9 }, (_, index) => `INV-${String(index + 1).padStart(4, "0")}`))
  })

  it("lets only one of two concurrent payments take an invoice's last open cents", async () => {
    const company = await salesCompany(app, "Race Co")
    const invoice = (await company.post("/v1/invoices", { contact_id: company.customerId, doc_date: "2026-05-05", lines: [{ amount_cents: 10_000 }] })).body
    const pay = () =>
      company.post("/v1/payments/received", {
        contact_id: company.customerId,
        payment_date: "2026-05-06",
        account: "1010",
        applications: [{ document_id: invoice.id, amount_cents: 10_000 }]
      })
    const results = await Promise.all([pay(), pay(), pay()])
    expect(results.map((result) => result.status).sort()).toEqual([201, 422, 422])
    expect(results.filter((result) => result.status === 422).map((result) => result.body.error.type)).toEqual(["over_application", "over_application"])
    const document = (await company.get(`/v1/documents/${invoice.id}`)).body
    expect(document).toMatchObject({ status: "paid", applied_cents: 10_000 })
  })
})

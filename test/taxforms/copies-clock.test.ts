import { getMeta } from "unpdf"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { company as taxCompany, makeTaxFormsApp, paidBill, payer, type TaxFormsApp, vendor } from "./support.ts"

/**
 * The 1099 recipient copies are dated by the app's clock, not the wall clock: pdf-lib stamps a new
 * document's creation and modification dates with `new Date()` unless told otherwise, so a copy
 * drawn under a test clock carried today's date.
 */

const json = { accept: "application/json" }
const at = "2027-01-20T09:30:00.000Z"

describe("1099 recipient copies' dates", () => {
  let t: TaxFormsApp
  beforeAll(async () => {
    t = await makeTaxFormsApp({ clock: at })
  })
  afterAll(() => t.app.close())

  it("follow the app's clock", async () => {
    const c = await taxCompany(t.app, "Dated Copies Co")
    expect((await c.post("/v1/tax-forms/payer", payer)).status).toBe(200)
    const designer = await vendor(c, "Dana Designer", { legal_name: "Dana Designer", tin: "123-45-6789" })
    await paidBill(c, designer, 250_000, "6020", "2026-02-10")
    const proposed = await c.post("/v1/tax-forms/filings", { year: 2026, provider: "gov_csv" })
    expect(proposed.status, JSON.stringify(proposed.body)).toBe(201)
    t.app.clock!.advance("3 hours")
    const copies = await t.app.call("GET", `/v1/tax-forms/filings/${proposed.body.id}/recipient-copies`, { token: c.key, headers: json })
    expect(copies.status, JSON.stringify(copies.body)).toBe(200)
    const { info } = await getMeta(new Uint8Array(Buffer.from(copies.body.content_base64, "base64")))
    // Three hours after `at`, in the PDF date form pdf-lib writes (UTC).
    expect(info).toMatchObject({ CreationDate: "D:20270120123000Z", ModDate: "D:20270120123000Z" })
  })
})

import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { pdfTextOfBase64 as textOf } from "../support/index.ts"
import { company as taxCompany, makeTaxFormsApp, paidBill, payer, type TaxFormsApp, vendor } from "./support.ts"

/** The 1099 recipient copies print the recipient's name as filed, every character (issue 20 item 4; ADR 0016). */

const phrase = "Überprüfung — 検査 €"
const json = { accept: "application/json" }

describe("1099 recipient copies", () => {
  let t: TaxFormsApp
  beforeAll(async () => {
    t = await makeTaxFormsApp()
  })
  afterAll(() => t.app.close())

  it("print the recipient's name as filed", async () => {
    const c = await taxCompany(t.app, "Copies Co")
    expect((await c.post("/v1/tax-forms/payer", payer)).status).toBe(200)
    const designer = await vendor(c, "Dana Designer", { legal_name: `Dana ${phrase}`, tin: "123-45-6789" })
    await paidBill(c, designer, 250_000, "6020", "2026-02-10")
    const proposed = await c.post("/v1/tax-forms/filings", { year: 2026, provider: "gov_csv" })
    expect(proposed.status, JSON.stringify(proposed.body)).toBe(201)
    const copies = await t.app.call("GET", `/v1/tax-forms/filings/${proposed.body.id}/recipient-copies`, { token: c.key, headers: json })
    expect(copies.status, JSON.stringify(copies.body)).toBe(200)
    const text = await textOf(copies.body.content_base64)
    expect(text).toContain("Form 1099-NEC")
    expect(text).toContain(`Dana ${phrase}`)
  })
})

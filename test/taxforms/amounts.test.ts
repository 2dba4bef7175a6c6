import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { company, makeTaxFormsApp, paidBill, type TaxFormsApp, vendor } from "./support.ts"

let t: TaxFormsApp
beforeAll(async () => {
  t = await makeTaxFormsApp()
})
afterAll(() => t.app.close())

describe("1099 amounts for a year", () => {
  it("adds payments made to 1099 vendors by box, against the year's threshold, leaving card payments out", async () => {
    const c = await company(t.app)
    const designer = await vendor(c, "Dana Designer")
    const landlord = await vendor(c, "Lot Landlord")
    const small = await vendor(c, "Sam Small")
    expect((await c.post("/v1/tax-forms/account-boxes", { account: "6080", box: "MISC1" })).status).toBe(200)
    await paidBill(c, designer, 150_000, "6020", "2026-02-10")
    await paidBill(c, designer, 90_000, "6020", "2026-05-10")
    await paidBill(c, designer, 40_000, "6020", "2026-06-10", "2100")
    await paidBill(c, landlord, 300_000, "6080", "2026-03-01")
    await paidBill(c, small, 150_000, "6020", "2026-04-01")
    const summary = await c.get("/v1/tax-forms/1099?year=2026")
    expect(summary.status).toBe(200)
    expect(summary.body.threshold_cents).toBe(200_000)
    const byId = new Map(summary.body.recipients.map((r: any) => [r.contact_id, r]))
    expect(byId.get(designer)).toMatchObject({ nec_cents: 240_000, card_payments_excluded_cents: 40_000, forms: ["1099-NEC"], tin_masked: "***-**-6789" })
    expect(byId.get(landlord)).toMatchObject({ misc_cents: 300_000, forms: ["1099-MISC"], boxes: [{ box: "MISC1", amount_cents: 300_000 }] })
    expect(byId.has(small)).toBe(false)
    expect(summary.body.below_threshold.map((r: any) => r.contact_id)).toEqual([small])
    // $600 for 2025 and earlier: the same $1,500 would be reported.
    const lower = await c.get("/v1/tax-forms/1099?year=2026&threshold_cents=60000")
    expect(lower.body.recipients.map((r: any) => r.contact_id)).toContain(small)
  })

  it("counts prior amounts; a voided one no longer counts and cannot be voided twice", async () => {
    const c = await company(t.app)
    const v = await vendor(c, "Early Earl")
    const entered = await c.post("/v1/tax-forms/prior-amounts", { amounts: [{ year: 2025, contact_id: v, box: "NEC1", amount_cents: 70_000, note: "paid by check before Ledger" }] })
    expect(entered.status).toBe(201)
    const id = entered.body.data[0].id
    let summary = await c.get("/v1/tax-forms/1099?year=2025")
    expect(summary.body.threshold_cents).toBe(60_000)
    expect(summary.body.recipients[0]).toMatchObject({ contact_id: v, nec_cents: 70_000, prior_cents: 70_000, forms: ["1099-NEC"] })
    expect((await c.post(`/v1/tax-forms/prior-amounts/${id}/void`, { reason: "Entered the wrong amount" })).status).toBe(200)
    expect((await c.post(`/v1/tax-forms/prior-amounts/${id}/void`, { reason: "again" })).body.error.type).toBe("prior_amount_voided")
    summary = await c.get("/v1/tax-forms/1099?year=2025")
    expect(summary.body.recipients).toEqual([])
    expect((await c.get("/v1/tax-forms/prior-amounts?year=2025")).body.data).toEqual([])
    expect((await c.get("/v1/tax-forms/prior-amounts?year=2025&include_voided=true")).body.data[0]).toMatchObject({ voided: true, void_reason: "Entered the wrong amount" })
  })

  it("a vendor's box moves its payments; a customer is not a vendor", async () => {
    const c = await company(t.app)
    const lawyer = await vendor(c, "Lee Lawyer")
    expect((await c.post(`/v1/vendors/${lawyer}/form1099-box`, { box: "MISC10" })).body).toEqual({ contact_id: lawyer, box: "MISC10" })
    await paidBill(c, lawyer, 250_000, "6050", "2026-07-01")
    const summary = await c.get("/v1/tax-forms/1099?year=2026")
    expect(summary.body.recipients[0].boxes).toEqual([{ box: "MISC10", amount_cents: 250_000 }])
    const customer = await c.post("/v1/contacts", { kind: "customer", name: "Carl Customer" })
    expect((await c.post(`/v1/vendors/${customer.body.id}/form1099-box`, { box: "NEC1" })).body.error.type).toBe("not_a_vendor")
    expect((await c.post(`/v1/vendors/999999999/form1099-box`, { box: "NEC1" })).status).toBe(404)
  })
})

import { extractText, getDocumentProxy } from "unpdf"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { getFile, isPdf, makeTestApp, type TestApp } from "../support/index.ts"
import { salesCompany } from "./support.ts"

let app: TestApp
beforeAll(async () => {
  app = await makeTestApp()
})
afterAll(() => app.close())

describe("contacts, items and sales tax", () => {
  it("keeps only the last four digits of a tax id and never returns it", async () => {
    const company = await salesCompany(app, "Contacts Co")
    const vendor = await company.post("/v1/contacts", { kind: "vendor", name: "Jane Contractor", is_1099: true, tax_id: "123-45-6789" })
    expect(vendor.status).toBe(201)
    expect(vendor.body).toMatchObject({ is_1099: true, has_tax_id: true })
    expect(JSON.stringify(vendor.body)).not.toContain("6789")
    const stored = await app.query<Record<string, unknown>>(`SELECT * FROM contacts WHERE company_id = $1 AND id = $2`, [company.companyId, vendor.body.id])
    expect(JSON.stringify(stored, (_key, value) => typeof value === "bigint" ? String(value) : value)).not.toMatch(/123-?45/)
    expect(stored[0]!.tax_id_last4).toBe("6789")
    const bad = await company.post("/v1/contacts", { kind: "vendor", name: "Bad", tax_id: "12-345" })
    expect(bad.status).toBe(400)
    const customer1099 = await company.post("/v1/contacts", { kind: "customer", name: "Nope", is_1099: true })
    expect(customer1099.status).toBe(422)
    const forgotten = await company.post(`/v1/contacts/${vendor.body.id}/update`, { tax_id: null, email: "jane@contractor.test" })
    expect(forgotten.body).toMatchObject({ has_tax_id: false, email: "jane@contractor.test" })
    const listed = await company.get("/v1/contacts?kind=vendor")
    expect(listed.body.data.map((contact: any) => contact.name)).toEqual(["Jane Contractor", "Paper Supply"])
    await company.post(`/v1/contacts/${vendor.body.id}/update`, { active: false })
    expect((await company.get("/v1/contacts?kind=vendor")).body.data).toHaveLength(1)
    expect((await company.get("/v1/contacts?kind=vendor&include_inactive=true")).body.data).toHaveLength(2)
  })

  it("prices document lines from items and protects an active item's account", async () => {
    const company = await salesCompany(app, "Items Co")
    await app.call("POST", "/v1/accounts", { token: company.ownerKey, key: `acct-${Date.now()}`, body: { code: "4150", name: "Workshops", type: "income" } })
    const item = await company.post("/v1/items", { name: "Workshop seat", kind: "service", sales_price_cents: 12_500, income_account: "4150", taxable: true })
    expect(item.status).toBe(201)
    expect((await company.get(`/v1/items/${item.body.id}`)).body).toMatchObject({ name: "Workshop seat", income_account: "4150" })
    const invoice = await company.post("/v1/invoices", {
      contact_id: company.customerId,
      doc_date: "2026-02-02",
      tax_rate_id: company.stateRateId,
      lines: [{ item_id: item.body.id, quantity: "3" }]
    })
    expect(invoice.body.lines[0]).toMatchObject({ account: "4150", unit_price_cents: 12_500, amount_cents: 37_500, taxable: true, description: "Workshop seat" })
    expect(invoice.body.tax_cents).toBe(2_344) // 37500 x 6.25% = 2343.75

    const protectedAccount = await app.call("POST", "/v1/accounts/4150/update", { token: company.ownerKey, key: `deact-${Date.now()}`, body: { active: false, reason: "Tidy" } })
    expect(protectedAccount.status).toBe(422)
    expect(protectedAccount.body.error.type).toBe("account_protected")
    const taxAccount = await app.call("POST", "/v1/accounts/2200/update", { token: company.ownerKey, key: `deact2-${Date.now()}`, body: { active: false, reason: "Tidy" } })
    expect(taxAccount.body.error.type).toBe("account_protected")
    expect(JSON.stringify(taxAccount.body.error.details)).toContain("active_tax_rate")

    const updated = await company.post(`/v1/items/${item.body.id}/update`, { sales_price_cents: 15_000, active: false, reason: "Price change" })
    expect(updated.body).toMatchObject({ sales_price_cents: 15_000, active: false })
    const inactive = await company.post("/v1/invoices", { contact_id: company.customerId, doc_date: "2026-02-03", lines: [{ item_id: item.body.id }] })
    expect(inactive.status).toBe(422)
  })

  it("never edits a rate: deactivating a component deactivates the combined rate, documents keep what they used", async () => {
    const company = await salesCompany(app, "Tax Co")
    const invoice = (await company.post("/v1/invoices", {
      contact_id: company.customerId,
      doc_date: "2026-02-02",
      tax_rate_id: company.combinedRateId,
      lines: [{ amount_cents: 10_000, taxable: true }]
    })).body
    const rates = (await company.get("/v1/tax-rates")).body.data
    const combined = rates.find((rate: any) => rate.id === company.combinedRateId)
    expect(combined).toMatchObject({ combined: true, rate_percent: "8.25" })
    expect(combined.components.map((component: any) => component.rate_percent)).toEqual(["6.25", "1.5", "0.5"])
    const county = combined.components[1]
    const invalid = await company.post("/v1/tax-rates", { name: "Too precise", agency_id: county.agency_id, rate_percent: "1.23456", payable_account: "2200" })
    expect(invalid.status).toBe(400)
    const notLiability = await company.post("/v1/tax-rates", { name: "Wrong account", agency_id: county.agency_id, rate_percent: "1", payable_account: "4000" })
    expect(notLiability.status).toBe(422)
    const single = await company.post("/v1/tax-rates/combined", { name: "One", component_ids: [county.id] })
    expect(single.status).toBe(400)

    const deactivated = await company.post(`/v1/tax-rates/${county.id}/status`, { active: false, reason: "County rate changed to 1.75%" })
    expect(deactivated.body.active).toBe(false)
    const after = (await company.get("/v1/tax-rates?include_inactive=true")).body.data.find((rate: any) => rate.id === company.combinedRateId)
    expect(after).toMatchObject({ active: false })
    expect((await company.get("/v1/tax-rates")).body.data.map((rate: any) => rate.id)).not.toContain(company.combinedRateId)
    const refused = await company.post("/v1/invoices", { contact_id: company.customerId, doc_date: "2026-02-03", tax_rate_id: company.combinedRateId, lines: [{ amount_cents: 100 }] })
    expect(refused.body.error.type).toBe("inactive_tax_rate")
    const kept = (await company.get(`/v1/documents/${invoice.id}`)).body
    expect(kept.tax_lines.map((line: any) => [line.name, line.rate_percent, line.tax_cents])).toEqual([["State", "6.25", 625], ["County", "1.5", 150], ["City", "0.5", 50]])
    const reactivate = await company.post(`/v1/tax-rates/${company.combinedRateId}/status`, { active: true, reason: "Try" })
    expect(reactivate.status).toBe(422)
    // The database refuses an edit too (trigger), whatever the engine does.
    const edit = await app.query(`UPDATE tax_rates SET rate_percent = '9' WHERE company_id = $1 AND id = $2`, [company.companyId, county.id])
      .then(() => "updated", () => "refused")
    expect(edit).toBe("refused")
    const stored = await app.query<{ rate_percent: string }>(`SELECT rate_percent FROM tax_rates WHERE company_id = $1 AND id = $2`, [company.companyId, county.id])
    expect(stored[0]!.rate_percent).toBe("1.5")
  })

  it("renders every document kind as a PDF", async () => {
    const company = await salesCompany(app, "Pdf Co")
    const made = [
      await company.post("/v1/bills", { contact_id: company.vendorId, number: "V-77", doc_date: "2026-02-02", lines: [{ description: "Paper", amount_cents: 4_200, account: "6070" }] }),
      await company.post("/v1/vendor-credits", { contact_id: company.vendorId, doc_date: "2026-02-02", lines: [{ description: "Returned paper", amount_cents: 200, account: "6070" }] }),
      await company.post("/v1/sales-receipts", { contact_id: company.customerId, doc_date: "2026-02-02", account: "1000", lines: [{ description: "Cash sale", amount_cents: 999 }] }),
      await company.post("/v1/refunds", { contact_id: company.customerId, doc_date: "2026-02-03", account: "1000", lines: [{ description: "Refund of cash sale", amount_cents: 999 }] }),
      await company.post("/v1/vendor-refunds", { contact_id: company.vendorId, doc_date: "2026-02-04", account: "1010", lines: [{ description: "Overcharge", amount_cents: 150, account: "6070" }] })
    ]
    expect(made.map((result) => [result.status, result.body.number])).toEqual([[201, "V-77"], [201, "VC-0001"], [201, "SR-0001"], [201, "RF-0001"], [201, "VRF-0001"]])
    for (const document of made.map((result) => result.body)) {
      const pdf = await getFile(app.fetch, `/v1/documents/${document.id}/pdf`, company.ownerKey)
      expect(pdf.contentType).toBe("application/pdf")
      expect(isPdf(pdf.bytes)).toBe(true)
      const text = (await extractText(await getDocumentProxy(pdf.bytes), { mergePages: true })).text
      expect(text).toContain(document.number)
      expect(text).toContain(document.lines[0].description)
    }
    expect((await company.get("/v1/documents?side=purchases")).body.data).toHaveLength(3)
    expect((await company.get("/v1/documents?status=paid")).body.data.map((document: any) => document.kind).sort()).toEqual(["refund", "sales_receipt", "vendor_refund"])
  })
})

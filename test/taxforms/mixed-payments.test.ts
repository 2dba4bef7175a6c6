import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Company, company, makeTaxFormsApp, paidBill, type TaxFormsApp, vendor } from "./support.ts"

/**
 * A year of mixed payments to 1099 vendors (cash basis, Form 1099-NEC/MISC instructions: payments
 * made in the calendar year; card and processor payments go on 1099-K instead): bills paid by
 * check, a payment on account without a bill, checks booked as hand-posted journal entries naming
 * the vendor on either side, a card payment, an accrual that pays nothing, and a reversed entry.
 */

let t: TaxFormsApp
beforeAll(async () => {
  t = await makeTaxFormsApp()
})
afterAll(() => t.app.close())

const entry = async (c: Company, date: string, lines: ReadonlyArray<Record<string, unknown>>) => {
  const posted = await c.post("/v1/journal-entries/propose", { entry_date: date, memo: "hand-posted", lines })
  if (posted.status !== 201) throw new Error(`entry: ${JSON.stringify(posted.body)}`)
  return posted.body.id as number
}

describe("1099 amounts from every kind of payment in a year", () => {
  it("counts cash paid by bills, payments on account and journal entries; leaves out card, accruals, reversed entries and other years", async () => {
    const c = await company(t.app)
    const carpenter = await vendor(c, "Carla Carpenter")
    const landlord = await vendor(c, "Rhoda Rentals")
    const supplier = (await c.post("/v1/contacts", { kind: "vendor", name: "Office Depot Store", is_1099: false })).body.id as number
    expect((await c.post("/v1/tax-forms/account-boxes", { account: "6080", box: "MISC1" })).status).toBe(200)

    // 2025: a bill paid on 30 December counts in 2025 only.
    await paidBill(c, carpenter, 70_000, "6020", "2025-12-30")
    // A bill dated in 2025 and paid on 5 January 2026 counts in 2026 (cash basis).
    const late = await c.post("/v1/bills", { contact_id: carpenter, doc_date: "2025-12-20", lines: [{ amount_cents: 15_000, account: "6020" }] })
    expect((await c.post("/v1/payments/made", { contact_id: carpenter, payment_date: "2026-01-05", account: "1010", applications: [{ document_id: late.body.id, amount_cents: 15_000 }] })).status).toBe(201)
    await paidBill(c, carpenter, 100_000, "6020", "2026-02-10")
    // A payment on account (an advance), no bill: cash paid, in the vendor's box.
    expect((await c.post("/v1/payments/made", { contact_id: carpenter, payment_date: "2026-03-01", account: "1010", amount_cents: 30_000 })).status).toBe(201)
    // A check booked as an expense entry naming the vendor on the expense line.
    await entry(c, "2026-04-15", [{ account: "6020", debit_cents: 50_000, contact_id: carpenter }, { account: "1010", credit_cents: 50_000 }])
    // A check naming the vendor on the bank line (the payee).
    await entry(c, "2026-05-20", [{ account: "6090", debit_cents: 20_000 }, { account: "1010", credit_cents: 20_000, contact_id: carpenter }])
    // Paid by credit card: 1099-K, not NEC.
    await entry(c, "2026-06-01", [{ account: "6020", debit_cents: 40_000, contact_id: carpenter }, { account: "2100", credit_cents: 40_000 }])
    // An accrual (expense against payables: an unpaid bill, since AP moves only through documents, ADR 0106) pays nothing yet.
    expect((await c.post("/v1/bills", { contact_id: carpenter, doc_date: "2026-07-01", lines: [{ amount_cents: 60_000, account: "6020" }] })).status).toBe(201)
    // A check entered in error and reversed nets to nothing.
    const wrong = await entry(c, "2026-08-01", [{ account: "6020", debit_cents: 25_000, contact_id: carpenter }, { account: "1010", credit_cents: 25_000 }])
    expect((await c.post(`/v1/journal-entries/${wrong}/reverse`, { entry_date: "2026-08-05" })).status).toBe(201)
    // Rent paid by a check entry: the account's box (MISC 1).
    await entry(c, "2026-09-01", [{ account: "6080", debit_cents: 250_000, contact_id: landlord }, { account: "1010", credit_cents: 250_000 }])
    // A vendor not marked for 1099s is never counted.
    await entry(c, "2026-09-02", [{ account: "6070", debit_cents: 500_000, contact_id: supplier }, { account: "1010", credit_cents: 500_000 }])

    const year = await c.get("/v1/tax-forms/1099?year=2026")
    expect(year.status).toBe(200)
    expect(year.body.issues).toEqual([])
    const byId = new Map<number, any>(year.body.recipients.map((r: any) => [r.contact_id, r]))
    // 15,000 + 100,000 + 30,000 + 50,000 + 20,000 = 215,000; the journal entries' part 70,000.
    expect(byId.get(carpenter)).toMatchObject({
      nec_cents: 215_000,
      misc_cents: 0,
      journal_entry_cents: 70_000,
      card_payments_excluded_cents: 40_000,
      boxes: [{ box: "NEC1", amount_cents: 215_000 }],
      forms: ["1099-NEC"]
    })
    expect(byId.get(landlord)).toMatchObject({ nec_cents: 0, misc_cents: 250_000, boxes: [{ box: "MISC1", amount_cents: 250_000 }], forms: ["1099-MISC"] })
    expect([...year.body.recipients, ...year.body.below_threshold].map((r: any) => r.contact_id)).not.toContain(supplier)
    expect(year.body.total_nec_cents).toBe(215_000)
    expect(year.body.total_misc_cents).toBe(250_000)

    // 2025 holds only the December bill, at 2025's $600 threshold.
    const before = await c.get("/v1/tax-forms/1099?year=2025")
    expect(before.body.threshold_cents).toBe(60_000)
    expect(before.body.recipients.map((r: any) => [r.contact_id, r.nec_cents])).toEqual([[carpenter, 70_000]])

    // The filing's dry run carries the same amounts.
    expect((await c.post("/v1/tax-forms/payer", { name: "Acme Widgets LLC", address1: "1 Main Street", city: "Springfield", state: "IL", zip: "62701", phone: "217-555-0100", tin_type: "EIN", tin: "12-3456789" })).status).toBe(200)
    const dry = await c.post("/v1/tax-forms/filings", { year: 2026, provider: "gov_csv", dry_run: true })
    expect(dry.status).toBe(200)
    expect(JSON.stringify(dry.body)).toContain("215000")
  })
})

import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { agentWithThreshold, createPerson, makeTestApp, newKey, type TestApp, type TestCompany } from "../support/index.ts"

let app: TestApp
beforeAll(async () => {
  app = await makeTestApp({ clock: "2026-07-02T12:00:00Z" })
})
afterAll(() => app.close())

const post = (company: TestCompany, path: string, body: unknown, token = company.ownerKey, headers: Record<string, string> = {}) =>
  app.call("POST", path, { token, key: newKey(), body, headers })
const get = (company: TestCompany, path: string) => app.call("GET", path, { token: company.ownerKey })
const line = (estimate: any, number: string) => estimate.worksheet.find((one: any) => one.line === number)?.cents

describe("estimated taxes", () => {
  it("plans a sole proprietor's 1040-ES by the worksheet, choosing the prior-year safe harbor", async () => {
    const company = await app.createCompany({ name: "Sole prop" })
    const planned = await post(company, "/v1/estimated-taxes/plan", {
      year: 2025, return_type: "SCHC", income_method: "manual", manual_income_cents: 8_000_000, filing_status: "single",
      prior_year_tax_cents: 1_200_000, payment_account: "3020", pay_from_account: "1010"
    })
    expect(planned.status).toBe(200)
    // Hand-worked with the 2025 Form 1040-ES Estimated Tax Worksheet and Schedule SE:
    //   SE: $80,000 x 92.35% = $73,880; x 12.4% = $9,161.12; x 2.9% = $2,142.52; SE tax $11,303.64 (line 9), half $5,651.82.
    //   AGI (line 1) $80,000 - $5,651.82 = $74,348.18; standard deduction (2a) $15,750.
    //   QBI (2b) 20% x min($74,348.18, $58,598.18) = $11,719.64; taxable (3) $46,878.54.
    //   Tax (4): 10% x $11,925 + 12% x $34,953.54 = $1,192.50 + $4,194.42 = $5,386.92.
    //   Total (11c) $16,690.56; 90% (12a) $15,021.50; prior year (12b) $12,000 -> required (12c) $12,000; $3,000 a quarter.
    const estimate = planned.body
    expect(estimate.form).toBe("1040-ES")
    expect(line(estimate, "9")).toBe(1_130_364)
    expect(line(estimate, "1")).toBe(7_434_818)
    expect(line(estimate, "2a")).toBe(1_575_000)
    expect(line(estimate, "2b")).toBe(1_171_964)
    expect(line(estimate, "3")).toBe(4_687_854)
    expect(line(estimate, "4")).toBe(538_692)
    expect(estimate.total_tax_cents).toBe(1_669_056)
    expect(estimate.safe_harbors).toMatchObject({ current_year_cents: 1_502_150, prior_year_cents: 1_200_000, required_annual_cents: 1_200_000, chosen: "prior_year", payments_required: true })
    // June 15, 2025 is a Sunday: due Monday June 16.
    expect(estimate.quarters.map((q: any) => [q.due_date, q.amount_cents])).toEqual([
      ["2025-04-15", 300_000], ["2025-06-16", 300_000], ["2025-09-15", 300_000], ["2026-01-15", 300_000]
    ])
    const highAgi = await post(company, "/v1/estimated-taxes/plan", { year: 2025, prior_year_high_agi: true, dry_run: true })
    expect(highAgi.body.safe_harbors).toMatchObject({ prior_year_cents: 1_320_000, required_annual_cents: 1_320_000 })
    const current = await post(company, "/v1/estimated-taxes/plan", { year: 2025, safe_harbor: "current_year", dry_run: true })
    expect(current.body.safe_harbors.required_annual_cents).toBe(1_502_150)
    expect(current.body.quarters.map((q: any) => q.amount_cents)).toEqual([375_538, 375_538, 375_537, 375_537])
    const saved = await get(company, "/v1/estimated-taxes?year=2025")
    expect(saved.body).toMatchObject({ saved: true, total_due_cents: 1_200_000 })
  })

  it("moves due dates past holidays: Emancipation Day in April 2023 and Martin Luther King Jr. Day in January 2024", async () => {
    const company = await app.createCompany({ name: "Holiday dates" })
    const estimate = await post(company, "/v1/estimated-taxes/plan", { year: 2023, income_method: "manual", manual_income_cents: 5_000_000, dry_run: true })
    expect(estimate.body.quarters.map((q: any) => q.due_date)).toEqual(["2023-04-18", "2023-06-15", "2023-09-15", "2024-01-16"])
    const unsupported = await get(company, "/v1/estimated-taxes?year=2019")
    expect(unsupported.status).toBe(422)
    expect(unsupported.body.error.type).toBe("tax_year_unsupported")
  })

  it("plans a C corporation's 1120-W, with the large-corporation rule", async () => {
    const company = await app.createCompany({ name: "C corp" })
    const profile = await app.call("POST", "/v1/tax/profile", { token: company.ownerKey, body: { return_type: "1120" } })
    expect(profile.status).toBe(200)
    // Without a saved plan, the return type is the tax profile's.
    expect((await get(company, "/v1/estimated-taxes?year=2026")).body.form).toBe("1120-W")
    // 2026 Form 1120-W: taxable income $500,000 x 21% = $105,000 (line 2); prior year's tax $80,000 -> required $80,000.
    const plain = await post(company, "/v1/estimated-taxes/plan", { year: 2026, return_type: "1120", income_method: "manual", manual_income_cents: 50_000_000, prior_year_tax_cents: 8_000_000 })
    expect(plain.body).toMatchObject({ form: "1120-W", total_tax_cents: 10_500_000, total_due_cents: 8_000_000 })
    expect(plain.body.quarters.map((q: any) => [q.due_date, q.amount_cents])).toEqual([
      ["2026-04-15", 2_000_000], ["2026-06-15", 2_000_000], ["2026-09-15", 2_000_000], ["2026-12-15", 2_000_000]
    ])
    // A large corporation uses the prior year only for the first installment; the second catches up to 50% of $105,000.
    const large = await post(company, "/v1/estimated-taxes/plan", { year: 2026, large_corporation: true })
    expect(large.body.quarters.map((q: any) => q.amount_cents)).toEqual([2_000_000, 3_250_000, 2_625_000, 2_625_000])
    expect(large.body.total_due_cents).toBe(10_500_000)
    // December 15, 2024 is a Sunday: a calendar-year corporation's fourth installment is due Monday December 16.
    const dated = await post(company, "/v1/estimated-taxes/plan", { year: 2024, return_type: "1120", income_method: "manual", manual_income_cents: 1_000_000, dry_run: true })
    expect(dated.body.quarters[3].due_date).toBe("2024-12-16")
  })

  it("takes the books' income year to date, annualized by days", async () => {
    const company = await app.createCompany({ name: "Books income" })
    const entry = await post(company, "/v1/journal-entries/propose", {
      entry_date: "2026-02-01", memo: "Sales and costs",
      lines: [{ account: "1010", debit_cents: 2_500_000 }, { account: "6070", debit_cents: 500_000 }, { account: "4900", credit_cents: 3_000_000 }]
    })
    expect(entry.status).toBe(201)
    const ytd = await post(company, "/v1/estimated-taxes/plan", { year: 2026, income_method: "ytd", dry_run: true })
    expect(ytd.body.income_cents).toBe(2_500_000)
    // July 2, 2026 is day 183 of 365: $25,000 x 365 / 183 = $49,863.39.
    const annualized = await post(company, "/v1/estimated-taxes/plan", { year: 2026, income_method: "annualized", dry_run: true })
    expect(annualized.body.income_cents).toBe(4_986_339)
    const agent = await agentWithThreshold(app, company, { thresholdCents: 0, scopes: ["read", "propose", "approve"] })
    const refused = await post(company, "/v1/estimated-taxes/plan", { year: 2026 }, agent.key, agent.headers)
    expect(refused.status).toBe(403)
  })

  it("records payments as entries or outside the books, and voids them", async () => {
    const company = await app.createCompany({ name: "Payments" })
    await post(company, "/v1/estimated-taxes/plan", { year: 2026, income_method: "manual", manual_income_cents: 8_000_000, prior_year_tax_cents: 1_200_000 })
    const missing = await post(company, "/v1/estimated-taxes/payments", { year: 2026, quarter: 1, paid_on: "2026-04-14", amount_cents: 300_000, method: "eftps" })
    expect(missing.body.error.type).toBe("payment_account_required")
    const body = { year: 2026, quarter: 1, paid_on: "2026-04-14", amount_cents: 300_000, method: "eftps", confirmation: "EFT123", payment_account: "3020", pay_from_account: "1010" }
    const dry = await post(company, "/v1/estimated-taxes/payments", { ...body, dry_run: true })
    expect(dry.status).toBe(200)
    expect(dry.body.entry.lines).toHaveLength(2)
    const paid = await post(company, "/v1/estimated-taxes/payments", body)
    expect(paid.status).toBe(201)
    expect(paid.body.entry_id).toBeGreaterThan(0)
    const outside = await post(company, "/v1/estimated-taxes/payments", { year: 2026, quarter: 2, paid_on: "2026-06-10", amount_cents: 100_000, method: "card", outside_books: true })
    expect(outside.status).toBe(201)
    expect(outside.body).toMatchObject({ outside_books: true, entry_id: null })
    const estimate = await get(company, "/v1/estimated-taxes?year=2026")
    expect(estimate.body.quarters.slice(0, 2).map((q: any) => [q.paid_cents, q.remaining_cents])).toEqual([[300_000, 0], [100_000, 200_000]])
    expect(estimate.body.paid_cents).toBe(400_000)

    const agent = await agentWithThreshold(app, company, { thresholdCents: 0 })
    const agentOutside = await post(company, "/v1/estimated-taxes/payments", { ...body, outside_books: true }, agent.key, agent.headers)
    expect(agentOutside.status).toBe(403)
    const proposal = await post(company, "/v1/estimated-taxes/payments", { ...body, quarter: 3, paid_on: "2026-06-30" }, agent.key, agent.headers)
    expect(proposal.status).toBe(202)
    const accountant = await createPerson(app, company, "accountant", ["read", "propose", "approve"])
    expect((await post(company, `/v1/proposals/${proposal.body.proposal.id}/approve`, {}, accountant.key)).status).toBe(201)

    const voided = await post(company, `/v1/estimated-taxes/payments/${paid.body.id}/void`, { reason: "Bank returned it" })
    expect(voided.status).toBe(200)
    expect(voided.body).toMatchObject({ status: "void", void_reason: "Bank returned it" })
    const reversal = await app.query<{ reverses_entry_id: string }>(`SELECT reverses_entry_id::text FROM journal_entries WHERE company_id = $1 AND id = $2`, [company.companyId, voided.body.void_entry_id])
    expect(reversal[0]!.reverses_entry_id).toBe(String(paid.body.entry_id))
    const outsideVoid = await post(company, `/v1/estimated-taxes/payments/${outside.body.id}/void`, { reason: "Duplicate" })
    expect(outsideVoid.body).toMatchObject({ status: "void", void_entry_id: null })
    expect((await post(company, `/v1/estimated-taxes/payments/${outside.body.id}/void`, { reason: "again" })).body.error.type).toBe("already_void")
    const after = await get(company, "/v1/estimated-taxes?year=2026")
    expect(after.body.paid_cents).toBe(300_000)
  })
})

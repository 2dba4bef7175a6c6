import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeTestApp, newKey, type TestApp, type TestCompany } from "../support/index.ts"

/**
 * Next year before its tables exist (issue 38 item 5, DECISIONS "Tax years", ADR 2007): on
 * 2026-12-07 Ledger has 2026's tables and not 2027's. Due dates, payments and the prior-year safe
 * harbor need none; the figures that need tables use 2026's and say so in their own fields.
 */

let app: TestApp
beforeAll(async () => {
  app = await makeTestApp({ clock: "2026-12-07T12:00:00Z" })
})
afterAll(() => app.close())

const post = (company: TestCompany, path: string, body: unknown) => app.call("POST", path, { token: company.ownerKey, key: newKey(), body })
const get = (company: TestCompany, path: string) => app.call("GET", path, { token: company.ownerKey })

describe("estimated taxes for next year", () => {
  it("answers due dates, the prior-year safe harbor and payments; the worksheet says it used 2026's tables", async () => {
    const company = await app.createCompany({ name: "Next Year Co" })
    const empty = await get(company, "/v1/estimated-taxes?year=2027")
    expect(empty.status, JSON.stringify(empty.body)).toBe(200)
    // January 15, 2028 is a Saturday and the 17th is Martin Luther King Jr. Day: due Tuesday the 18th.
    expect(empty.body.quarters.map((q: any) => [q.statutory_date, q.due_date])).toEqual([
      ["2027-04-15", "2027-04-15"], ["2027-06-15", "2027-06-15"], ["2027-09-15", "2027-09-15"], ["2028-01-15", "2028-01-18"]
    ])
    expect(empty.body).toMatchObject({ tax_year: 2027, tables_year: 2026, tables_estimated: true })
    expect(empty.body.tables_source).toContain("2026")
    expect(empty.body.safe_harbors.current_year_estimated).toBe(true)

    const planned = await post(company, "/v1/estimated-taxes/plan", {
      year: 2027, income_method: "manual", manual_income_cents: 8_000_000, prior_year_tax_cents: 1_200_000, safe_harbor: "prior_year"
    })
    expect(planned.status, JSON.stringify(planned.body)).toBe(200)
    // The prior-year safe harbor is the prior year's tax: no 2027 table is involved.
    expect(planned.body.safe_harbors).toMatchObject({ prior_year_cents: 1_200_000, required_annual_cents: 1_200_000, chosen: "prior_year" })
    expect(planned.body.quarters.map((q: any) => q.amount_cents)).toEqual([300_000, 300_000, 300_000, 300_000])
    // The same income on 2026's tables gives the same worksheet: that is the estimate it says it is.
    const onTables2026 = await post(company, "/v1/estimated-taxes/plan", { year: 2026, income_method: "manual", manual_income_cents: 8_000_000, dry_run: true })
    expect(planned.body.total_tax_cents).toBe(onTables2026.body.total_tax_cents)
    expect(onTables2026.body).toMatchObject({ tables_year: 2026, tables_estimated: false, safe_harbors: { current_year_estimated: false } })

    const paid = await post(company, "/v1/estimated-taxes/payments", {
      year: 2027, quarter: 1, paid_on: "2026-12-07", amount_cents: 300_000, method: "direct_pay", outside_books: true
    })
    expect(paid.status, JSON.stringify(paid.body)).toBe(201)
    const read = await get(company, "/v1/estimated-taxes?year=2027")
    expect(read.body.payments.map((payment: any) => payment.id)).toEqual([paid.body.id])
    expect(read.body.quarters[0]).toMatchObject({ paid_cents: 300_000, remaining_cents: 0 })
    expect(read.body.paid_cents).toBe(300_000)
  })

  it("a C corporation's 21% needs no year's tables", async () => {
    const company = await app.createCompany({ name: "Next Year Corp" })
    const planned = await post(company, "/v1/estimated-taxes/plan", { year: 2027, return_type: "1120", income_method: "manual", manual_income_cents: 50_000_000 })
    expect(planned.status, JSON.stringify(planned.body)).toBe(200)
    expect(planned.body).toMatchObject({ form: "1120-W", total_tax_cents: 10_500_000, tables_year: null, tables_estimated: false })
    expect(planned.body.safe_harbors.current_year_estimated).toBe(false)
  })

  it("refuses a year past next year, or before the first, for estimates and payments alike", async () => {
    const company = await app.createCompany({ name: "Far Year Co" })
    for (const year of [2028, 2022]) {
      const estimate = await get(company, `/v1/estimated-taxes?year=${year}`)
      expect(estimate.status).toBe(422)
      expect(estimate.body.error.type).toBe("tax_year_unsupported")
      expect(estimate.body.error.details).toMatchObject({ first_year: 2023, last_year: 2027 })
      const payment = await post(company, "/v1/estimated-taxes/payments", {
        year, quarter: 1, paid_on: "2026-12-07", amount_cents: 10_000, method: "check", outside_books: true
      })
      expect(payment.status).toBe(422)
      expect(payment.body.error.type).toBe("tax_year_unsupported")
    }
    expect((await get(company, "/v1/estimated-taxes?year=2026")).body.payments).toEqual([])
  })
})

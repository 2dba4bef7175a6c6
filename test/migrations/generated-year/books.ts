import { expect } from "vitest"
import { fromReport, openDocuments, trialBalanceAt } from "./expected.ts"
import { asOf, monthEnds, type Year } from "./year.ts"

/**
 * What both editions' tie-out tests hold the imported books to, after the import: the trial
 * balance at each quarter's end is the generator's own, every customer and vendor came over (the
 * last customer inactive), and AR and AP aging are the open documents, per customer too.
 */
/** What the checks read with: the owner's `writer` of test/migrations/support.ts (named by shape, so this folder imports nothing of its parent's). */
export interface Reader {
  readonly get: (path: string) => Promise<{ readonly body: any }>
}

export const expectBooksAsGenerated = async (owner: Reader, year: Year) => {
  for (const end of monthEnds) {
    const report = (await owner.get(`/v1/reports/trial-balance?as_of=${end}`)).body
    expect(fromReport(report), end).toEqual(trialBalanceAt(year, end))
  }
  // The inactive account has history: it held the old savings at March's end, so the trial balance
  // above could only match with it imported.
  expect(trialBalanceAt(year, "2025-03-31")["1020"]).toBe(500_000)

  const customers = (await owner.get("/v1/contacts?kind=customer&include_inactive=true&limit=100")).body.data
  expect(customers.map((contact: any) => contact.name).sort()).toEqual(year.customers.map((party) => party.name).sort())
  expect(customers.filter((contact: any) => !contact.active).map((contact: any) => contact.name)).toEqual([year.customers.at(-1)!.name])
  const vendors = (await owner.get("/v1/contacts?kind=vendor&include_inactive=true&limit=100")).body.data
  expect(vendors.map((contact: any) => contact.name).sort()).toEqual(year.vendors.map((party) => party.name).sort())

  const open = openDocuments(year)
  const unapplied = (aging: any) => aging.rows.reduce((sum: number, row: any) => sum + row.unapplied_credit_cents, 0)
  const ar = (await owner.get(`/v1/reports/ar-aging?as_of=${asOf}`)).body
  expect(ar.totals.total_cents).toBe(open.invoices)
  expect(unapplied(ar)).toBe(open.customerCredits)
  for (const customer of year.customers) {
    const row = ar.rows.find((candidate: any) => candidate.name === customer.name)
    expect(row === undefined ? 0 : row.total_cents - row.unapplied_credit_cents, customer.name).toBe(open.parties.get(customer.id) ?? 0)
  }
  const ap = (await owner.get(`/v1/reports/ap-aging?as_of=${asOf}`)).body
  expect(ap.totals.total_cents).toBe(open.bills)
  expect(unapplied(ap)).toBe(open.vendorCredits)
  return { customers, vendors, open }
}

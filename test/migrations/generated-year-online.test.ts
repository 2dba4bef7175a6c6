import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { FakeOnlineBooks } from "@ledger/testkit"
import type { TestApp } from "../support/index.ts"
import { valueProblems } from "../support/providers/quickbooks-online.ts"
import { typeCounts } from "./generated-year/expected.ts"
import { onlineCompany } from "./generated-year/online.ts"
import { asOf, generateYear } from "./generated-year/year.ts"
import { expectBooksAsGenerated } from "./generated-year/books.ts"
import { makeProviderApp, writer } from "./support.ts"

/**
 * Issue 39 item 4, the online edition: a generated year of a small business (every everyday
 * transaction type, sales tax, an inactive account with history, an inactive customer and vendor,
 * documents left open) served by the fake as QuickBooks Online's v3 API holds it, migrated through
 * the operations a person calls, must tie out and come over to the cent at every quarter's end,
 * with its contacts and its open documents. The expected figures are the generator's own.
 * LEDGER_LONG=1 runs a busier year.
 */

const long = process.env.LEDGER_LONG === "1"
const year = generateYear({ seed: 39_004, invoicesPerMonth: long ? 120 : 8, customers: long ? 300 : 12 })
const company = onlineCompany(year)

let app: TestApp
let online: FakeOnlineBooks.FakeOnlineBooks
beforeAll(async () => {
  const made = await makeProviderApp({ readBudget: 1_000 })
  app = made.app
  online = made.online
  Object.assign(online.company, structuredClone(company))
})
afterAll(() => app.close())

describe("a generated year migrates from the online edition and ties out", () => {
  it("has every common transaction type, and each entity is one Intuit's v3 description takes", () => {
    expect(Object.keys(typeCounts(year)).sort()).toEqual(["bill", "billPayment", "cardPayment", "creditMemo", "deposit", "expense", "invoice", "journal",
      "payment", "salesReceipt", "taxPayment", "transfer", "vendorCredit"])
    for (const [entity, records] of Object.entries(company)) {
      for (const record of records) expect(valueProblems(entity, record, `${entity} ${record.Id}`)).toEqual([])
    }
    expect(company.Account!.filter((account) => account.Active === false)).toHaveLength(1)
  })

  it("extracts, ties out, imports: the trial balance at each quarter's end, the contacts and AR and AP aging are the source's", async () => {
    const created = await app.createCompany({ name: "Generated Online Co", starter_chart: "empty" })
    const owner = writer(app, created.ownerKey)
    const connection = await owner.post("/v1/migrations/online/connections", { as_of: asOf })
    const consent = online.consent(connection.body.consent_url)
    const id = connection.body.connection.id
    expect((await owner.post(`/v1/migrations/online/connections/${id}/authorize`, { code: consent.code, state: consent.state, realm_id: consent.realmId })).status).toBe(200)
    expect((await owner.post(`/v1/migrations/online/connections/${id}/estimate`)).body.estimate.fits).toBe(true)
    const extracted = await owner.post(`/v1/migrations/online/connections/${id}/extract`)
    expect(extracted.body.status, JSON.stringify(extracted.body)).toBe("extracted")
    const tieout = (await owner.get(`/v1/migrations/online/connections/${id}/tieout`)).body
    expect(tieout.passed, tieout.markdown).toBe(true)
    const imported = await owner.post(`/v1/migrations/online/connections/${id}/import`)
    expect(imported.body.result, JSON.stringify(imported.body)).toBe("PASS")

    const { customers, open } = await expectBooksAsGenerated(owner, year)
    expect(customers.find((contact: any) => contact.name === year.customers[0]!.name).email).toBe(year.customers[0]!.email)
    expect(open.invoices).toBeGreaterThan(0)
    expect(open.bills).toBeGreaterThan(0)
    expect(open.customerCredits).toBeGreaterThan(0)
    expect(open.vendorCredits).toBeGreaterThan(0)
  }, 180_000)
})

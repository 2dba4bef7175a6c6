import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestApp } from "../support/index.ts"
import { makeProviderApp, writer } from "./support.ts"
import { makeCompany } from "./qbxml.ts"
import { connector, listen } from "./soap.ts"

/**
 * Issue 39 item 9 (spec 4.16, ADR 2111): a desktop import brings over the lists and the open
 * documents. Played through the real Web Connector SOAP flow against the generated company, which
 * answers as QuickBooks does (open documents only when asked with PaidStatus NotPaidOnly, inactive
 * customers only with ActiveStatus All, line items only with IncludeLineItems).
 */

let app: TestApp
let server: { url: string; close: () => Promise<void> }
beforeAll(async () => {
  app = (await makeProviderApp()).app
  server = await listen(app.fetch)
})
afterAll(async () => {
  await server.close()
  await app.close()
})

type Books = ReturnType<typeof makeCompany>

/** Creates a connection and plays the connector to the end; answers the requests it sent. */
const extract = async (name: string, books: Books, alter?: (request: string, entity: string, records: Array<string>) => Array<string>) => {
  const company = await app.createCompany({ name, starter_chart: "empty" })
  const owner = writer(app, company.ownerKey)
  const created = await owner.post("/v1/migrations/desktop/connections", { as_of: "2026-03-31" })
  const qb = connector(server.url)
  const { ticket } = await qb.authenticate(created.body.user_name, created.body.password)
  const requests: Array<string> = []
  for (;;) {
    const request = await qb.sendRequestXML(ticket)
    if (request === "") break
    requests.push(request)
    const percent = await qb.receiveResponseXML(ticket, books.respond(request, alter === undefined ? undefined : (entity, records) => alter(request, entity, records)))
    if (percent < 0) throw new Error(await qb.getLastError(ticket))
  }
  return { company, owner, id: created.body.connection.id as number, requests }
}

const balanceOf = async (companyId: string, code: string) =>
  Number((await app.query<{ total: unknown }>(`SELECT COALESCE(SUM(l.amount_cents), 0) AS total FROM journal_lines l
    JOIN accounts a ON a.company_id = l.company_id AND a.id = l.account_id WHERE l.company_id = $1 AND a.code = $2`, [companyId, code]))[0]!.total)

const unapplied = (aging: any) => aging.rows.reduce((sum: number, row: any) => sum + row.unapplied_credit_cents, 0)

describe("a desktop import brings over customers, vendors and open documents", () => {
  it("asks for the open invoices and bills as QuickBooks takes it, and the fake refuses what QuickBooks refuses", async () => {
    const books = makeCompany({ customers: 6, perMonth: 4 })
    const { requests } = await extract("Open Requests Co", books)
    const open = requests.filter((request) => request.includes("<PaidStatus>NotPaidOnly</PaidStatus>"))
    expect(open.map((request) => /<(\w+)QueryRq/.exec(request)![1])).toEqual(["Invoice", "Bill"])
    // After the date filter, before IncludeLineItems: qbXML 13's order.
    for (const request of open) expect(request).toMatch(/<\/TxnDateRangeFilter><PaidStatus>NotPaidOnly<\/PaidStatus><\/(Invoice|Bill)QueryRq>/)
    for (const list of ["Customer", "Vendor"]) expect(requests.find((request) => request.includes(`<${list}QueryRq`))).toContain("<ActiveStatus>All</ActiveStatus>")
    const misordered = `<?xml version="1.0"?><?qbxml version="13.0"?><QBXML><QBXMLMsgsRq onError="stopOnError"><InvoiceQueryRq requestID="9">` +
      `<PaidStatus>NotPaidOnly</PaidStatus><TxnDateRangeFilter><ToTxnDate>2026-03-31</ToTxnDate></TxnDateRangeFilter></InvoiceQueryRq></QBXMLMsgsRq></QBXML>`
    expect(() => books.respond(misordered)).toThrow(/parsing the provided XML/)
    expect(() => books.respond(misordered.replace(/InvoiceQueryRq/g, "CustomerQueryRq").replace(/<TxnDateRangeFilter>.*<\/TxnDateRangeFilter>/, ""))).toThrow(/PaidStatus/)
  })

  it("after the import: contacts, AR and AP aging equal the source's open balances and the AR and AP accounts, the tie-out passes", async () => {
    const books = makeCompany({ customers: 12, perMonth: 6 })
    const { company, owner, id } = await extract("Open Documents Co", books)
    const tieout = (await owner.get(`/v1/migrations/desktop/connections/${id}/tieout`)).body
    expect(tieout.passed).toBe(true)
    expect(tieout.markdown).toContain("Open documents: AR")
    const imported = await owner.post(`/v1/migrations/desktop/connections/${id}/import`)
    expect(imported.body).toMatchObject({ result: "PASS", entries: books.transactions + books.open.documents + 1 })

    const customers = (await owner.get("/v1/contacts?kind=customer&include_inactive=true&limit=100")).body.data
    expect(customers).toHaveLength(12)
    expect(customers.find((contact: any) => contact.name === "Customer 1")).toMatchObject({ active: false })
    expect(customers.find((contact: any) => contact.name === "Customer 2")).toMatchObject({ active: true, email: "ap@customer-2.example" })
    expect((await owner.get("/v1/contacts?kind=vendor")).body.data.map((contact: any) => contact.name)).toEqual(["Paper Supply"])

    const ar = (await owner.get("/v1/reports/ar-aging?as_of=2026-03-31")).body
    expect(books.open.invoices).toBeGreaterThan(0)
    expect(ar.totals.total_cents).toBe(books.open.invoices)
    // Credits: the open credit memos and the payments QuickBooks kept unused.
    expect(books.open.unusedPayments).toBeGreaterThan(0)
    expect(unapplied(ar)).toBe(books.open.creditMemos + books.open.unusedPayments)
    expect(ar.totals.total_cents - unapplied(ar)).toBe(books.accounts.ar!.balance)
    expect(await balanceOf(company.companyId, "1100")).toBe(books.accounts.ar!.balance)
    // Each customer's open documents less its credits are its balance in the source.
    for (const customer of books.customers.filter((candidate) => candidate.balance !== 0)) {
      const row = ar.rows.find((candidate: any) => candidate.name === customer.name)
      expect(row.total_cents - row.unapplied_credit_cents, customer.name).toBe(customer.balance)
    }

    const ap = (await owner.get("/v1/reports/ap-aging?as_of=2026-03-31")).body
    expect(ap.totals.total_cents).toBe(books.open.bills)
    expect(unapplied(ap)).toBe(books.open.vendorCredits)
    expect(ap.totals.total_cents - unapplied(ap)).toBe(books.accounts.ap!.balance)
    // AP is a liability: its credit balance sums negative in the journal.
    expect(await balanceOf(company.companyId, "2000")).toBe(-books.accounts.ap!.balance)
    expect(await balanceOf(company.companyId, "MIGRATION-CLEARING")).toBe(0)
    // The books' own figures, as of a later day too: the aging is what AR and AP hold.
    const later = (await owner.get("/v1/reports/ar-aging?as_of=2026-06-30")).body
    expect(later.totals.total_cents).toBe(books.open.invoices)
  })

  it("refuses the import when the open documents do not add up to AR", async () => {
    const books = makeCompany({ customers: 5, perMonth: 3 })
    const { owner, id, company } = await extract("Short Documents Co", books, (request, entity, records) =>
      entity === "Invoice" && request.includes("NotPaidOnly") ? records.slice(1) : records)
    const tieout = (await owner.get(`/v1/migrations/desktop/connections/${id}/tieout`)).body
    expect(tieout.passed).toBe(false)
    expect(tieout.ar_aging.passed).toBe(true)
    expect(tieout.markdown).toMatch(/Open documents: .*differs/)
    expect((await owner.post(`/v1/migrations/desktop/connections/${id}/import`)).body.error.type).toBe("tieout_failed")
    expect(Number((await app.query<{ count: unknown }>("SELECT count(*) AS count FROM contacts WHERE company_id = $1", [company.companyId]))[0]!.count)).toBe(0)
  })
})

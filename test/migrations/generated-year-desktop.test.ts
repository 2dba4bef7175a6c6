import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestApp } from "../support/index.ts"
import { desktopCompany } from "./generated-year/desktop.ts"
import { asOf, generateYear } from "./generated-year/year.ts"
import { responder } from "./qbxml.ts"
import { expectBooksAsGenerated } from "./generated-year/books.ts"
import { makeProviderApp, writer } from "./support.ts"
import { connector, listen } from "./soap.ts"

/**
 * Issue 39 item 4, the desktop edition: the generated year (every everyday transaction type, sales
 * tax collected and paid with "Pay Sales Tax", an inactive account with history, an inactive
 * customer and vendor, documents left open) answered in qbXML as QuickBooks answers the Web
 * Connector, extracted through the real SOAP flow and imported, must tie out and come over to the
 * cent at every quarter's end, with its contacts and its open documents. The expected figures are
 * the generator's own. LEDGER_LONG=1 runs a busier year.
 */

const long = process.env.LEDGER_LONG === "1"
const year = generateYear({ seed: 39_004, invoicesPerMonth: long ? 120 : 8, customers: long ? 300 : 12 })
const records = desktopCompany(year)
const respond = responder(() => records)

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

describe("a generated year migrates from the desktop edition and ties out", () => {
  it("extracts over the Web Connector, ties out, imports: the trial balance at each quarter's end, the contacts and AR and AP aging are the source's", async () => {
    const created = await app.createCompany({ name: "Generated Desktop Co", starter_chart: "empty" })
    const owner = writer(app, created.ownerKey)
    const connection = await owner.post("/v1/migrations/desktop/connections", { as_of: asOf })
    const qb = connector(server.url)
    const { ticket } = await qb.authenticate(connection.body.user_name, connection.body.password)
    const asked = new Set<string>()
    for (;;) {
      const request = await qb.sendRequestXML(ticket)
      if (request === "") break
      asked.add(/<(\w+)QueryRq/.exec(request)![1]!)
      const percent = await qb.receiveResponseXML(ticket, respond(request))
      if (percent < 0) throw new Error(await qb.getLastError(ticket))
    }
    // Every kind of record the company file holds was asked for.
    expect(Object.entries(records).filter(([entity, records]) => records.length > 0 && !asked.has(entity)).map(([entity]) => entity)).toEqual([])
    const id = connection.body.connection.id
    const tieout = (await owner.get(`/v1/migrations/desktop/connections/${id}/tieout`)).body
    expect(tieout.passed, tieout.markdown).toBe(true)
    const imported = await owner.post(`/v1/migrations/desktop/connections/${id}/import`)
    expect(imported.body.result, JSON.stringify(imported.body)).toBe("PASS")

    const { vendors } = await expectBooksAsGenerated(owner, year)
    expect(vendors.filter((contact: any) => !contact.active).map((contact: any) => contact.name)).toEqual(["Old Print Shop"])
  }, 180_000)
})

import { readFileSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { BookMigrations } from "@ledger/engine"
import type { TestApp } from "../support/index.ts"
import { makeProviderApp, writer } from "./support.ts"
import { connector, envelope, listen } from "./soap.ts"

/**
 * What receiveResponseXML refuses (a negative answer, nothing staged, the step not advanced, the
 * reason in getLastError) and what the /qbwc endpoint answers to hostile envelopes. Each refused
 * page is followed by the real fixture page, which is accepted: the refusals are about the page.
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

const accounts = readFileSync(new URL("../fixtures/qbxml/qbwc-qbxml_account_query_rs.xml", import.meta.url), "utf8")

const laughs = `<?xml version="1.0"?><!DOCTYPE QBXML [<!ENTITY lol "lol">` +
  Array.from({ length: 9 }, (_, n) => `<!ENTITY lol${n + 1} "${`&lol${n === 0 ? "" : n};`.repeat(10)}">`).join("") + `]>` +
  accounts.replace(/^<\?xml[^>]*\?>/, "").replace("<Name>Checking</Name>", "<Name>&lol9;</Name>")

const refused: Array<{ fault: string; response: string; error: RegExp }> = [
  { fault: "a truncated response", response: `<QBXML><QBXMLMsgsRs><AccountQueryRs requestID="1" statusCode="0"><AccountRet><Name>x`, error: /Malformed XML/ },
  { fault: "a DOCTYPE with an entity chain", response: laughs, error: /DOCTYPE/ },
  { fault: "an amount with 3 decimals", response: accounts.replace("<Balance>-197.02</Balance>", "<Balance>100.005</Balance>"), error: /Balance: 100\.005 has more than 2 decimals/ },
  { fault: "an amount past the safe integer range", response: accounts.replace("<Balance>-197.02</Balance>", "<Balance>-100000000000000000000.00</Balance>"), error: /Balance: .* out of range/ }
]

const stagedCount = async (companyId: string) =>
  Number((await app.query<{ count: unknown }>("SELECT count(*) AS count FROM migration_staged WHERE company_id = $1", [companyId]))[0]!.count)

describe("receiveResponseXML refuses what is not a sound qbXML page", () => {
  for (const { fault, response, error } of refused) {
    it(`refuses ${fault}: a negative answer, nothing staged, the step kept`, async () => {
      const company = await app.createCompany({ name: `Refusal ${fault}`, starter_chart: "empty" })
      const owner = writer(app, company.ownerKey)
      const created = await owner.post("/v1/migrations/desktop/connections", { as_of: "2026-03-31" })
      const qb = connector(server.url)
      const { ticket } = await qb.authenticate(created.body.user_name, created.body.password)
      expect(await qb.sendRequestXML(ticket)).toContain("<AccountQueryRq")
      expect(await qb.receiveResponseXML(ticket, response)).toBeLessThan(0)
      expect(await qb.getLastError(ticket)).toMatch(error)
      expect(await stagedCount(company.companyId)).toBe(0)
      const state = (await owner.get(`/v1/migrations/desktop/connections/${created.body.connection.id}`)).body
      expect(state.steps.find((step: any) => step.step === "accounts").fetched).toBe(0)
      // The same step asked again, answered with the real page: accepted, both accounts staged.
      expect(await qb.sendRequestXML(ticket)).toContain("<AccountQueryRq")
      expect(await qb.receiveResponseXML(ticket, accounts)).toBeGreaterThan(0)
      expect(await stagedCount(company.companyId)).toBe(2)
    })
  }

  it("reads amounts exactly and names the field it refuses", () => {
    const { centsOf } = BookMigrations.Qbxml
    expect(centsOf("1,234.5")).toBe(123450)
    expect(centsOf("-197.02")).toBe(-19702)
    expect(centsOf("100.000")).toBe(10000)
    expect(() => centsOf("100.005")).toThrow(/Amount: 100\.005 has more than 2 decimals/)
    expect(() => centsOf("90071992547409.93", "TotalAmount")).toThrow(/TotalAmount: .* out of range/)
  })
})

describe("the /qbwc endpoint and hostile envelopes", () => {
  it("answers 413 to a body over the limit, before reading it as SOAP", async () => {
    const body = envelope("serverVersion", { padding: "x".repeat(9 * 1024 * 1024) })
    const answer = await globalThis.fetch(`${server.url}/qbwc`, { method: "POST", headers: { "content-type": "text/xml" }, body })
    expect(answer.status).toBe(413)
    expect(await answer.text()).toContain("<faultcode>soap:Client</faultcode>")
  })

  it("answers a Client fault to an envelope with a DOCTYPE, and to a malformed one", async () => {
    const hostile = `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "Ledger">]>` + envelope("serverVersion", {}).replace(/^<\?xml[^>]*\?>/, "")
    for (const body of [hostile, envelope("serverVersion", {}).slice(0, -20)]) {
      const answer = await globalThis.fetch(`${server.url}/qbwc`, { method: "POST", headers: { "content-type": "text/xml" }, body })
      expect(answer.status).toBe(500)
      const text = await answer.text()
      expect(text).toContain("<faultcode>soap:Client</faultcode>")
      expect(text).toContain("Not a SOAP envelope")
    }
  })
})

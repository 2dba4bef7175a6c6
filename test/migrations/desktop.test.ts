import { readFileSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestApp } from "../support/index.ts"
import { makeProviderApp, writer } from "./support.ts"
import { makeCompany } from "./qbxml.ts"
import { connector, listen } from "./soap.ts"

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

const fixture = (name: string) => readFileSync(new URL(`../fixtures/qbxml/${name}`, import.meta.url), "utf8")

const start = async (name: string) => {
  const company = await app.createCompany({ name, starter_chart: "empty" })
  const owner = writer(app, company.ownerKey)
  const created = await owner.post("/v1/migrations/desktop/connections", { as_of: "2026-03-31" })
  expect(created.status).toBe(201)
  return {
    company, owner, connection: created.body.connection, userName: created.body.user_name as string, password: created.body.password as string,
    downloadToken: created.body.download_token as string
  }
}

/** Plays the connector until it has nothing more to ask, answering with `respond`. */
const play = async (ticket: string, respond: (request: string) => string, stopAfter = Infinity) => {
  const qb = connector(server.url)
  let calls = 0
  let percent = 0
  for (;;) {
    const request = await qb.sendRequestXML(ticket)
    if (request === "") return { calls, percent, done: true }
    percent = await qb.receiveResponseXML(ticket, respond(request))
    if (percent < 0) throw new Error(await qb.getLastError(ticket))
    if (++calls >= stopAfter) return { calls, percent, done: false }
  }
}

const count = async (table: string, companyId: string) =>
  Number((await app.query<{ count: unknown }>(`SELECT count(*) AS count FROM ${table} WHERE company_id = $1`, [companyId]))[0]!.count)

describe("desktop edition migration over the Web Connector", () => {
  it("answers a GET of the endpoint, and a SOAP fault for what is not an envelope or not a method", async () => {
    expect((await globalThis.fetch(`${server.url}/qbwc`)).status).toBe(200)
    const garbage = await globalThis.fetch(`${server.url}/qbwc`, { method: "POST", headers: { "content-type": "text/xml" }, body: "<nope" })
    expect(garbage.status).toBe(500)
    expect(await garbage.text()).toContain("<soap:Fault>")
    const unknown = await connector(server.url).raw("dropTables").catch((error: Error) => error.message)
    expect(unknown).toContain("Unknown method dropTables")
    expect(await connector(server.url).sendRequestXML("no-such-ticket")).toBe("")
  })

  it("hands out the connector file once, locks after wrong passwords and unlocks", async () => {
    const { owner, connection, userName, password, downloadToken } = await start("Lock Co")
    expect((await owner.post(`/v1/migrations/desktop/connections/${connection.id}/qwc`, { download_token: "wrong" })).status).toBe(403)
    const file = await owner.post(`/v1/migrations/desktop/connections/${connection.id}/qwc`, { download_token: downloadToken })
    expect(file.status).toBe(200)
    expect(file.body.qwc).toContain(`<UserName>${userName}</UserName>`)
    expect(file.body.qwc).toContain("<IsReadOnly>true</IsReadOnly>")
    // The Web Connector is sent to the deployment's public address, never to localhost.
    expect(file.body.qwc).toContain("<AppURL>https://ledger.example.com/qbwc</AppURL>")
    expect(file.body.qwc).not.toContain("localhost")
    expect((await owner.post(`/v1/migrations/desktop/connections/${connection.id}/qwc`, { download_token: downloadToken })).body.error.type).toBe("download_token_invalid")
    const qb = connector(server.url)
    expect(await qb.serverVersion()).toContain("Ledger")
    expect(await qb.clientVersion()).toBe("")
    for (let attempt = 0; attempt < 5; attempt++) expect((await qb.authenticate(userName, "nope")).status).toBe("nvu")
    expect((await qb.authenticate(userName, password)).status).toBe("nvu")
    expect((await owner.get(`/v1/migrations/desktop/connections/${connection.id}`)).body.status).toBe("locked")
    expect((await owner.post(`/v1/migrations/desktop/connections/${connection.id}/unlock`)).body.status).toBe("created")
    const session = await qb.authenticate(userName, password)
    expect(session.status).toBe("")
    expect(session.ticket.length).toBeGreaterThan(20)
    const revoked = await owner.post(`/v1/migrations/desktop/connections/${connection.id}/revoke`, { reason: "Not now" })
    expect(revoked.body.status).toBe("revoked")
    expect(await qb.sendRequestXML(session.ticket)).toBe("")
    expect((await qb.authenticate(userName, password)).status).toBe("nvu")
  })

  it("reads the real qbXML responses, and refuses to import when they do not tie out", async () => {
    const { owner, connection, userName, password, company } = await start("Fixture Co")
    const qb = connector(server.url)
    const { ticket } = await qb.authenticate(userName, password)
    let customerPages = 0
    await play(ticket, (request) => {
      if (request.includes("<AccountQueryRq")) return fixture("qbwc-qbxml_account_query_rs.xml")
      if (request.includes("<CustomerQueryRq")) {
        expect(request).toMatch(customerPages === 0 ? /iterator="Start"/ : /iterator="Continue" iteratorID="\{eb05f701/)
        return fixture(customerPages++ === 0 ? "qbwc-qbxml_customer_query_terator_rs.xml" : "qbwc-qbxml_customer_query_rs.xml")
      }
      if (request.includes("<ReceivePaymentQueryRq")) return fixture("qbwc-qbxml_receive_payment_query_rs.xml")
      const name = /<(\w+)QueryRq/.exec(request)![1]
      return `<?xml version="1.0" ?><QBXML><QBXMLMsgsRs><${name}QueryRs requestID="1" statusCode="1" statusSeverity="Info" statusMessage="No match"/></QBXMLMsgsRs></QBXML>`
    })
    const state = (await owner.get(`/v1/migrations/desktop/connections/${connection.id}`)).body
    expect(state.status).toBe("extracted")
    expect(state.company_file).toBe("C:\\Company Files\\Books.QBW")
    const fetched = Object.fromEntries(state.steps.map((step: any) => [step.step, step.fetched]))
    expect(fetched).toMatchObject({ accounts: 2, customers: 2, payments_received: 1 })
    const tieout = (await owner.get(`/v1/migrations/desktop/connections/${connection.id}/tieout`)).body
    expect(tieout.passed).toBe(false)
    expect(tieout.ar_aging.computed_cents).toBe(0)
    expect(tieout.markdown).toContain("FAIL")
    const refused = await owner.post(`/v1/migrations/desktop/connections/${connection.id}/import`)
    expect(refused.body.error.type).toBe("tieout_failed")
    expect(await count("journal_entries", company.companyId)).toBe(0)
  })

  it("extracts a generated company through iterators with an interruption, ties out, imports, cuts over", async () => {
    const { owner, connection, userName, password, company } = await start("Generated Co")
    const books = makeCompany()
    const qb = connector(server.url)
    const first = await qb.authenticate(userName, password)
    const interrupted = await play(first.ticket, (request) => books.respond(request), 2)
    expect(interrupted.done).toBe(false)
    const midway = (await owner.get(`/v1/migrations/desktop/connections/${connection.id}`)).body
    expect(midway.status).toBe("extracting")
    expect(midway.steps[0]).toMatchObject({ step: "accounts", status: "done", fetched: 10 })
    expect(midway.steps[1]).toMatchObject({ step: "customers", status: "running", fetched: 100, remaining: 50 })
    // The connector stops without closing; next time it resumes the step it was in.
    const second = await qb.authenticate(userName, password)
    const rest = await play(second.ticket, (request) => books.respond(request))
    expect(rest.done).toBe(true)
    expect(rest.percent).toBe(100)
    expect(await qb.closeConnection(second.ticket)).toBe("OK")
    const done = (await owner.get(`/v1/migrations/desktop/connections/${connection.id}`)).body
    expect(done.steps[1]).toMatchObject({ step: "customers", status: "done", fetched: 150, remaining: 0 })
    expect(done.bundle).toEqual({ accounts: 10, transactions: books.transactions, tieout_passed: true })
    // Every kind of transaction the generated company has was read (none of the newer iterators is empty).
    const fetched = Object.fromEntries(done.steps.map((step: any) => [step.step, step.fetched]))
    for (const step of ["credit_memos", "bill_payments_card", "vendor_credits", "item_receipts", "card_charges", "card_credits", "transfers"]) {
      expect(fetched[step], step).toBeGreaterThan(0)
    }
    const tieout = (await owner.get(`/v1/migrations/desktop/connections/${connection.id}/tieout`)).body
    expect(tieout.months.map((month: any) => month.month_end)).toEqual(["2026-01-31", "2026-02-28", "2026-03-31"])
    expect(tieout.passed).toBe(true)

    const imported = await owner.post(`/v1/migrations/desktop/connections/${connection.id}/import`)
    expect(imported.status).toBe(201)
    // One entry per source transaction, one per open document, and the one carrying AR and AP to them (ADR 2111).
    const entries = books.transactions + books.open.documents + 1
    expect(imported.body).toMatchObject({ result: "PASS", status: "imported", entries })
    expect(await count("journal_entries", company.companyId)).toBe(entries)
    const audit = await app.query<{ details: any }>(`SELECT details FROM audit_events WHERE company_id = $1 AND target_type = 'migration_import'`, [company.companyId])
    expect(JSON.stringify(audit[0]?.details)).toContain("imported_history")
    const checking = await app.query<{ total: unknown }>(`SELECT SUM(l.amount_cents) AS total FROM journal_lines l JOIN accounts a
      ON a.company_id = l.company_id AND a.id = l.account_id WHERE l.company_id = $1 AND a.code = '1010'`, [company.companyId])
    expect(Number(checking[0]!.total)).toBe(books.accounts.bank!.balance)
    // The card (a liability: credits are negative) and savings carry the card and transfer transactions to the cent.
    const balanceOf = async (code: string) => Number((await app.query<{ total: unknown }>(`SELECT COALESCE(SUM(l.amount_cents), 0) AS total FROM journal_lines l
      JOIN accounts a ON a.company_id = l.company_id AND a.id = l.account_id WHERE l.company_id = $1 AND a.code = $2`, [company.companyId, code]))[0]!.total)
    expect(await balanceOf("2100")).toBe(-books.accounts.card!.balance)
    expect(await balanceOf("1020")).toBe(books.accounts.savings!.balance)
    expect(books.accounts.card!.balance).toBeGreaterThan(0)
    expect((await owner.post(`/v1/migrations/desktop/connections/${connection.id}/import`)).body.error.type).toBe("migration_already_imported")
    const listed = await owner.get("/v1/migrations")
    expect(listed.body.data[0]).toMatchObject({ id: imported.body.id, result: "PASS" })
    const cut = await owner.post(`/v1/migrations/${imported.body.id}/cutover`)
    expect(cut.body).toMatchObject({ status: "cut_over" })
    expect((await owner.get(`/v1/migrations/desktop/connections/${connection.id}`)).body.status).toBe("cut_over")
    expect((await qb.authenticate(userName, password)).status).toBe("nvu")
  })

  it("keeps nothing when the ledger's own tie-out differs, and records the failed attempt", async () => {
    const { owner, connection, userName, password, company } = await start("Altered Co")
    const books = makeCompany({ customers: 5, perMonth: 3 })
    const qb = connector(server.url)
    const { ticket } = await qb.authenticate(userName, password)
    await play(ticket, (request) => books.respond(request))
    expect((await owner.get(`/v1/migrations/desktop/connections/${connection.id}/tieout`)).body.passed).toBe(true)
    // The staged copy of one payment is altered after the tie-out (still balanced): the books would differ.
    await app.query(`UPDATE migration_staged SET record = jsonb_set(jsonb_set(record, '{lines,0,cents}', '100'), '{lines,1,cents}', '-100')
      WHERE company_id = $1 AND connection_id = $2 AND source_id = 'ReceivePayment:P-1'`, [company.companyId, connection.id])
    const accountsBefore = await count("accounts", company.companyId)
    const failed = await owner.post(`/v1/migrations/desktop/connections/${connection.id}/import`)
    expect(failed.status).toBe(201)
    expect(failed.body).toMatchObject({ result: "FAIL", status: "failed", entries: 0 })
    expect(failed.body.differences.length).toBeGreaterThan(0)
    expect(await count("journal_entries", company.companyId)).toBe(0)
    expect(await count("accounts", company.companyId)).toBe(accountsBefore)
    // Nor the contacts and open documents the attempt made (ADR 2111).
    expect(await count("contacts", company.companyId)).toBe(0)
    expect(await count("documents", company.companyId)).toBe(0)
    expect((await owner.post(`/v1/migrations/${failed.body.id}/cutover`)).body.error.type).toBe("migration_not_passed")
  })
})

describe("the connector file on a deployment without an https address", () => {
  it("is refused before the download token is spent, and names LEDGER_BASE_URL", async () => {
    const plain = (await makeProviderApp({ publicBaseUrl: "http://books.example.com" })).app
    try {
      const company = await plain.createCompany({ name: "Plain Http Co", starter_chart: "empty" })
      const owner = writer(plain, company.ownerKey)
      const created = await owner.post("/v1/migrations/desktop/connections", { as_of: "2026-03-31" })
      const refused = await owner.post(`/v1/migrations/desktop/connections/${created.body.connection.id}/qwc`, { download_token: created.body.download_token })
      expect(refused.status).toBe(503)
      expect(refused.body.error.type).toBe("migration_connector_url_unusable")
      expect(refused.body.error.message).toContain("LEDGER_BASE_URL")
      // Still single use, still unused: the same token is refused for the same reason, not as spent.
      const again = await owner.post(`/v1/migrations/desktop/connections/${created.body.connection.id}/qwc`, { download_token: created.body.download_token })
      expect(again.body.error.type).toBe("migration_connector_url_unusable")
    } finally {
      await plain.close()
    }
  })
})

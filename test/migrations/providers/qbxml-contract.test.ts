import { readFileSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestApp } from "../../support/index.ts"
import { adapterProblems, requestProblems, responseProblems, soapOperations, soapProblems } from "../../support/providers/qbxml.ts"
import { desktopCompany } from "../generated-year/desktop.ts"
import { asOf, generateYear } from "../generated-year/year.ts"
import { makeCompany, responder } from "../qbxml.ts"
import { makeProviderApp, writer } from "../support.ts"
import { connector, listen } from "../soap.ts"

/**
 * The desktop edition's contract (issue 39): every qbXML request the real extraction sends through
 * the Web Connector's SOAP flow, and every answer the testkit's fake company gives, checked against
 * Intuit's qbXML 13.0 schemas (test/fixtures/providers/qbxml). Order matters in qbXML: QuickBooks
 * refuses a document whose elements are out of the schema's sequence.
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

/** Plays a whole extraction against `respond`, recording every request and answer. */
const extract = async (respond: (request: string) => string) => {
  const created = await app.createCompany({ name: "Contract Desktop Co", starter_chart: "empty" })
  const owner = writer(app, created.ownerKey)
  const connection = await owner.post("/v1/migrations/desktop/connections", { as_of: asOf })
  const qb = connector(server.url)
  const { ticket } = await qb.authenticate(connection.body.user_name, connection.body.password)
  const recorded: Array<{ request: string; answer: string }> = []
  for (;;) {
    const request = await qb.sendRequestXML(ticket)
    if (request === "") break
    const answer = respond(request)
    recorded.push({ request, answer })
    const percent = await qb.receiveResponseXML(ticket, answer)
    if (percent < 0) throw new Error(await qb.getLastError(ticket))
  }
  return recorded
}

/** Each answer is the response to its request: `<XQueryRs>` for `<XQueryRq>`, with its requestID echoed. */
const pairing = ({ request, answer }: { request: string; answer: string }): Array<string> => {
  const asked = /<(\w+)QueryRq requestID="([^"]*)"/u.exec(request)
  const told = /<(\w+)QueryRs requestID="([^"]*)"/u.exec(answer)
  return asked !== null && told !== null && asked[1] === told[1] && asked[2] === told[2] ? [] : [`${asked?.[0]} answered by ${told?.[0]}`]
}

const problemsOf = (recorded: ReadonlyArray<{ request: string; answer: string }>) => ({
  requests: [...new Set(recorded.flatMap(({ request }) => [...requestProblems(request), ...adapterProblems(request)]))],
  answers: [...new Set(recorded.flatMap((exchange) => [...responseProblems(exchange.answer), ...pairing(exchange)]))]
})

const valid = `<?xml version="1.0" encoding="utf-8"?>\n<?qbxml version="13.0"?>\n<QBXML><QBXMLMsgsRq onError="stopOnError">`
const end = `</QBXMLMsgsRq></QBXML>`

describe("the desktop edition against Intuit's qbXML 13.0 schemas", () => {
  it("every request of a whole extraction of the generated year, and every answer, match them", async () => {
    const recorded = await extract(responder(() => desktopCompany(generateYear({ seed: 39_006, invoicesPerMonth: 2, customers: 4 }))))
    const asked = new Set(recorded.map(({ request }) => /<(\w+QueryRq)/u.exec(request)![1]))
    expect(asked.size).toBeGreaterThanOrEqual(19)
    expect(recorded.some(({ request }) => request.includes(`iterator="Continue"`)) || recorded.length > asked.size).toBe(true)
    expect(problemsOf(recorded)).toEqual({ requests: [], answers: [] })
  }, 120_000)

  it("the fake company of the migration tests answers as the schemas say, iterators paging", async () => {
    const recorded = await extract(makeCompany({ customers: 130, perMonth: 2 }).respond)
    expect(recorded.some(({ request }) => request.includes(`iterator="Continue" iteratorID=`))).toBe(true)
    expect(problemsOf(recorded)).toEqual({ requests: [], answers: [] })
  }, 120_000)

  it("refuses what QuickBooks refuses: out of order, a missing required element, an unknown value, a missing attribute", () => {
    const account = `<AccountQueryRq requestID="1"><ActiveStatus>All</ActiveStatus></AccountQueryRq>`
    expect(requestProblems(valid + account + end)).toEqual([])
    expect(adapterProblems(valid + account + end)).toEqual([])
    // Valid by the schema (ActiveOnly is its default), but the adapter must ask for inactive records too.
    const activeOnly = valid + `<AccountQueryRq requestID="1"></AccountQueryRq>` + end
    expect(requestProblems(activeOnly)).toEqual([])
    expect(adapterProblems(activeOnly)).toEqual(["AccountQueryRq: ActiveStatus is absent (ActiveOnly), not All"])
    expect(requestProblems(valid + `<AccountQueryRq requestID="1"><ActiveStatus>Some</ActiveStatus></AccountQueryRq>` + end)).toEqual([
      "QBXML/QBXMLMsgsRq[0]/AccountQueryRq[0]/ActiveStatus[0]: \"Some\" is not one of ActiveOnly, InactiveOnly, All"
    ])
    // ActiveStatus comes after MaxReturned in ListFilter.
    expect(requestProblems(valid + `<CustomerQueryRq requestID="2" iterator="Start"><ActiveStatus>All</ActiveStatus><MaxReturned>100</MaxReturned></CustomerQueryRq>` + end)).toEqual([
      "QBXML/QBXMLMsgsRq[0]/CustomerQueryRq[0]: MaxReturned is not allowed here (after ActiveStatus)"
    ])
    // PaidStatus comes before IncludeLineItems, and only on the queries that have it.
    expect(requestProblems(valid + `<InvoiceQueryRq requestID="3"><IncludeLineItems>true</IncludeLineItems><PaidStatus>NotPaidOnly</PaidStatus></InvoiceQueryRq>` + end)).toEqual([
      "QBXML/QBXMLMsgsRq[0]/InvoiceQueryRq[0]: PaidStatus is not allowed here (after IncludeLineItems)"
    ])
    expect(requestProblems(valid + `<InvoiceQueryRq requestID="3"><PaidStatus>Paid</PaidStatus></InvoiceQueryRq>` + end)).toEqual([
      "QBXML/QBXMLMsgsRq[0]/InvoiceQueryRq[0]/PaidStatus[0]: \"Paid\" is not one of All, PaidOnly, NotPaidOnly"
    ])
    expect(requestProblems(valid + `<TransferQueryRq requestID="4"><PaidStatus>All</PaidStatus></TransferQueryRq>` + end)).toEqual([
      "QBXML/QBXMLMsgsRq[0]/TransferQueryRq[0]: PaidStatus is not allowed here (after nothing)"
    ])
    expect(requestProblems(valid + `<CustomerQueryRq requestID="5" iterator="Begin"></CustomerQueryRq>` + end)).toEqual([
      "QBXML/QBXMLMsgsRq[0]/CustomerQueryRq[0]@iterator: \"Begin\" is not one of Start, Continue, Stop"
    ])
    expect(requestProblems(`<?xml version="1.0"?>\n<?qbxml version="13.0"?>\n<QBXML><QBXMLMsgsRq>${account}${end}`)).toEqual(["QBXML/QBXMLMsgsRq[0]: attribute onError is required"])
    expect(requestProblems(valid.replace("13.0", "16.0") + account + end)).toEqual(["the qbxml processing instruction names version 16.0, not 13.0"])
    // A name filter names what it matches: without its Name it is refused.
    expect(requestProblems(valid + `<CustomerQueryRq requestID="6"><NameFilter><MatchCriterion>StartsWith</MatchCriterion></NameFilter></CustomerQueryRq>` + end)).toEqual([
      "QBXML/QBXMLMsgsRq[0]/CustomerQueryRq[0]/NameFilter[0]: a required element is missing after MatchCriterion"
    ])
  })

  it("refuses an answer out of the schemas: a record's fields out of order, a required attribute missing, an amount that is not one", () => {
    const answer = (body: string, status = `statusCode="0" statusSeverity="Info" statusMessage="Status OK"`) =>
      `<?xml version="1.0" ?><QBXML><QBXMLMsgsRs><AccountQueryRs requestID="1" ${status}>${body}</AccountQueryRs></QBXMLMsgsRs></QBXML>`
    const ret = `<AccountRet><ListID>1</ListID><Name>Checking</Name><IsActive>true</IsActive><AccountType>Bank</AccountType><Balance>10.00</Balance></AccountRet>`
    expect(responseProblems(answer(ret))).toEqual([])
    expect(responseProblems(answer(ret.replace("<Name>Checking</Name><IsActive>true</IsActive>", "<IsActive>true</IsActive><Name>Checking</Name>")))).toEqual([
      "QBXML/QBXMLMsgsRs[0]/AccountQueryRs[0]/AccountRet[0]: Name is not allowed here (after ListID, IsActive)"
    ])
    expect(responseProblems(answer(ret, `statusCode="0"`))).toEqual(["QBXML/QBXMLMsgsRs[0]/AccountQueryRs[0]: attribute statusSeverity is required"])
    expect(responseProblems(answer(ret.replace("10.00", "10.5")))).toEqual([
      "QBXML/QBXMLMsgsRs[0]/AccountQueryRs[0]/AccountRet[0]/Balance[4]: \"10.5\" does not match ([+\\-]?[0-9]{1,13}(\\.[0-9]{2})?)?"
    ])
    expect(responseProblems(answer(ret.replace("Bank", "Checking")))[0]).toContain("AccountType[3]: \"Checking\" is not one of")
  })

  it("accepts QuickBooks' own answers (the qbwc/qbxml project's recorded examples) and the repository's fixtures, save their deliberate departures", () => {
    const fixture = (name: string) => readFileSync(new URL(`../../fixtures/qbxml/${name}`, import.meta.url), "utf8")
    for (const name of ["qbwc-qbxml_account_query_rs.xml", "qbwc-qbxml_customer_query_rs.xml", "qbwc-qbxml_customer_query_terator_rs.xml",
      "ledger-bill_payment_credit_card_query_rs.xml", "ledger-credit_card_charge_query_rs.xml", "ledger-credit_card_credit_query_rs.xml",
      "ledger-vendor_credit_query_rs.xml"]) expect(responseProblems(fixture(name)), name).toEqual([])
    // Written to prove the reader takes thousands separators ("1,040.10"); QuickBooks' AMTTYPE has none,
    // so the schemas refuse those amounts, and nothing else in these files.
    for (const name of ["ledger-credit_memo_query_rs.xml", "ledger-item_receipt_query_rs.xml", "ledger-transfer_query_rs.xml"]) {
      const problems = responseProblems(fixture(name))
      expect(problems.length, name).toBeGreaterThan(0)
      expect(problems.filter((problem) => !/: "\d{1,3}(,\d{3})+\.\d{2}" does not match /u.test(problem)), name).toEqual([])
    }
    // A hand-written example of the qbwc/qbxml project: its CreditCardTxnInfo lacks the required CreditCardTxnResultInfo.
    expect(responseProblems(fixture("qbwc-qbxml_receive_payment_query_rs.xml"))).toEqual([
      "QBXML/QBXMLMsgsRs[0]/ReceivePaymentQueryRs[0]/ReceivePaymentRet[0]/CreditCardTxnInfo[12]: a required element is missing after CreditCardTxnInputInfo"
    ])
  })

  it("answers each of the Web Connector's eight SOAP operations as QBWebConnectorSvc.wsdl has them", async () => {
    const created = await app.createCompany({ name: "Contract SOAP Co", starter_chart: "empty" })
    const connection = await writer(app, created.ownerKey).post("/v1/migrations/desktop/connections", { as_of: asOf })
    const qb = connector(server.url)
    const answers: Array<[string, string]> = []
    const call = async (operation: string, params: Record<string, string | number> = {}) => {
      const text = await qb.raw(operation, params)
      answers.push([operation, text])
      return text
    }
    await call("serverVersion", { strVersion: "" })
    await call("clientVersion", { strVersion: "2.3.0.215" })
    const authenticated = await call("authenticate", { strUserName: connection.body.user_name, strPassword: connection.body.password })
    const ticket = /<string>([^<]*)<\/string>/u.exec(authenticated)![1]!
    const sent = await call("sendRequestXML", { ticket, strHCPResponse: "", strCompanyFileName: "", qbXMLCountry: "US", qbXMLMajorVers: 13, qbXMLMinorVers: 0 })
    const request = /<sendRequestXMLResult>([\s\S]*)<\/sendRequestXMLResult>/u.exec(sent)![1]!.replace(/&lt;/gu, "<").replace(/&gt;/gu, ">").replace(/&quot;/gu, "\"").replace(/&amp;/gu, "&")
    expect(requestProblems(request)).toEqual([])
    await call("receiveResponseXML", { ticket, response: makeCompany({ customers: 3, perMonth: 1 }).respond(request), hresult: "", message: "" })
    await call("getLastError", { ticket })
    await call("connectionError", { ticket, hresult: "0x80040408", message: "Could not start QuickBooks." })
    await call("closeConnection", { ticket })
    expect(answers.map(([operation]) => operation).sort()).toEqual(Object.keys(soapOperations).sort())
    expect(answers.flatMap(([operation, text]) => soapProblems(operation, text))).toEqual([])
    // What the WSDL does not have is reported.
    expect(soapProblems("receiveResponseXML", answers.find(([operation]) => operation === "getLastError")![1])).toEqual([
      "receiveResponseXML: the Body holds getLastErrorResponse, not receiveResponseXMLResponse"
    ])
    expect(soapProblems("receiveResponseXML", `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><receiveResponseXMLResponse xmlns="http://developer.intuit.com/"><receiveResponseXMLResult>done</receiveResponseXMLResult></receiveResponseXMLResponse></soap:Body></soap:Envelope>`)).toEqual([
      "receiveResponseXMLResult: \"done\" is not an int"
    ])
  }, 60_000)
})

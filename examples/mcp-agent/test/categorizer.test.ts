import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeTestLedger, type TestAgent, type TestCompany, type TestLedger } from "@ledger/testkit"
import { categorizeUnmatched } from "../src/Categorizer.ts"
import { policy } from "../src/Policy.ts"

/** A small OFX 1.x statement: the shape banks export. */
const statement = (transactions: ReadonlyArray<readonly [fitid: string, date: string, amount: string, name: string]>) =>
  [
    "OFXHEADER:100",
    "DATA:OFXSGML",
    "VERSION:102",
    "SECURITY:NONE",
    "ENCODING:USASCII",
    "CHARSET:1252",
    "COMPRESSION:NONE",
    "OLDFILEUID:NONE",
    "NEWFILEUID:NONE",
    "",
    "<OFX><SIGNONMSGSRSV1><SONRS><STATUS><CODE>0<SEVERITY>INFO</STATUS><DTSERVER>20250106<LANGUAGE>ENG</SONRS></SIGNONMSGSRSV1>",
    "<BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS><STMTRS><CURDEF>USD",
    "<BANKACCTFROM><BANKID>121000248<ACCTID>4410021<ACCTTYPE>CHECKING</BANKACCTFROM>",
    "<BANKTRANLIST><DTSTART>20250101<DTEND>20250106",
    ...transactions.map(([fitid, date, amount, name]) =>
      `<STMTTRN><TRNTYPE>${amount.startsWith("-") ? "DEBIT" : "CREDIT"}<DTPOSTED>${date}<TRNAMT>${amount}<FITID>${fitid}<NAME>${name}</STMTTRN>`
    ),
    "</BANKTRANLIST><LEDGERBAL><BALAMT>0.00<DTASOF>20250106</LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>"
  ].join("\n")

let ledger: TestLedger
let company: TestCompany
let agent: TestAgent
let bankAccountId: number
beforeAll(async () => {
  ledger = await makeTestLedger({ seed: 12 })
  company = await ledger.createCompany({ name: "Corner Bakery", starter_chart: "general" })
  agent = await company.createAgent({ name: "Categorizer", scopes: ["read", "propose"], posting_threshold_cents: 200_00 })
  const bankAccount = await company.client.createBankAccount({ name: "Operating", kind: "checking", ledger_account: "1010" })
  bankAccountId = bankAccount.id
  // The company's own rule, which the agent prefers to its policy.
  await company.client.createBankRule({ name: "Fuel", priority: 10, payee_contains: "SHELL OIL", direction: "out", account: "6240" })
  await company.client.importStatement({
    id: bankAccountId,
    format: "ofx",
    content: statement([
      ["T1", "20250102", "-12.50", "BLUE BOTTLE COFFEE"],
      ["T2", "20250103", "-84.20", "OFFICE DEPOT #1123"],
      ["T3", "20250103", "-1800.00", "PARKSIDE PROPERTIES"],
      ["T4", "20250104", "150.00", "STRIPE PAYOUT"],
      ["T5", "20250104", "-45.10", "SHELL OIL 5732"],
      ["T6", "20250105", "-300.00", "ACH 4471 ACME LLC"]
    ])
  })
})
afterAll(() => ledger.close())

const connect = async () => {
  const mcp = new Client({ name: "categorizer-test", version: "1.0.0" })
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL("/mcp", ledger.baseUrl), {
      fetch: ledger.fetch,
      requestInit: { headers: { authorization: `Bearer ${agent.secret}` } }
    })
  )
  return mcp
}

const linesByPayee = async () => {
  const lines = new Map<string, { status: string; proposal_id: number | null }>()
  for await (const line of company.client.iterate("listBankLines", { bank_account_id: bankAccountId })) {
    lines.set(line.payee ?? "", { status: line.status, proposal_id: line.proposal_id })
  }
  return lines
}

describe("a categorizing agent over MCP", () => {
  it("posts what is within its threshold, leaves a proposal for the rest, and skips what it does not know", async () => {
    const mcp = await connect()
    try {
      const report = await categorizeUnmatched(mcp, { policy, model: "example-categorizer/test", runId: "run-1", bankAccountId })
      expect(report.posted).toHaveLength(4)
      expect(report.proposed).toHaveLength(1)
      expect(report.skipped).toHaveLength(1)
      expect(report.refused).toEqual([])

      const lines = await linesByPayee()
      expect(lines.get("PARKSIDE PROPERTIES")).toEqual({ status: "proposed", proposal_id: report.proposed[0]!.proposal })
      expect(lines.get("ACH 4471 ACME LLC")?.status).toBe("unmatched")
      for (const payee of ["BLUE BOTTLE COFFEE", "OFFICE DEPOT #1123", "STRIPE PAYOUT", "SHELL OIL 5732"]) {
        expect(lines.get(payee)?.status).toBe("categorized")
      }
      await company.assertBalances({ "6060": 12_50, "6070": 84_20, "6240": 45_10, "4000": 150_00, "6080": 0 })

      // The agent's writes carry its model and run in the audit log, and came over MCP.
      const events = await company.client.listAuditEvents({ limit: 50 })
      const categorizations = events.data.filter((event) => event.action === "categorizeBankLine")
      expect(categorizations).toHaveLength(5)
      for (const event of categorizations) expect(event).toMatchObject({ agent_model: "example-categorizer/test", agent_run_id: "run-1", via: "mcp" })

      // A person decides the proposal; the rent posts exactly as proposed.
      await company.client.approveProposal({ id: report.proposed[0]!.proposal, reason: "January rent" })
      expect((await linesByPayee()).get("PARKSIDE PROPERTIES")?.status).toBe("categorized")
      await company.assertBalances({ "6080": 1_800_00, "1010": 150_00 - 12_50 - 84_20 - 1_800_00 - 45_10 })
    } finally {
      await mcp.close()
    }
  })

  it("a second run finds only what it could not do before, and changes nothing", async () => {
    const mcp = await connect()
    try {
      const before = await company.balances()
      const report = await categorizeUnmatched(mcp, { policy, model: "example-categorizer/test", runId: "run-2", bankAccountId })
      expect(report).toEqual({ posted: [], proposed: [], skipped: [expect.any(Number)], refused: [] })
      expect(await company.balances()).toEqual(before)
    } finally {
      await mcp.close()
    }
  })
})

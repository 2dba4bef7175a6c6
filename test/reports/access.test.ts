import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { connectMcp, makeTestApp, newKey, type TestApp, type TestCompany } from "../support/index.ts"
import { createClass, credit, debit, post, report } from "./support.ts"

/**
 * Who may read reports, over which surface, and what they are refused: an agent with read scope
 * reads every report over HTTP and MCP, one company never sees another's figures, and bad
 * queries are refused with the API's error bodies.
 */

let app: TestApp
let north: TestCompany
let south: TestCompany
let readerKey: string
let mcp: Awaited<ReturnType<typeof connectMcp>>

const createReader = async (company: TestCompany): Promise<string> => {
  const agent = await app.call("POST", "/v1/agents", {
    token: company.ownerKey,
    key: newKey(),
    body: { name: "Report reader", scopes: ["read"], posting_threshold_cents: 0 }
  })
  expect(agent.status).toBe(201)
  const key = await app.call("POST", "/v1/keys", {
    token: company.ownerKey,
    key: newKey(),
    body: { principal_type: "agent", agent_id: agent.body.id, scopes: ["read"] }
  })
  expect(key.status).toBe(201)
  return key.body.secret
}

beforeAll(async () => {
  app = await makeTestApp({ clock: "2026-05-20T09:00:00Z" })
  north = await app.createCompany({ name: "North Ltd", starter_chart: "general" })
  south = await app.createCompany({ name: "South Ltd", starter_chart: "services" })
  await createClass(app, north.ownerKey, "Retail")
  await post(app, north.ownerKey, "2026-02-01", "Capital", [debit("1010", 900_000), credit("3010", 900_000)])
  await post(app, north.ownerKey, "2026-03-15", "Sale", [debit("1010", 120_000), credit("4000", 120_000, "Retail")])
  await post(app, north.ownerKey, "2026-04-02", "Rent", [debit("6080", 45_000), credit("1010", 45_000)])
  await post(app, south.ownerKey, "2026-01-10", "Capital", [debit("1010", 77_700), credit("3010", 77_700)])
  await post(app, south.ownerKey, "2026-05-01", "Consulting", [debit("1400", 33_300), credit("4000", 33_300)])
  readerKey = await createReader(north)
  mcp = await connectMcp(app, readerKey, { "x-ledger-toolsets": "reports" })
})
afterAll(async () => {
  await mcp?.close()
  await app.close()
})

describe("reading reports", () => {
  it("an agent with only read scope reads all four reports over HTTP", async () => {
    const trialBalance = await report(app, readerKey, "trial-balance")
    expect(trialBalance.total_debit_cents).toBe(1_020_000) // 1010: 900,000 + 120,000 - 45,000 = 975,000; 6080: 45,000
    const profitAndLoss = await report(app, readerKey, "profit-and-loss")
    expect(profitAndLoss.net_income_cents).toBe(75_000) // 120,000 - 45,000
    const balanceSheet = await report(app, readerKey, "balance-sheet")
    expect(balanceSheet.assets.total_cents).toBe(975_000)
    expect(balanceSheet.total_liabilities_and_equity_cents).toBe(975_000) // 900,000 + 75,000
    const ledger = await report(app, readerKey, "general-ledger", { account: "1010" })
    expect(ledger.accounts[0].closing_balance_cents).toBe(975_000)
  })

  it("the same reports are MCP tools, with the same bodies", async () => {
    const tools = (await mcp.listTools()).tools
    const names = tools.map((tool) => tool.name)
    for (const name of ["get_trial_balance", "get_profit_and_loss", "get_balance_sheet", "get_general_ledger"]) {
      expect(names).toContain(name)
    }
    const overMcp = await mcp.callTool({ name: "get_trial_balance", arguments: { as_of: "2026-04-30" } })
    expect(overMcp.isError).toBeFalsy()
    expect(overMcp.structuredContent).toEqual(await report(app, readerKey, "trial-balance", { as_of: "2026-04-30" }))

    const ledger = await mcp.callTool({ name: "get_general_ledger", arguments: { account: ["4000", "6080"], from: "2026-01-01" } })
    expect((ledger.structuredContent as any).accounts.map((account: any) => [account.code, account.closing_balance_cents])).toEqual([
      ["4000", 120_000],
      ["6080", 45_000]
    ])

    const byClass = await mcp.callTool({ name: "get_profit_and_loss", arguments: { by_class: true } })
    expect((byClass.structuredContent as any).net_income_by_class).toEqual([
      { class: "Retail", amount_cents: 120_000 },
      { class: null, amount_cents: -45_000 }
    ])

    const csv = await mcp.callTool({ name: "get_balance_sheet", arguments: { format: "csv" } })
    expect(csv.structuredContent).toMatchObject({ format: "csv", filename: "balance-sheet-2026-05-20.csv" })
    expect((csv.structuredContent as any).content).toContain("Assets,,Total Assets,9750.00")
  })

  it("a refusal over MCP is a tool error with the API's error body", async () => {
    const result = await mcp.callTool({ name: "get_trial_balance", arguments: { class: "Wholesale" } })
    expect(result.isError).toBe(true)
    expect((result.structuredContent as any).error.type).toBe("unknown_class")
  })
})

describe("companies stay apart", () => {
  it("each company's reports hold only its own figures", async () => {
    const southTrialBalance = await report(app, south.ownerKey, "trial-balance")
    expect(southTrialBalance.rows.map((row: any) => [row.code, row.debit_cents, row.credit_cents])).toEqual([
      ["1010", 77_700, 0],
      ["1400", 33_300, 0],
      ["3010", 0, 77_700],
      ["4000", 0, 33_300]
    ])
    const southLedger = await report(app, south.ownerKey, "general-ledger", { from: "2026-01-01", limit: 1000 })
    const amounts = southLedger.accounts.flatMap((account: any) => account.lines.map((line: any) => line.debit_cents + line.credit_cents))
    expect(amounts.sort()).toEqual([33_300, 33_300, 77_700, 77_700])
  })

  it("another company's class is unknown, and its cursor shows only the caller's lines", async () => {
    const refused = await app.call("GET", "/v1/reports/profit-and-loss?class=Retail", { token: south.ownerKey })
    expect(refused.status).toBe(422)
    expect(refused.body.error.type).toBe("unknown_class")

    const northPage = await report(app, north.ownerKey, "general-ledger", { from: "2026-01-01", limit: 1 })
    expect(northPage.next_cursor).not.toBeNull()
    const southPage = await report(app, south.ownerKey, "general-ledger", { from: "2026-01-01", cursor: northPage.next_cursor })
    const southAmounts = new Set([33_300, 77_700])
    for (const account of southPage.accounts) {
      for (const line of account.lines) expect(southAmounts.has(line.debit_cents + line.credit_cents)).toBe(true)
    }
  })
})

describe("refusals", () => {
  const get = (path: string) => app.call("GET", path, { token: north.ownerKey })

  it("a range that ends before it starts", async () => {
    const result = await get("/v1/reports/profit-and-loss?from=2026-03-01&to=2026-02-01")
    expect(result.status).toBe(400)
    expect(result.body.error.type).toBe("invalid_request")
    expect(result.body.error.details.issues[0].path).toEqual(["query", "from"])
  })

  it("one class and a column per class at once", async () => {
    const result = await get("/v1/reports/trial-balance?class=Retail&by_class=true")
    expect(result.status).toBe(400)
    expect(result.body.error.details.issues[0].path).toEqual(["query", "by_class"])
  })

  it("an unknown class, an unknown account, a forged cursor", async () => {
    const unknownClass = await get("/v1/reports/balance-sheet?class=Nope")
    expect(unknownClass.status).toBe(422)
    expect(unknownClass.body.error.type).toBe("unknown_class")
    const unknownAccount = await get("/v1/reports/general-ledger?account=1010,9999")
    expect(unknownAccount.status).toBe(422)
    expect(unknownAccount.body.error.type).toBe("unknown_account")
    expect(unknownAccount.body.error.details.issues).toEqual([{ path: ["query", "account", 1], message: "No account 9999" }])
    const forged = await get("/v1/reports/general-ledger?cursor=bm90LWEtY3Vyc29y")
    expect(forged.status).toBe(400)
    expect(forged.body.error.details.issues[0].path).toEqual(["query", "cursor"])
  })

  it("parameters a report does not take, and malformed values", async () => {
    for (const path of [
      "/v1/reports/trial-balance?from=2026-01-01", // a trial balance is as of a date
      "/v1/reports/profit-and-loss?as_of=2026-01-01", // a profit and loss covers a range
      "/v1/reports/general-ledger?by_class=true",
      "/v1/reports/trial-balance?as_of=2026-02-30",
      "/v1/reports/trial-balance?format=xlsx",
      "/v1/reports/general-ledger?limit=1001"
    ]) {
      const result = await get(path)
      expect(result.status, path).toBe(400)
      expect(result.body.error.type, path).toBe("invalid_request")
    }
  })

  it("no credential, no report", async () => {
    const result = await app.call("GET", "/v1/reports/trial-balance")
    expect(result.status).toBe(401)
  })
})

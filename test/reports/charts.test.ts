import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeTestApp, newKey, type TestApp, type TestCompany } from "../support/index.ts"
import { credit, debit, post, report, reportCsv } from "./support.ts"

/**
 * Charts the starter charts do not cover: a company that built its own chart with no retained
 * earnings account, a cost of sales sub-account, and an inactive account that still holds a
 * balance. Calendar fiscal year; today is 2026-02-10.
 */

let app: TestApp
let company: TestCompany
let empty: TestCompany

const account = async (code: string, name: string, type: string, options: { subtype?: string; parent_code?: string } = {}) => {
  const result = await app.call("POST", "/v1/accounts", {
    token: company.ownerKey,
    key: newKey(),
    body: { code, name, type, ...options }
  })
  if (result.status !== 201) throw new Error(`${code}: ${result.status} ${JSON.stringify(result.body)}`)
}

beforeAll(async () => {
  app = await makeTestApp({ clock: "2026-02-10T08:00:00Z" })
  empty = await app.createCompany({ name: "Nothing Yet", starter_chart: "empty" })
  company = await app.createCompany({ name: "Own Chart Co", starter_chart: "empty" })
  await account("100", "Till", "asset")
  await account("110", "Old Bank", "asset")
  await account("300", "Capital", "equity")
  await account("400", "Takings", "income")
  await account("500", "Direct Costs", "expense", { subtype: "cost_of_sales" })
  await account("510", "Kitchen Wages", "expense", { subtype: "wages", parent_code: "500" })
  await account("600", "Overheads", "expense")
  const token = company.ownerKey
  await post(app, token, "2025-01-02", "Capital", [debit("110", 500_000), credit("300", 500_000)])
  await post(app, token, "2025-03-01", "Takings", [debit("100", 90_000), credit("400", 90_000)])
  await post(app, token, "2025-03-31", "Wages", [debit("510", 30_000), credit("100", 30_000)])
  await post(app, token, "2025-04-30", "Overheads", [debit("600", 12_500), credit("110", 12_500)])
  await post(app, token, "2026-01-15", "Takings", [debit("100", 40_000), credit("400", 40_000)])
  await post(app, token, "2026-01-20", "Ingredients", [debit("500", 8_000), credit("100", 8_000)])
  const deactivated = await app.call("POST", "/v1/accounts/110/update", {
    token,
    key: newKey(),
    body: { active: false, reason: "Bank closed; balance still to move" }
  })
  expect(deactivated.status).toBe(200)
})
afterAll(() => app.close())

/*
 * 2025: takings 90,000 - wages 30,000 - overheads 12,500 = 47,500 net income.
 * 2026 to date: takings 40,000 - ingredients 8,000 = 32,000.
 * Till 100: 90,000 - 30,000 + 40,000 - 8,000 = 92,000. Old Bank 110: 500,000 - 12,500 = 487,500.
 * Assets 579,500 = capital 500,000 + earlier years 47,500 + this year 32,000.
 */

describe("a chart without a retained earnings account", () => {
  it("the trial balance shows earlier years' earnings on a row of their own", async () => {
    const trialBalance = await report(app, company.ownerKey, "trial-balance")
    expect(trialBalance.rows).toEqual([
      { code: "100", name: "Till", type: "asset", debit_cents: 92_000, credit_cents: 0 },
      { code: "110", name: "Old Bank", type: "asset", debit_cents: 487_500, credit_cents: 0 },
      { code: "300", name: "Capital", type: "equity", debit_cents: 0, credit_cents: 500_000 },
      { code: "400", name: "Takings", type: "income", debit_cents: 0, credit_cents: 40_000 },
      { code: "500", name: "Direct Costs", type: "expense", debit_cents: 8_000, credit_cents: 0 },
      { code: null, name: "Retained Earnings", type: "equity", debit_cents: 0, credit_cents: 47_500 }
    ])
    // 92,000 + 487,500 + 8,000 = 587,500 = 500,000 + 40,000 + 47,500
    expect(trialBalance.total_debit_cents).toBe(587_500)
    expect(trialBalance.total_credit_cents).toBe(587_500)
  })

  it("the balance sheet computes retained earnings and still balances; the inactive account still counts", async () => {
    const balanceSheet = await report(app, company.ownerKey, "balance-sheet")
    expect(balanceSheet.retained_earnings_account).toBeNull()
    expect(balanceSheet.assets.rows.map((row: any) => [row.code, row.balance_cents])).toEqual([["100", 92_000], ["110", 487_500]])
    expect(balanceSheet.equity.rows.map((row: any) => [row.code, row.name, row.balance_cents])).toEqual([
      ["300", "Capital", 500_000],
      [null, "Retained Earnings", 47_500],
      [null, "Net Income", 32_000]
    ])
    expect(balanceSheet.assets.total_cents).toBe(579_500)
    expect(balanceSheet.total_liabilities_and_equity_cents).toBe(579_500)
  })

  it("cost of sales by subtype, and a sub-account of a cost of sales account with its own subtype", async () => {
    const profitAndLoss = await report(app, company.ownerKey, "profit-and-loss", { from: "2025-01-01", to: "2025-12-31" })
    expect(profitAndLoss.cost_of_goods_sold.rows.map((row: any) => [row.code, row.parent_code, row.amount_cents])).toEqual([["510", "500", 30_000]])
    expect(profitAndLoss.gross_profit_cents).toBe(60_000) // 90,000 - 30,000
    expect(profitAndLoss.expenses.rows.map((row: any) => [row.code, row.amount_cents])).toEqual([["600", 12_500]])
    expect(profitAndLoss.net_income_cents).toBe(47_500)
  })

  it("the general ledger's closing balances equal the trial balance's rows", async () => {
    const trialBalance = await report(app, company.ownerKey, "trial-balance")
    const ledger = await report(app, company.ownerKey, "general-ledger", { from: "2025-01-01", limit: 1000 })
    const closing = Object.fromEntries(ledger.accounts.map((account: any) =>
      [account.code, (["asset", "expense"].includes(account.type) ? 1 : -1) * account.closing_balance_cents]
    ))
    for (const row of trialBalance.rows.filter((candidate: any) => candidate.code !== null)) {
      expect(closing[row.code], row.code).toBe(row.debit_cents - row.credit_cents)
    }
    // Takings closed to (computed) retained earnings on 2026-01-01: 90,000 debited back.
    const takings = ledger.accounts.find((account: any) => account.code === "400")
    expect(takings.lines.find((line: any) => line.source === "year_end_close")).toMatchObject({ date: "2026-01-01", debit_cents: 90_000, balance_cents: 0 })
  })
})

describe("a company with no accounts and no entries", () => {
  it("has empty reports that still balance", async () => {
    const trialBalance = await report(app, empty.ownerKey, "trial-balance")
    expect(trialBalance).toEqual({ as_of: "2026-02-10", rows: [], total_debit_cents: 0, total_credit_cents: 0 })
    const balanceSheet = await report(app, empty.ownerKey, "balance-sheet")
    expect(balanceSheet.assets).toEqual({ rows: [], total_cents: 0 })
    expect(balanceSheet.equity.rows).toEqual([{ code: null, name: "Net Income", subtype: null, parent_code: null, balance_cents: 0 }])
    const ledger = await report(app, empty.ownerKey, "general-ledger")
    expect(ledger).toEqual({ from: "2026-01-01", to: "2026-02-10", accounts: [], has_more: false, next_cursor: null })
    const csv = await reportCsv(app, empty.ownerKey, "profit-and-loss", { by_class: true })
    expect(csv.text.split("\r\n")[0]).toBe("Section,Code,Name,Amount")
  })
})

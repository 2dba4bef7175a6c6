import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeTestApp, type TestApp, type TestCompany } from "../support/index.ts"
import { bookExampleCompany, exampleClock } from "./example-company.ts"
import { generalLedgerPages, report, reportCsv } from "./support.ts"

/**
 * The balance sheet, the general ledger, and the reports' agreement of the example company: example-company.ts books its two fiscal
 * years and computes every expected figure by hand.
 */

let app: TestApp
let company: TestCompany
let entries: Record<string, number>

beforeAll(async () => {
  app = await makeTestApp({ clock: exampleClock })
  const booked = await bookExampleCompany(app)
  company = booked.company
  entries = booked.entries
})
afterAll(() => app.close())

describe("the example company's balance sheet", () => {
  it("as of today: retained earnings from fiscal 2025 and this year's net income; it balances", async () => {
    const balanceSheet = await report(app, company.ownerKey, "balance-sheet")
    const rows = (section: string) => balanceSheet[section].rows.map((row: any) => [row.code, row.name, row.balance_cents])
    expect(balanceSheet.as_of).toBe("2026-03-15")
    expect(balanceSheet.fiscal_year_start).toBe("2025-07-01")
    expect(rows("assets")).toEqual([
      ["1010", "Business Checking", 4_907_120],
      ["1100", "Accounts Receivable", 945_000],
      ["1300", "Inventory", 300_000],
      ["1500", "Furniture and Equipment", 300_000]
    ])
    expect(balanceSheet.assets.total_cents).toBe(6_452_120) // 4,907,120 + 945,000 + 300,000 + 300,000
    expect(rows("liabilities")).toEqual([
      ["2000", "Accounts Payable", 200_000],
      ["2100", "Credit Card", 45_000],
      ["2200", "Sales Tax Payable", 136_000]
    ])
    expect(balanceSheet.liabilities.total_cents).toBe(381_000) // 200,000 + 45,000 + 136,000
    expect(rows("equity")).toEqual([
      ["3010", "Owner's Investment", 5_000_000],
      ["3020", "Owner's Draws", -350_000],
      ["3900", "Retained Earnings", 674_210], // 684,210 - 10,000
      [null, "Net Income", 746_910]
    ])
    expect(balanceSheet.equity.total_cents).toBe(6_071_120) // 5,000,000 - 350,000 + 674,210 + 746,910
    expect(balanceSheet.total_liabilities_and_equity_cents).toBe(6_452_120) // 381,000 + 6,071,120
    expect(balanceSheet.current_year_earnings_cents).toBe(746_910)
    expect(balanceSheet.earlier_years_earnings_cents).toBe(684_210)
    expect(balanceSheet.retained_earnings_account).toBe("3900")
  })

  it("at the end of fiscal 2025: that year's net income is current-year earnings", async () => {
    const balanceSheet = await report(app, company.ownerKey, "balance-sheet", { as_of: "2025-06-30" })
    // Assets: 5,177,750 + 400,000 + 300,000 = 5,877,750
    expect(balanceSheet.assets.total_cents).toBe(5_877_750)
    // Liabilities: 327,540 + 16,000 = 343,540; equity: 5,000,000 - 150,000 + 684,210 = 5,534,210
    expect(balanceSheet.liabilities.total_cents).toBe(343_540)
    expect(balanceSheet.equity.total_cents).toBe(5_534_210)
    expect(balanceSheet.total_liabilities_and_equity_cents).toBe(5_877_750)
    expect(balanceSheet.current_year_earnings_cents).toBe(684_210)
    expect(balanceSheet.earlier_years_earnings_cents).toBe(0)
  })

  it("by class: each column and the total", async () => {
    const balanceSheet = await report(app, company.ownerKey, "balance-sheet", { by_class: true })
    expect(balanceSheet.classes).toEqual(["East", "West", null])
    const netIncome = balanceSheet.equity.rows.find((row: any) => row.name === "Net Income")
    // This year's net income by class, as in the profit and loss.
    expect(netIncome.by_class.map((amount: any) => amount.amount_cents)).toEqual([1_045_000, -267_075, -31_015])
    expect(balanceSheet.total_liabilities_and_equity_cents).toBe(6_452_120)
  })

  it("as CSV", async () => {
    const csv = await reportCsv(app, company.ownerKey, "balance-sheet")
    const lines = csv.text.split("\r\n")
    expect(lines[0]).toBe("Section,Code,Name,Balance")
    expect(lines).toContain("Assets,,Total Assets,64521.20")
    expect(lines).toContain("Equity,3020,Owner's Draws,-3500.00")
    expect(lines).toContain("Equity,,Net Income,7469.10")
    expect(lines).toContain(",,Total Liabilities and Equity,64521.20")
  })
})

describe("the example company's general ledger", () => {
  it("an income account across both years closes to zero at the fiscal-year start", async () => {
    const ledger = await report(app, company.ownerKey, "general-ledger", { from: "2024-07-01", to: "2026-03-15", account: "4000" })
    expect(ledger.has_more).toBe(false)
    expect(ledger.accounts).toEqual([{
      code: "4000",
      name: "Sales",
      type: "income",
      opening_balance_cents: 0,
      balance_forward_cents: 0,
      // The sales on account are invoices (ADR 0106): same line, figures and memo, source `invoice`.
      lines: [
        { date: "2024-08-20", entry_id: entries.E5, line_no: 2, source: "invoice", memo: "Sale on account", class: "East",
          contact_id: null, debit_cents: 0, credit_cents: 1_000_000, balance_cents: 1_000_000 },
        { date: "2025-05-20", entry_id: entries.E16, line_no: 2, source: "journal_entry", memo: "Counter sale", class: "West",
          contact_id: null, debit_cents: 0, credit_cents: 200_000, balance_cents: 1_200_000 },
        { date: "2025-07-01", entry_id: null, line_no: null, source: "year_end_close", memo: "Fiscal year 2025 closed to retained earnings",
          class: null, contact_id: null, debit_cents: 1_200_000, credit_cents: 0, balance_cents: 0 },
        { date: "2025-08-05", entry_id: entries.E20, line_no: 2, source: "invoice", memo: "Sale on account", class: "East",
          contact_id: null, debit_cents: 0, credit_cents: 1_500_000, balance_cents: 1_500_000 }
      ],
      total_debit_cents: 1_200_000,
      total_credit_cents: 2_700_000, // 1,000,000 + 200,000 + 1,500,000
      closing_balance_cents: 1_500_000
    }])
  })

  it("retained earnings receives fiscal 2025's net income on 2025-07-01", async () => {
    const ledger = await report(app, company.ownerKey, "general-ledger", { from: "2024-07-01", to: "2026-03-15", account: "3900" })
    const [account] = ledger.accounts
    expect(account.lines.map((line: any) => [line.date, line.source, line.debit_cents, line.credit_cents, line.balance_cents])).toEqual([
      ["2025-07-01", "year_end_close", 0, 684_210, 684_210],
      ["2026-03-10", "journal_entry", 10_000, 0, 674_210]
    ])
    expect(account.lines[0].memo).toBe("Net income of fiscal year 2025")
    expect(account.closing_balance_cents).toBe(674_210)
  })

  it("checking in March 2026: the opening balance, each line with its running balance, the reversal", async () => {
    const ledger = await report(app, company.ownerKey, "general-ledger", { from: "2026-03-01", to: "2026-03-15", account: "1010" })
    const [account] = ledger.accounts
    // 4,907,120 less March's +400,000 - 10,000 - 25,000 + 25,000 = 4,517,120 at the end of February.
    expect(account.opening_balance_cents).toBe(4_517_120)
    expect(account.lines.map((line: any) => [line.date, line.entry_id, line.debit_cents, line.credit_cents, line.balance_cents])).toEqual([
      ["2026-03-01", entries.E31, 400_000, 0, 4_917_120],
      ["2026-03-10", entries.E32, 0, 10_000, 4_907_120],
      ["2026-03-12", entries.E33, 0, 25_000, 4_882_120],
      ["2026-03-13", entries.E34, 25_000, 0, 4_907_120]
    ])
    expect(account.lines[3].source).toBe("reversal")
    expect(account.closing_balance_cents).toBe(4_907_120)
  })

  it("as CSV: opening and closing rows around the lines", async () => {
    const csv = await reportCsv(app, company.ownerKey, "general-ledger", { from: "2026-03-01", to: "2026-03-15", account: "1010" })
    // The whole range on one page: no Link to a next page.
    expect(csv.headers.get("link")).toBeNull()
    expect(csv.text.split("\r\n")).toEqual([
      "Account Code,Account Name,Date,Entry ID,Line,Source,Memo,Class,Debit,Credit,Balance",
      "1010,Business Checking,2026-03-01,,,,Opening Balance,,,,45171.20",
      `1010,Business Checking,2026-03-01,${entries.E31},1,journal_entry,"Repair job, paid",,4000.00,0.00,49171.20`,
      `1010,Business Checking,2026-03-10,${entries.E32},2,journal_entry,Prior-year correction,,0.00,100.00,49071.20`,
      `1010,Business Checking,2026-03-12,${entries.E33},2,journal_entry,Supplies (posted in error),,0.00,250.00,48821.20`,
      `1010,Business Checking,2026-03-13,${entries.E34},2,reversal,Reversal of ${entries.E33},,250.00,0.00,49071.20`,
      // Totals of the range: debits 4,000 + 250; credits 100 + 250.
      "1010,Business Checking,2026-03-15,,,,Closing Balance,,4250.00,350.00,49071.20",
      ""
    ])
  })

  it("a page at a time: the same lines and running balances as one page", async () => {
    const query = { from: "2024-07-01", to: "2026-03-15", limit: 1000 }
    const whole = await report(app, company.ownerKey, "general-ledger", query)
    expect(whole.has_more).toBe(false)
    for (const size of [1, 3, 7]) {
      const pages = await generalLedgerPages(app, company.ownerKey, { ...query, limit: size })
      for (const page of pages.slice(0, -1)) {
        expect(page.accounts.reduce((sum: number, account: any) => sum + account.lines.length, 0)).toBe(size)
      }
      const merged = new Map<string, any>()
      for (const page of pages) {
        for (const account of page.accounts) {
          const seen = merged.get(account.code)
          if (seen === undefined) {
            merged.set(account.code, { ...account, lines: [...account.lines] })
          } else {
            // A continued account carries the running balance over.
            expect(account.balance_forward_cents).toBe(seen.lines[seen.lines.length - 1].balance_cents)
            seen.lines.push(...account.lines)
          }
        }
      }
      expect(Array.from(merged.values())).toEqual(whole.accounts)
    }
  })
})

describe("the example company's reports agree with each other", () => {
  it("on several dates: equal trial balance totals, a balanced balance sheet, net income, general ledger closings", async () => {
    for (const asOf of ["2024-12-31", "2025-06-30", "2025-07-01", "2025-11-17", "2026-03-15"]) {
      const trialBalance = await report(app, company.ownerKey, "trial-balance", { as_of: asOf })
      expect(trialBalance.total_debit_cents).toBe(trialBalance.total_credit_cents)
      const balanceSheet = await report(app, company.ownerKey, "balance-sheet", { as_of: asOf })
      expect(balanceSheet.assets.total_cents).toBe(balanceSheet.total_liabilities_and_equity_cents)
      const profitAndLoss = await report(app, company.ownerKey, "profit-and-loss", { to: asOf })
      expect(profitAndLoss.from).toBe(balanceSheet.fiscal_year_start)
      expect(profitAndLoss.net_income_cents).toBe(balanceSheet.current_year_earnings_cents)
      const ledger = await report(app, company.ownerKey, "general-ledger", { from: "2024-07-01", to: asOf, limit: 1000 })
      expect(ledger.has_more).toBe(false)
      const closings = Object.fromEntries(ledger.accounts
        .map((account: any) => [account.code, (["asset", "expense"].includes(account.type) ? 1 : -1) * account.closing_balance_cents])
        .filter(([, net]: [string, number]) => net !== 0))
      expect(closings).toEqual(Object.fromEntries(trialBalance.rows.map((row: any) => [row.code, row.debit_cents - row.credit_cents])))
    }
  })
})

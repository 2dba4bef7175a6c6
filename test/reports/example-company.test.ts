import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeTestApp, type TestApp, type TestCompany } from "../support/app.ts"
import { createClass, credit, debit, generalLedgerPages, post, report, reverse, setFiscalYearStart } from "./support.ts"

/**
 * A small business over two fiscal years (July to June), whose reports are computed BY HAND below:
 * every expected figure is a literal with its arithmetic in a comment. Today is 2026-03-15, in
 * fiscal year 2026 (2025-07-01 to 2026-06-30); fiscal year 2025 ran 2024-07-01 to 2025-06-30.
 *
 * Chart: the `general` starter chart. Classes: East and West.
 */

let app: TestApp
let company: TestCompany
const entries: Record<string, number> = {}

beforeAll(async () => {
  app = await makeTestApp({ clock: "2026-03-15T12:00:00Z" })
  company = await app.createCompany({ name: "Harbor Supply Co", starter_chart: "general" })
  const token = company.ownerKey
  await setFiscalYearStart(app, company, 7)
  await createClass(app, token, "East")
  await createClass(app, token, "West")
  const book = async (name: string, date: string, memo: string, lines: Parameters<typeof post>[4]) => {
    entries[name] = await post(app, token, date, memo, lines)
  }
  // Fiscal year 2025.
  await book("E1", "2024-07-01", "Owner invests", [debit("1010", 5_000_000), credit("3010", 5_000_000)])
  await book("E2", "2024-07-05", "Shelving on the card", [debit("1500", 300_000), credit("2100", 300_000)])
  await book("E3", "2024-07-15", "Stock bought on account", [debit("1300", 800_000), credit("2000", 800_000)])
  await book("E4", "2024-08-01", "August rent", [debit("6080", 200_000, "East"), credit("1010", 200_000)])
  await book("E5", "2024-08-20", "Sale on account", [debit("1100", 1_080_000), credit("4000", 1_000_000, "East"), credit("2200", 80_000)])
  await book("E6", "2024-08-20", "Cost of that sale", [debit("5000", 400_000, "East"), credit("1300", 400_000)])
  await book("E7", "2024-09-10", "Customer pays", [debit("1010", 1_080_000), credit("1100", 1_080_000)])
  await book("E8", "2024-09-30", "September payroll", [
    debit("6110", 500_000, "West"), debit("6120", 38_250, "West"), credit("1010", 423_500), credit("2310", 114_750)
  ])
  await book("E9", "2024-10-15", "Pay the stock supplier", [debit("2000", 800_000), credit("1010", 800_000)])
  await book("E10", "2024-11-05", "Installation job, paid", [debit("1010", 650_000), credit("4100", 650_000, "West")])
  await book("E11", "2024-12-01", "Owner draw", [debit("3020", 150_000), credit("1010", 150_000)])
  await book("E12", "2025-01-15", "Electricity", [debit("6220", 27_540), credit("2100", 27_540)])
  await book("E13", "2025-02-10", "Payroll taxes paid", [debit("2310", 114_750), credit("1010", 114_750)])
  await book("E14", "2025-03-31", "Supplies (posted in error)", [debit("6070", 99_999), credit("1010", 99_999)])
  entries.E15 = await reverse(app, token, entries.E14!, "2025-04-02")
  await book("E16", "2025-05-20", "Counter sale", [debit("1010", 216_000), credit("4000", 200_000, "West"), credit("2200", 16_000)])
  await book("E17", "2025-06-30", "Sales tax paid", [debit("2200", 80_000), credit("1010", 80_000)])
  // Fiscal year 2026.
  await book("E18", "2025-07-01", "July rent", [debit("6080", 210_000, "East"), credit("1010", 210_000)])
  await book("E19", "2025-07-10", "Stock bought on account", [debit("1300", 500_000), credit("2000", 500_000)])
  await book("E20", "2025-08-05", "Sale on account", [debit("1100", 1_620_000), credit("4000", 1_500_000, "East"), credit("2200", 120_000)])
  await book("E21", "2025-08-05", "Cost of that sale", [debit("5000", 600_000, "East"), credit("1300", 600_000)])
  await book("E22", "2025-09-30", "September payroll", [
    debit("6110", 550_000, "West"), debit("6120", 42_075, "West"), credit("1010", 465_850), credit("2310", 126_225)
  ])
  await book("E23", "2025-10-01", "Customer pays part", [debit("1010", 1_000_000), credit("1100", 1_000_000)])
  await book("E24", "2025-10-20", "Service on account", [debit("1100", 325_000), credit("4100", 325_000, "West")])
  await book("E25", "2025-11-30", "Owner draw", [debit("3020", 200_000), credit("1010", 200_000)])
  await book("E26", "2025-12-15", "Card paid off", [debit("2100", 327_540), credit("1010", 327_540)])
  await book("E27", "2026-01-10", "Electricity", [debit("6220", 31_015), credit("1010", 31_015)])
  await book("E28", "2026-01-31", "Supplier paid in part", [debit("2000", 300_000), credit("1010", 300_000)])
  await book("E29", "2026-02-14", "Printer ink", [debit("6070", 45_000, "East"), credit("2100", 45_000)])
  await book("E30", "2026-02-28", "Payroll taxes paid", [debit("2310", 126_225), credit("1010", 126_225)])
  await book("E31", "2026-03-01", "Repair job, paid", [debit("1010", 400_000), credit("4100", 400_000, "East")])
  await book("E32", "2026-03-10", "Prior-year correction", [debit("3900", 10_000), credit("1010", 10_000)])
  await book("E33", "2026-03-12", "Supplies (posted in error)", [debit("6070", 25_000), credit("1010", 25_000)])
  entries.E34 = await reverse(app, token, entries.E33!, "2026-03-13")
})
afterAll(() => app.close())

/*
 * Hand computation, in cents.
 *
 * 1010 Business Checking, fiscal year 2025:
 *   5,000,000 (E1) - 200,000 (E4) + 1,080,000 (E7) - 423,500 (E8) - 800,000 (E9) + 650,000 (E10)
 *   - 150,000 (E11) - 114,750 (E13) - 99,999 (E14) + 99,999 (E15) + 216,000 (E16) - 80,000 (E17)
 *   = 5,177,750 at 2025-06-30
 * fiscal year 2026 to 2026-03-15:
 *   - 210,000 (E18) - 465,850 (E22) + 1,000,000 (E23) - 200,000 (E25) - 327,540 (E26) - 31,015 (E27)
 *   - 300,000 (E28) - 126,225 (E30) + 400,000 (E31) - 10,000 (E32) - 25,000 (E33) + 25,000 (E34)
 *   = -270,630, so 5,177,750 - 270,630 = 4,907,120 at 2026-03-15
 * 1100 AR: 1,080,000 - 1,080,000 (FY2025) + 1,620,000 - 1,000,000 + 325,000 = 945,000
 * 1300 Inventory: 800,000 - 400,000 + 500,000 - 600,000 = 300,000
 * 1500 Equipment: 300,000
 * 2000 AP: 800,000 - 800,000 + 500,000 - 300,000 = 200,000 (credit)
 * 2100 Card: 300,000 + 27,540 - 327,540 + 45,000 = 45,000 (credit)
 * 2200 Sales tax: 80,000 + 16,000 - 80,000 + 120,000 = 136,000 (credit)
 * 2310 Payroll taxes: 114,750 - 114,750 + 126,225 - 126,225 = 0 (not shown)
 * 3010 Owner's investment: 5,000,000 (credit)
 * 3020 Draws: 150,000 + 200,000 = 350,000 (debit)
 *
 * Fiscal year 2025 profit and loss:
 *   income 4000: 1,000,000 + 200,000 = 1,200,000; 4100: 650,000; total 1,850,000
 *   cost of goods sold 5000: 400,000; gross profit 1,850,000 - 400,000 = 1,450,000
 *   expenses 6080 200,000 + 6110 500,000 + 6120 38,250 + 6220 27,540 = 765,790 (6070: 99,999 - 99,999 = 0)
 *   net income 1,450,000 - 765,790 = 684,210
 * Fiscal year 2026 to date:
 *   income 4000: 1,500,000; 4100: 325,000 + 400,000 = 725,000; total 2,225,000
 *   cost of goods sold 5000: 600,000; gross profit 1,625,000
 *   expenses 6070 45,000 (+25,000 - 25,000) + 6080 210,000 + 6110 550,000 + 6120 42,075 + 6220 31,015 = 878,090
 *   net income 1,625,000 - 878,090 = 746,910
 * 3900 Retained earnings at 2026-03-15: 684,210 (fiscal 2025 closed) - 10,000 (E32) = 674,210 (credit)
 */

describe("the example company's trial balance", () => {
  it("as of today: every account with a balance, one side each, fiscal-year-to-date income and expenses", async () => {
    const trialBalance = await report(app, company.ownerKey, "trial-balance")
    expect(trialBalance).toEqual({
      as_of: "2026-03-15",
      rows: [
        { code: "1010", name: "Business Checking", type: "asset", debit_cents: 4_907_120, credit_cents: 0 },
        { code: "1100", name: "Accounts Receivable", type: "asset", debit_cents: 945_000, credit_cents: 0 },
        { code: "1300", name: "Inventory", type: "asset", debit_cents: 300_000, credit_cents: 0 },
        { code: "1500", name: "Furniture and Equipment", type: "asset", debit_cents: 300_000, credit_cents: 0 },
        { code: "2000", name: "Accounts Payable", type: "liability", debit_cents: 0, credit_cents: 200_000 },
        { code: "2100", name: "Credit Card", type: "liability", debit_cents: 0, credit_cents: 45_000 },
        { code: "2200", name: "Sales Tax Payable", type: "liability", debit_cents: 0, credit_cents: 136_000 },
        { code: "3010", name: "Owner's Investment", type: "equity", debit_cents: 0, credit_cents: 5_000_000 },
        { code: "3020", name: "Owner's Draws", type: "equity", debit_cents: 350_000, credit_cents: 0 },
        { code: "3900", name: "Retained Earnings", type: "equity", debit_cents: 0, credit_cents: 674_210 },
        { code: "4000", name: "Sales", type: "income", debit_cents: 0, credit_cents: 1_500_000 },
        { code: "4100", name: "Service Revenue", type: "income", debit_cents: 0, credit_cents: 725_000 },
        { code: "5000", name: "Cost of Goods Sold", type: "expense", debit_cents: 600_000, credit_cents: 0 },
        { code: "6070", name: "Office Supplies and Software", type: "expense", debit_cents: 45_000, credit_cents: 0 },
        { code: "6080", name: "Rent or Lease", type: "expense", debit_cents: 210_000, credit_cents: 0 },
        { code: "6110", name: "Wages and Salaries", type: "expense", debit_cents: 550_000, credit_cents: 0 },
        { code: "6120", name: "Payroll Taxes", type: "expense", debit_cents: 42_075, credit_cents: 0 },
        { code: "6220", name: "Utilities", type: "expense", debit_cents: 31_015, credit_cents: 0 }
      ],
      // Debits: 4,907,120 + 945,000 + 300,000 + 300,000 + 350,000 + 600,000 + 45,000 + 210,000 + 550,000
      //   + 42,075 + 31,015 = 8,280,210
      // Credits: 200,000 + 45,000 + 136,000 + 5,000,000 + 674,210 + 1,500,000 + 725,000 = 8,280,210
      total_debit_cents: 8_280_210,
      total_credit_cents: 8_280_210
    })
  })

  it("as CSV: a header row and amounts with two decimal places", async () => {
    const csv = await report(app, company.ownerKey, "trial-balance", { format: "csv" })
    expect(csv.format).toBe("csv")
    expect(csv.filename).toBe("trial-balance-2026-03-15.csv")
    expect(csv.content).toBe([
      "Code,Name,Type,Debit,Credit",
      "1010,Business Checking,asset,49071.20,0.00",
      "1100,Accounts Receivable,asset,9450.00,0.00",
      "1300,Inventory,asset,3000.00,0.00",
      "1500,Furniture and Equipment,asset,3000.00,0.00",
      "2000,Accounts Payable,liability,0.00,2000.00",
      "2100,Credit Card,liability,0.00,450.00",
      "2200,Sales Tax Payable,liability,0.00,1360.00",
      "3010,Owner's Investment,equity,0.00,50000.00",
      "3020,Owner's Draws,equity,3500.00,0.00",
      "3900,Retained Earnings,equity,0.00,6742.10",
      "4000,Sales,income,0.00,15000.00",
      "4100,Service Revenue,income,0.00,7250.00",
      "5000,Cost of Goods Sold,expense,6000.00,0.00",
      "6070,Office Supplies and Software,expense,450.00,0.00",
      "6080,Rent or Lease,expense,2100.00,0.00",
      "6110,Wages and Salaries,expense,5500.00,0.00",
      "6120,Payroll Taxes,expense,420.75,0.00",
      "6220,Utilities,expense,310.15,0.00",
      ",Total,,82802.10,82802.10",
      ""
    ].join("\r\n"))
  })

  it("at the last day of fiscal 2025: that year's income and expenses, nothing yet in retained earnings", async () => {
    const trialBalance = await report(app, company.ownerKey, "trial-balance", { as_of: "2025-06-30" })
    expect(trialBalance.rows.map((row: any) => [row.code, row.debit_cents - row.credit_cents])).toEqual([
      ["1010", 5_177_750],
      ["1300", 400_000], // 800,000 - 400,000
      ["1500", 300_000],
      ["2100", -327_540], // 300,000 + 27,540
      ["2200", -16_000], // 80,000 + 16,000 - 80,000
      ["3010", -5_000_000],
      ["3020", 150_000],
      ["4000", -1_200_000],
      ["4100", -650_000],
      ["5000", 400_000],
      ["6080", 200_000],
      ["6110", 500_000],
      ["6120", 38_250],
      ["6220", 27_540]
    ])
    // Debits: 5,177,750 + 400,000 + 300,000 + 150,000 + 400,000 + 200,000 + 500,000 + 38,250 + 27,540 = 7,193,540
    expect(trialBalance.total_debit_cents).toBe(7_193_540)
    // Credits: 327,540 + 16,000 + 5,000,000 + 1,200,000 + 650,000 = 7,193,540
    expect(trialBalance.total_credit_cents).toBe(7_193_540)
  })

  it("on the first day of fiscal 2026: fiscal 2025's net income of 684,210 is in retained earnings", async () => {
    const trialBalance = await report(app, company.ownerKey, "trial-balance", { as_of: "2025-07-01" })
    const nets = Object.fromEntries(trialBalance.rows.map((row: any) => [row.code, row.debit_cents - row.credit_cents]))
    expect(nets["3900"]).toBe(-684_210)
    // Only E18 (rent 210,000) has posted in the new year; 4000, 4100, 5000 and the rest start again at zero.
    expect(nets["6080"]).toBe(210_000)
    expect(nets["4000"]).toBeUndefined()
    expect(nets["1010"]).toBe(5_177_750 - 210_000)
    expect(trialBalance.total_debit_cents).toBe(trialBalance.total_credit_cents)
  })
})

describe("the example company's profit and loss", () => {
  it("for the fiscal year to date by default, with cost of goods sold by subtype", async () => {
    const profitAndLoss = await report(app, company.ownerKey, "profit-and-loss")
    expect(profitAndLoss).toEqual({
      from: "2025-07-01",
      to: "2026-03-15",
      income: {
        rows: [
          { code: "4000", name: "Sales", subtype: "sales", parent_code: null, amount_cents: 1_500_000 },
          { code: "4100", name: "Service Revenue", subtype: "service_revenue", parent_code: null, amount_cents: 725_000 }
        ],
        total_cents: 2_225_000 // 1,500,000 + 725,000
      },
      cost_of_goods_sold: {
        rows: [{ code: "5000", name: "Cost of Goods Sold", subtype: "cost_of_goods_sold", parent_code: null, amount_cents: 600_000 }],
        total_cents: 600_000
      },
      gross_profit_cents: 1_625_000, // 2,225,000 - 600,000
      expenses: {
        rows: [
          { code: "6070", name: "Office Supplies and Software", subtype: "office_expenses", parent_code: null, amount_cents: 45_000 },
          { code: "6080", name: "Rent or Lease", subtype: "rent", parent_code: null, amount_cents: 210_000 },
          { code: "6110", name: "Wages and Salaries", subtype: "payroll_expenses", parent_code: "6100", amount_cents: 550_000 },
          { code: "6120", name: "Payroll Taxes", subtype: "payroll_expenses", parent_code: "6100", amount_cents: 42_075 },
          { code: "6220", name: "Utilities", subtype: "utilities", parent_code: null, amount_cents: 31_015 }
        ],
        total_cents: 878_090 // 45,000 + 210,000 + 550,000 + 42,075 + 31,015
      },
      net_income_cents: 746_910 // 1,625,000 - 878,090
    })
  })

  it("for fiscal 2025: the reversed supplies entry nets to nothing and is not shown", async () => {
    const profitAndLoss = await report(app, company.ownerKey, "profit-and-loss", { from: "2024-07-01", to: "2025-06-30" })
    expect(profitAndLoss.income.total_cents).toBe(1_850_000) // 1,200,000 + 650,000
    expect(profitAndLoss.cost_of_goods_sold.total_cents).toBe(400_000)
    expect(profitAndLoss.gross_profit_cents).toBe(1_450_000)
    expect(profitAndLoss.expenses.rows.map((row: any) => [row.code, row.amount_cents])).toEqual([
      ["6080", 200_000],
      ["6110", 500_000],
      ["6120", 38_250],
      ["6220", 27_540]
    ])
    expect(profitAndLoss.expenses.total_cents).toBe(765_790) // 200,000 + 500,000 + 38,250 + 27,540
    expect(profitAndLoss.net_income_cents).toBe(684_210)
  })

  it("for a range across both years: activity as it is (1,200,000 + 1,500,000 of sales)", async () => {
    const profitAndLoss = await report(app, company.ownerKey, "profit-and-loss", { from: "2024-07-01", to: "2026-03-15" })
    expect(profitAndLoss.income.rows[0]).toMatchObject({ code: "4000", amount_cents: 2_700_000 })
    expect(profitAndLoss.net_income_cents).toBe(684_210 + 746_910)
  })

  it("for a range inside a month, read from daily totals: 2025-08-05 to 2025-08-05", async () => {
    const profitAndLoss = await report(app, company.ownerKey, "profit-and-loss", { from: "2025-08-05", to: "2025-08-05" })
    // E20 and E21 only: sales 1,500,000 less cost 600,000.
    expect(profitAndLoss.net_income_cents).toBe(900_000)
  })

  it("by class: East, West and the lines without a class, adding up to the total", async () => {
    const profitAndLoss = await report(app, company.ownerKey, "profit-and-loss", { by_class: true })
    expect(profitAndLoss.classes).toEqual(["East", "West", null])
    const row = (section: string, code: string) =>
      profitAndLoss[section].rows.find((candidate: any) => candidate.code === code).by_class.map((amount: any) => amount.amount_cents)
    expect(row("income", "4000")).toEqual([1_500_000, 0, 0]) // E20
    expect(row("income", "4100")).toEqual([400_000, 325_000, 0]) // E31 East, E24 West
    expect(row("cost_of_goods_sold", "5000")).toEqual([600_000, 0, 0]) // E21
    expect(row("expenses", "6070")).toEqual([45_000, 0, 0]) // E29 East; E33 - E34 unclassified = 0
    expect(row("expenses", "6220")).toEqual([0, 0, 31_015]) // E27 has no class
    // East: 1,900,000 - 600,000 - (210,000 + 45,000) = 1,045,000
    // West: 325,000 - (550,000 + 42,075) = -267,075
    // no class: -31,015; together 1,045,000 - 267,075 - 31,015 = 746,910
    expect(profitAndLoss.net_income_by_class).toEqual([
      { class: "East", amount_cents: 1_045_000 },
      { class: "West", amount_cents: -267_075 },
      { class: null, amount_cents: -31_015 }
    ])
    expect(profitAndLoss.net_income_cents).toBe(746_910)
    expect(profitAndLoss.gross_profit_by_class.map((amount: any) => amount.amount_cents)).toEqual([1_300_000, 325_000, 0])
  })

  it("for one class, and for the lines without a class", async () => {
    const west = await report(app, company.ownerKey, "profit-and-loss", { class: "West" })
    expect(west.class).toBe("West")
    expect(west.net_income_cents).toBe(-267_075)
    expect(west.income.rows.map((row: any) => row.code)).toEqual(["4100"])
    const none = await report(app, company.ownerKey, "profit-and-loss", { class: "unclassified" })
    expect(none.class).toBeNull()
    expect(none.net_income_cents).toBe(-31_015)
    expect(none.expenses.rows.map((row: any) => [row.code, row.amount_cents])).toEqual([["6220", 31_015]])
  })

  it("as CSV", async () => {
    const csv = await report(app, company.ownerKey, "profit-and-loss", { format: "csv" })
    expect(csv.filename).toBe("profit-and-loss-2025-07-01-to-2026-03-15.csv")
    expect(csv.content.split("\r\n")).toEqual([
      "Section,Code,Name,Amount",
      "Income,4000,Sales,15000.00",
      "Income,4100,Service Revenue,7250.00",
      "Income,,Total Income,22250.00",
      "Cost of Goods Sold,5000,Cost of Goods Sold,6000.00",
      "Cost of Goods Sold,,Total Cost of Goods Sold,6000.00",
      ",,Gross Profit,16250.00",
      "Expenses,6070,Office Supplies and Software,450.00",
      "Expenses,6080,Rent or Lease,2100.00",
      "Expenses,6110,Wages and Salaries,5500.00",
      "Expenses,6120,Payroll Taxes,420.75",
      "Expenses,6220,Utilities,310.15",
      "Expenses,,Total Expenses,8780.90",
      ",,Net Income,7469.10",
      ""
    ])
  })
})

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
    const csv = await report(app, company.ownerKey, "balance-sheet", { format: "csv" })
    const lines = csv.content.split("\r\n")
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
      lines: [
        { date: "2024-08-20", entry_id: entries.E5, line_no: 2, source: "journal_entry", memo: "Sale on account", class: "East",
          contact_id: null, debit_cents: 0, credit_cents: 1_000_000, balance_cents: 1_000_000 },
        { date: "2025-05-20", entry_id: entries.E16, line_no: 2, source: "journal_entry", memo: "Counter sale", class: "West",
          contact_id: null, debit_cents: 0, credit_cents: 200_000, balance_cents: 1_200_000 },
        { date: "2025-07-01", entry_id: null, line_no: null, source: "year_end_close", memo: "Fiscal year 2025 closed to retained earnings",
          class: null, contact_id: null, debit_cents: 1_200_000, credit_cents: 0, balance_cents: 0 },
        { date: "2025-08-05", entry_id: entries.E20, line_no: 2, source: "journal_entry", memo: "Sale on account", class: "East",
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
    const csv = await report(app, company.ownerKey, "general-ledger", { from: "2026-03-01", to: "2026-03-15", account: "1010", format: "csv" })
    expect(csv.has_more).toBe(false)
    expect(csv.next_cursor).toBeNull()
    expect(csv.content.split("\r\n")).toEqual([
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

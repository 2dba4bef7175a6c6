import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeTestApp, type TestApp, type TestCompany } from "../support/index.ts"
import { bookExampleCompany, exampleClock } from "./example-company.ts"
import { report, reportCsv } from "./support.ts"

/**
 * The trial balance and the profit and loss of the example company: example-company.ts books its two fiscal
 * years and computes every expected figure by hand.
 */

let app: TestApp
let company: TestCompany

beforeAll(async () => {
  app = await makeTestApp({ clock: exampleClock })
  company = (await bookExampleCompany(app)).company
})
afterAll(() => app.close())

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
    const csv = await reportCsv(app, company.ownerKey, "trial-balance")
    expect(csv.filename).toBe("trial-balance-2026-03-15.csv")
    expect(csv.text).toBe([
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
    const csv = await reportCsv(app, company.ownerKey, "profit-and-loss")
    expect(csv.filename).toBe("profit-and-loss-2025-07-01-to-2026-03-15.csv")
    expect(csv.text.split("\r\n")).toEqual([
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

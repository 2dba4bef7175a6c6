import type { Tax } from "@ledger/api"
import { line } from "./Line.ts"

/**
 * Forms 1120, 1120-S and 1065: the income and deduction lines of page 1, the Schedule K items the
 * books carry apart from ordinary income, Schedule L (balance sheet per books, end of year) and
 * Schedule M-1 (reconciliation of income per books with income per return).
 */

type Line = Tax.Shared.ReturnLine
type Entry = readonly [id: string, number: string, description: string, kind: Line["kind"]]

const income = (n1b: string, n2: string): ReadonlyArray<Entry> => [
  ["1a", "1a", "Gross receipts or sales", "income"],
  ["1b", n1b, "Returns and allowances", "income"],
  ["2", n2, "Cost of goods sold (attach Form 1125-A)", "cost_of_goods_sold"]
]

/** Schedule L, lines 1 to 14: the assets, the same on the three forms (1065 names partners). */
const assets = (loans: string): ReadonlyArray<Entry> => [
  ["L1", "1", "Cash", "balance_sheet"],
  ["L2a", "2a", "Trade notes and accounts receivable", "balance_sheet"],
  ["L2b", "2b", "Less allowance for bad debts", "balance_sheet"],
  ["L3", "3", "Inventories", "balance_sheet"],
  ["L4", "4", "U.S. government obligations", "balance_sheet"],
  ["L5", "5", "Tax-exempt securities", "balance_sheet"],
  ["L6", "6", "Other current assets", "balance_sheet"],
  ["L7", loans === "7a" ? "7a" : "7", loans === "7a" ? "Loans to partners (or persons related to partners)" : "Loans to shareholders", "balance_sheet"],
  ["L8", loans === "7a" ? "7b" : "8", "Mortgage and real estate loans", "balance_sheet"],
  ["L9", loans === "7a" ? "8" : "9", "Other investments", "balance_sheet"],
  ["L10a", loans === "7a" ? "9a" : "10a", "Buildings and other depreciable assets", "balance_sheet"],
  ["L10b", loans === "7a" ? "9b" : "10b", "Less accumulated depreciation", "balance_sheet"],
  ["L12", loans === "7a" ? "11" : "12", "Land (net of any amortization)", "balance_sheet"],
  ["L13a", loans === "7a" ? "12a" : "13a", "Intangible assets (amortizable only)", "balance_sheet"],
  ["L13b", loans === "7a" ? "12b" : "13b", "Less accumulated amortization", "balance_sheet"],
  ["L14", loans === "7a" ? "13" : "14", "Other assets", "balance_sheet"]
]

const make = (returnType: Tax.Shared.ReturnType, form: string, entries: ReadonlyArray<readonly [string, ReadonlyArray<Entry>]>): ReadonlyArray<Line> =>
  entries.flatMap(([schedule, list]) =>
    list.map(([id, number, description, kind]) => line(returnType, id, schedule === "" ? form : schedule, number, description, kind)))

const m1Corporate: ReadonlyArray<Entry> = [
  ["M1-2", "2", "Federal income tax per books", "m1"],
  ["M1-3", "3", "Excess of capital losses over capital gains", "m1"],
  ["M1-5c", "5c", "Expenses recorded on books not deducted: travel and entertainment", "m1"],
  ["M1-5", "5", "Expenses recorded on books this year not deducted on this return (penalties, 50% of meals)", "m1"],
  ["M1-7", "7", "Income recorded on books not included on this return: tax-exempt interest", "m1"]
]

export const form1120: ReadonlyArray<Line> = make("1120", "Form 1120", [
  ["", [
    ...income("1b", "2"),
    ["4", "4", "Dividends and inclusions (Schedule C, line 23)", "income"],
    ["5", "5", "Interest", "income"],
    ["6", "6", "Gross rents", "income"],
    ["7", "7", "Gross royalties", "income"],
    ["8", "8", "Capital gain net income (attach Schedule D)", "income"],
    ["9", "9", "Net gain or (loss) from Form 4797, Part II, line 17", "income"],
    ["10", "10", "Other income", "income"],
    ["12", "12", "Compensation of officers (attach Form 1125-E)", "deduction"],
    ["13", "13", "Salaries and wages (less employment credits)", "deduction"],
    ["14", "14", "Repairs and maintenance", "deduction"],
    ["15", "15", "Bad debts", "deduction"],
    ["16", "16", "Rents", "deduction"],
    ["17", "17", "Taxes and licenses", "deduction"],
    ["18", "18", "Interest", "deduction"],
    ["19", "19", "Charitable contributions", "deduction"],
    ["20", "20", "Depreciation from Form 4562 not claimed on Form 1125-A or elsewhere", "deduction"],
    ["21", "21", "Depletion", "deduction"],
    ["22", "22", "Advertising", "deduction"],
    ["23", "23", "Pension, profit-sharing, etc., plans", "deduction"],
    ["24", "24", "Employee benefit programs", "deduction"],
    ["26", "26", "Other deductions (attach statement)", "deduction"]
  ]],
  ["Schedule L", [
    ...assets("7"),
    ["L16", "16", "Accounts payable", "balance_sheet"],
    ["L17", "17", "Mortgages, notes, bonds payable in less than 1 year", "balance_sheet"],
    ["L18", "18", "Other current liabilities", "balance_sheet"],
    ["L19", "19", "Loans from shareholders", "balance_sheet"],
    ["L20", "20", "Mortgages, notes, bonds payable in 1 year or more", "balance_sheet"],
    ["L21", "21", "Other liabilities", "balance_sheet"],
    ["L22", "22", "Capital stock", "balance_sheet"],
    ["L23", "23", "Additional paid-in capital", "balance_sheet"],
    ["L25", "25", "Retained earnings, unappropriated", "balance_sheet"],
    ["L27", "27", "Less cost of treasury stock", "balance_sheet"]
  ]],
  ["Schedule M-1", m1Corporate]
])

export const form1120S: ReadonlyArray<Line> = make("1120S", "Form 1120-S", [
  ["", [
    ...income("1b", "2"),
    ["4", "4", "Net gain (loss) from Form 4797, line 17", "income"],
    ["5", "5", "Other income (loss)", "income"],
    ["7", "7", "Compensation of officers (attach Form 1125-E)", "deduction"],
    ["8", "8", "Salaries and wages (less employment credits)", "deduction"],
    ["9", "9", "Repairs and maintenance", "deduction"],
    ["10", "10", "Bad debts", "deduction"],
    ["11", "11", "Rents", "deduction"],
    ["12", "12", "Taxes and licenses", "deduction"],
    ["13", "13", "Interest", "deduction"],
    ["14", "14", "Depreciation not claimed on Form 1125-A or elsewhere", "deduction"],
    ["15", "15", "Depletion", "deduction"],
    ["16", "16", "Advertising", "deduction"],
    ["17", "17", "Pension, profit-sharing, etc., plans", "deduction"],
    ["18", "18", "Employee benefit programs", "deduction"],
    ["20", "20", "Other deductions (attach statement)", "deduction"]
  ]],
  ["Schedule K", [
    ["K4", "4", "Interest income", "schedule_k"],
    ["K5a", "5a", "Ordinary dividends", "schedule_k"],
    ["K6", "6", "Royalties", "schedule_k"],
    ["K12a", "12a", "Charitable contributions", "schedule_k"],
    ["K16c", "16c", "Nondeductible expenses", "schedule_k"],
    ["K16d", "16d", "Distributions", "schedule_k"]
  ]],
  ["Schedule L", [
    ...assets("7"),
    ["L16", "16", "Accounts payable", "balance_sheet"],
    ["L17", "17", "Mortgages, notes, bonds payable in less than 1 year", "balance_sheet"],
    ["L18", "18", "Other current liabilities", "balance_sheet"],
    ["L19", "19", "Loans from shareholders", "balance_sheet"],
    ["L20", "20", "Mortgages, notes, bonds payable in 1 year or more", "balance_sheet"],
    ["L21", "21", "Other liabilities", "balance_sheet"],
    ["L22", "22", "Capital stock", "balance_sheet"],
    ["L23", "23", "Additional paid-in capital", "balance_sheet"],
    ["L24", "24", "Retained earnings", "balance_sheet"],
    ["L26", "26", "Less cost of treasury stock", "balance_sheet"]
  ]],
  ["Schedule M-1", [
    ["M1-3b", "3b", "Expenses recorded on books not included on Schedule K: travel and entertainment", "m1"],
    ["M1-5a", "5a", "Income recorded on books not included on Schedule K: tax-exempt interest", "m1"]
  ]]
])

export const form1065: ReadonlyArray<Line> = make("1065", "Form 1065", [
  ["", [
    ...income("1b", "2"),
    ["4", "4", "Ordinary income (loss) from other partnerships, estates, and trusts", "income"],
    ["6", "6", "Net gain (loss) from Form 4797, Part II, line 17", "income"],
    ["7", "7", "Other income (loss)", "income"],
    ["9", "9", "Salaries and wages (other than to partners) (less employment credits)", "deduction"],
    ["10", "10", "Guaranteed payments to partners", "deduction"],
    ["11", "11", "Repairs and maintenance", "deduction"],
    ["12", "12", "Bad debts", "deduction"],
    ["13", "13", "Rent", "deduction"],
    ["14", "14", "Taxes and licenses", "deduction"],
    ["15", "15", "Interest", "deduction"],
    ["16a", "16a", "Depreciation (if required, attach Form 4562)", "deduction"],
    ["17", "17", "Depletion", "deduction"],
    ["18", "18", "Retirement plans, etc.", "deduction"],
    ["19", "19", "Employee benefit programs", "deduction"],
    ["21", "21", "Other deductions (attach statement)", "deduction"]
  ]],
  ["Schedule K", [
    ["K5", "5", "Interest income", "schedule_k"],
    ["K6a", "6a", "Ordinary dividends", "schedule_k"],
    ["K13a", "13a", "Charitable contributions", "schedule_k"],
    ["K18c", "18c", "Nondeductible expenses", "schedule_k"],
    ["K19a", "19a", "Distributions of cash and marketable securities", "schedule_k"]
  ]],
  ["Schedule L", [
    ...assets("7a"),
    ["L16", "15", "Accounts payable", "balance_sheet"],
    ["L17", "16", "Mortgages, notes, bonds payable in less than 1 year", "balance_sheet"],
    ["L18", "17", "Other current liabilities", "balance_sheet"],
    ["L19", "19a", "Loans from partners (or persons related to partners)", "balance_sheet"],
    ["L20", "19b", "Mortgages, notes, bonds payable in 1 year or more", "balance_sheet"],
    ["L21", "20", "Other liabilities", "balance_sheet"],
    ["L22", "21", "Partners' capital accounts", "balance_sheet"]
  ]],
  ["Schedule M-1", [
    ["M1-4b", "4b", "Expenses recorded on books not included on Schedule K: travel and entertainment", "m1"],
    ["M1-6a", "6a", "Income recorded on books not included on Schedule K: tax-exempt interest", "m1"]
  ]]
])

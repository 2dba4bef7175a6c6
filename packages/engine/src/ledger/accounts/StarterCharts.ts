import type { Company, Ledger } from "@ledger/api"

/**
 * The starter charts a company begins with: small-business charts a bookkeeper recognises,
 * numbered the usual way (1xxx assets, 2xxx liabilities, 3xxx equity, 4xxx income, 5xxx cost of
 * sales, 6xxx expenses) with the control, tax and payroll accounts other areas rely on. Parents
 * come before their sub-accounts, so the list can be inserted in order.
 */

export interface ChartAccount {
  readonly code: string
  readonly name: string
  readonly type: Ledger.Records.AccountType
  readonly subtype: string | null
  readonly parent_code: string | null
  readonly control: "ar" | "ap" | null
}

export interface Chart {
  readonly name: Company.StarterChartName
  readonly description: string
  readonly accounts: ReadonlyArray<ChartAccount>
  readonly defaults: { readonly income: string | null; readonly expense: string | null }
}

const account = (
  code: string,
  name: string,
  type: Ledger.Records.AccountType,
  subtype: string,
  options: { readonly parent?: string; readonly control?: "ar" | "ap" } = {}
): ChartAccount => ({ code, name, type, subtype, parent_code: options.parent ?? null, control: options.control ?? null })

const cashAndBank = [
  account("1000", "Cash on Hand", "asset", "cash"),
  account("1010", "Business Checking", "asset", "bank"),
  account("1020", "Business Savings", "asset", "bank"),
  account("1100", "Accounts Receivable", "asset", "accounts_receivable", { control: "ar" }),
  account("1150", "Undeposited Funds", "asset", "undeposited_funds")
]

const otherAssets = [
  account("1400", "Prepaid Expenses", "asset", "prepaid_expenses"),
  account("1500", "Furniture and Equipment", "asset", "fixed_asset"),
  account("1510", "Accumulated Depreciation", "asset", "accumulated_depreciation")
]

const liabilities = [
  account("2000", "Accounts Payable", "liability", "accounts_payable", { control: "ap" }),
  account("2100", "Credit Card", "liability", "credit_card"),
  account("2200", "Sales Tax Payable", "liability", "sales_tax_payable"),
  account("2300", "Payroll Liabilities", "liability", "payroll_liabilities"),
  account("2310", "Federal Payroll Taxes Payable", "liability", "payroll_liabilities", { parent: "2300" }),
  account("2320", "State Payroll Taxes Payable", "liability", "payroll_liabilities", { parent: "2300" }),
  account("2400", "Customer Deposits", "liability", "unearned_revenue"),
  account("2700", "Loans Payable", "liability", "long_term_debt")
]

const equity = [
  account("3000", "Owner's Equity", "equity", "owners_equity"),
  account("3010", "Owner's Investment", "equity", "owners_equity", { parent: "3000" }),
  account("3020", "Owner's Draws", "equity", "owners_draw", { parent: "3000" }),
  account("3900", "Retained Earnings", "equity", "retained_earnings")
]

const otherIncome = [
  account("4800", "Interest Income", "income", "interest_income"),
  account("4900", "Other Income", "income", "other_income")
]

const commonExpenses = [
  account("6000", "Advertising and Marketing", "expense", "advertising"),
  account("6010", "Bank Fees and Service Charges", "expense", "bank_charges"),
  account("6020", "Contract Labor", "expense", "contractors"),
  account("6030", "Insurance", "expense", "insurance"),
  account("6040", "Interest Expense", "expense", "interest_expense"),
  account("6050", "Legal and Professional Fees", "expense", "legal_professional"),
  account("6060", "Meals", "expense", "meals"),
  account("6070", "Office Supplies and Software", "expense", "office_expenses"),
  account("6080", "Rent or Lease", "expense", "rent"),
  account("6090", "Repairs and Maintenance", "expense", "repairs_maintenance"),
  account("6100", "Payroll Expenses", "expense", "payroll_expenses"),
  account("6110", "Wages and Salaries", "expense", "payroll_expenses", { parent: "6100" }),
  account("6120", "Payroll Taxes", "expense", "payroll_expenses", { parent: "6100" }),
  account("6130", "Employee Benefits", "expense", "payroll_expenses", { parent: "6100" }),
  account("6200", "Taxes and Licenses", "expense", "taxes_licenses"),
  account("6210", "Travel", "expense", "travel"),
  account("6220", "Utilities", "expense", "utilities"),
  account("6230", "Telephone and Internet", "expense", "utilities"),
  account("6240", "Vehicle Expenses", "expense", "vehicle"),
  account("6250", "Depreciation Expense", "expense", "depreciation"),
  account("6260", "Dues and Subscriptions", "expense", "dues_subscriptions"),
  account("6990", "Uncategorized Expense", "expense", "uncategorized")
]

export const general: Chart = {
  name: "general",
  description: "A general small business selling goods and services: bank, receivables and payables, sales tax, " +
    "payroll, owner's equity, sales and cost of goods sold, and the usual expenses.",
  accounts: [
    ...cashAndBank,
    account("1300", "Inventory", "asset", "inventory"),
    ...otherAssets,
    ...liabilities,
    ...equity,
    account("4000", "Sales", "income", "sales"),
    account("4100", "Service Revenue", "income", "service_revenue"),
    account("4500", "Discounts Given", "income", "discounts"),
    ...otherIncome,
    account("5000", "Cost of Goods Sold", "expense", "cost_of_goods_sold"),
    ...commonExpenses
  ],
  defaults: { income: "4000", expense: "6990" }
}

export const services: Chart = {
  name: "services",
  description: "A service business (consulting, agencies, trades): no inventory; service revenue, reimbursed " +
    "expenses and subcontractor costs.",
  accounts: [
    ...cashAndBank,
    ...otherAssets,
    ...liabilities,
    ...equity,
    account("4000", "Service Revenue", "income", "service_revenue"),
    account("4100", "Reimbursed Expenses", "income", "reimbursed_expenses"),
    account("4500", "Discounts Given", "income", "discounts"),
    ...otherIncome,
    account("5000", "Subcontractors", "expense", "cost_of_services"),
    ...commonExpenses
  ],
  defaults: { income: "4000", expense: "6990" }
}

export const retail: Chart = {
  name: "retail",
  description: "A shop selling goods: inventory, sales with returns and discounts, shipping, cost of goods sold " +
    "with freight and shrinkage, and merchant fees.",
  accounts: [
    ...cashAndBank,
    account("1300", "Inventory", "asset", "inventory"),
    ...otherAssets,
    ...liabilities,
    account("2410", "Gift Cards Outstanding", "liability", "unearned_revenue", { parent: "2400" }),
    ...equity,
    account("4000", "Merchandise Sales", "income", "sales"),
    account("4050", "Sales Returns and Allowances", "income", "discounts"),
    account("4060", "Discounts Given", "income", "discounts"),
    account("4100", "Shipping and Delivery Income", "income", "shipping_income"),
    ...otherIncome,
    account("5000", "Cost of Goods Sold", "expense", "cost_of_goods_sold"),
    account("5010", "Freight In", "expense", "cost_of_goods_sold", { parent: "5000" }),
    account("5020", "Inventory Shrinkage", "expense", "cost_of_goods_sold", { parent: "5000" }),
    account("6015", "Merchant Account Fees", "expense", "bank_charges"),
    ...commonExpenses
  ],
  defaults: { income: "4000", expense: "6990" }
}

export const empty: Chart = {
  name: "empty",
  description: "No accounts: build the chart yourself, or import one.",
  accounts: [],
  defaults: { income: null, expense: null }
}

export const all: ReadonlyArray<Chart> = [general, services, retail, empty]

export const byName = (name: Company.StarterChartName): Chart => all.find((chart) => chart.name === name)!

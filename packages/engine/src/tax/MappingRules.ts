import type { Tax } from "@ledger/api"

/**
 * Default return lines, from an account's type and subtype only (never its name): a subtype names
 * what the account holds, that names a line on each return. An account whose subtype is unknown
 * falls back on its type (other income, other deductions, other assets...). ADR 1301.
 */

type ReturnType = Tax.Shared.ReturnType
type AccountType = "asset" | "liability" | "equity" | "income" | "expense"

type Key =
  | "sales" | "returns" | "cogs" | "interest_income" | "other_income"
  | "advertising" | "vehicle" | "contract_labor" | "depreciation" | "benefits" | "insurance" | "interest_expense"
  | "legal" | "office" | "rent" | "repairs" | "supplies" | "taxes" | "travel" | "meals" | "utilities" | "wages"
  | "other_expense" | "bad_debts" | "cash" | "receivables" | "inventory" | "other_current_asset" | "fixed_asset"
  | "accumulated_depreciation" | "other_asset" | "payables" | "other_current_liability" | "long_term_debt"
  | "other_liability" | "capital" | "retained_earnings" | "draws"

const bySubtype: Readonly<Record<string, Key>> = {
  cash: "cash", bank: "cash", undeposited_funds: "cash", accounts_receivable: "receivables", inventory: "inventory",
  prepaid_expenses: "other_current_asset", fixed_asset: "fixed_asset", accumulated_depreciation: "accumulated_depreciation",
  accounts_payable: "payables", credit_card: "other_current_liability", sales_tax_payable: "other_current_liability",
  payroll_liabilities: "other_current_liability", unearned_revenue: "other_current_liability", long_term_debt: "long_term_debt",
  owners_equity: "capital", owners_draw: "draws", retained_earnings: "retained_earnings",
  sales: "sales", service_revenue: "sales", shipping_income: "sales", reimbursed_expenses: "sales", discounts: "returns",
  interest_income: "interest_income", other_income: "other_income",
  cost_of_goods_sold: "cogs", cost_of_services: "cogs", advertising: "advertising", vehicle: "vehicle",
  contractors: "contract_labor", depreciation: "depreciation", insurance: "insurance", interest_expense: "interest_expense",
  legal_professional: "legal", office_expenses: "office", rent: "rent", repairs_maintenance: "repairs", supplies: "supplies",
  taxes_licenses: "taxes", travel: "travel", meals: "meals", utilities: "utilities", payroll_expenses: "wages",
  employee_benefits: "benefits", bad_debts: "bad_debts", bank_charges: "other_expense", dues_subscriptions: "other_expense",
  uncategorized: "other_expense"
}

const byType: Readonly<Record<AccountType, Key>> = {
  asset: "other_asset",
  liability: "other_liability",
  equity: "capital",
  income: "other_income",
  expense: "other_expense"
}

/** Schedule L of the three entity returns: the same line ids (CorporateLines.ts). */
const scheduleL: Partial<Record<Key, string>> = {
  cash: "L1", receivables: "L2a", inventory: "L3", other_current_asset: "L6", fixed_asset: "L10a",
  accumulated_depreciation: "L10b", other_asset: "L14", payables: "L16", other_current_liability: "L18",
  long_term_debt: "L20", other_liability: "L21"
}

const lines: Readonly<Record<ReturnType, Readonly<Record<Key, string>>>> = {
  SCHC: {
    sales: "1", returns: "2", cogs: "4", interest_income: "6", other_income: "6", advertising: "8", vehicle: "9",
    contract_labor: "11", depreciation: "13", benefits: "14", insurance: "15", interest_expense: "16b", legal: "17",
    office: "18", rent: "20b", repairs: "21", supplies: "22", taxes: "23", travel: "24a", meals: "24b", utilities: "25",
    wages: "26", other_expense: "27b", bad_debts: "27b", cash: "NR-asset", receivables: "NR-asset", inventory: "NR-asset",
    other_current_asset: "NR-asset", fixed_asset: "NR-asset", accumulated_depreciation: "NR-asset", other_asset: "NR-asset",
    payables: "NR-liability", other_current_liability: "NR-liability", long_term_debt: "NR-liability",
    other_liability: "NR-liability", capital: "NR-equity", retained_earnings: "NR-equity", draws: "NR-equity"
  },
  "1120": {
    ...(scheduleL as Record<Key, string>),
    sales: "1a", returns: "1b", cogs: "2", interest_income: "5", other_income: "10", advertising: "22", vehicle: "26",
    contract_labor: "26", depreciation: "20", benefits: "24", insurance: "26", interest_expense: "18", legal: "26",
    office: "26", rent: "16", repairs: "14", supplies: "26", taxes: "17", travel: "26", meals: "26", utilities: "26",
    wages: "13", other_expense: "26", bad_debts: "15", capital: "L22", retained_earnings: "L25", draws: "L25"
  },
  "1120S": {
    ...(scheduleL as Record<Key, string>),
    sales: "1a", returns: "1b", cogs: "2", interest_income: "K4", other_income: "5", advertising: "16", vehicle: "20",
    contract_labor: "20", depreciation: "14", benefits: "18", insurance: "20", interest_expense: "13", legal: "20",
    office: "20", rent: "11", repairs: "9", supplies: "20", taxes: "12", travel: "20", meals: "20", utilities: "20",
    wages: "8", other_expense: "20", bad_debts: "10", capital: "L22", retained_earnings: "L24", draws: "K16d"
  },
  "1065": {
    ...(scheduleL as Record<Key, string>),
    sales: "1a", returns: "1b", cogs: "2", interest_income: "K5", other_income: "7", advertising: "21", vehicle: "21",
    contract_labor: "21", depreciation: "16a", benefits: "19", insurance: "21", interest_expense: "15", legal: "21",
    office: "21", rent: "13", repairs: "11", supplies: "21", taxes: "14", travel: "21", meals: "21", utilities: "21",
    wages: "9", other_expense: "21", bad_debts: "12", capital: "L22", retained_earnings: "L22", draws: "K19a"
  }
}

/** The default line id of an account on a return. */
export const defaultLine = (returnType: ReturnType, account: { readonly type: string; readonly subtype: string | null }): string => {
  // Own keys only: a subtype such as "constructor" must not find Object's prototype.
  const bySub = account.subtype !== null && Object.hasOwn(bySubtype, account.subtype) ? bySubtype[account.subtype] : undefined
  const key = bySub ?? (Object.hasOwn(byType, account.type) ? byType[account.type as AccountType] : "other_expense")
  return `${returnType}-${lines[returnType][key]}`
}

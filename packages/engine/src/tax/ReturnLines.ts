import type { Tax } from "@ledger/api"
import * as Corporate from "./CorporateLines.ts"
import { line } from "./Line.ts"

/**
 * The lines of each return Ledger maps the books to, as printed on the IRS forms (tax year 2024
 * forms; docs/tax.md): Schedule C's Parts I and II, the first page of Forms 1120, 1120-S and
 * 1065, their Schedule K items the books carry, Schedule L (the balance sheet) and Schedule M-1
 * (where books and return differ). A line's id is `<return>-<schedule?><line>`: `SCHC-24b`,
 * `1120-26`, `1120S-L1`, `1065-M1-4`.
 */

type Line = Tax.Shared.ReturnLine
type Kind = Line["kind"]

const c = (id: string, form: string, description: string, kind: Kind) => line("SCHC", id, form, id.replace(/^NR-.*/, ""), description, kind)
const partI = "Schedule C Part I"
const partII = "Schedule C Part II"
const notOnReturn = "Not on Schedule C"

/** Schedule C (Form 1040), Profit or Loss From Business. */
export const scheduleC: ReadonlyArray<Line> = [
  c("1", partI, "Gross receipts or sales", "income"),
  c("2", partI, "Returns and allowances", "income"),
  c("4", partI, "Cost of goods sold (from line 42)", "cost_of_goods_sold"),
  c("6", partI, "Other income, including federal and state gasoline or fuel tax credit or refund", "income"),
  c("8", partII, "Advertising", "deduction"),
  c("9", partII, "Car and truck expenses", "deduction"),
  c("10", partII, "Commissions and fees", "deduction"),
  c("11", partII, "Contract labor", "deduction"),
  c("12", partII, "Depletion", "deduction"),
  c("13", partII, "Depreciation and section 179 expense deduction", "deduction"),
  c("14", partII, "Employee benefit programs (other than on line 19)", "deduction"),
  c("15", partII, "Insurance (other than health)", "deduction"),
  c("16a", partII, "Interest: Mortgage (paid to banks, etc.)", "deduction"),
  c("16b", partII, "Interest: Other", "deduction"),
  c("17", partII, "Legal and professional services", "deduction"),
  c("18", partII, "Office expense", "deduction"),
  c("19", partII, "Pension and profit-sharing plans", "deduction"),
  c("20a", partII, "Rent or lease: Vehicles, machinery, and equipment", "deduction"),
  c("20b", partII, "Rent or lease: Other business property", "deduction"),
  c("21", partII, "Repairs and maintenance", "deduction"),
  c("22", partII, "Supplies (not included in Part III)", "deduction"),
  c("23", partII, "Taxes and licenses", "deduction"),
  c("24a", partII, "Travel", "deduction"),
  c("24b", partII, "Deductible meals", "deduction"),
  c("25", partII, "Utilities", "deduction"),
  c("26", partII, "Wages (less employment credits)", "deduction"),
  c("27a", partII, "Energy efficient commercial buildings deduction", "deduction"),
  c("27b", partII, "Other expenses (from line 48)", "deduction"),
  c("NR-asset", notOnReturn, "Balance sheet: assets (a sole proprietor files no balance sheet)", "not_on_return"),
  c("NR-liability", notOnReturn, "Balance sheet: liabilities", "not_on_return"),
  c("NR-equity", notOnReturn, "Owner's equity, investments and draws", "not_on_return"),
  c("NR-nondeductible", notOnReturn, "Nondeductible expenses (for example the owner's federal income tax, penalties)", "not_on_return")
]

export const byReturnType: Readonly<Record<Tax.Shared.ReturnType, ReadonlyArray<Line>>> = {
  SCHC: scheduleC,
  "1120": Corporate.form1120,
  "1120S": Corporate.form1120S,
  "1065": Corporate.form1065
}

export const returnTypes: ReadonlyArray<Tax.Shared.ReturnType> = ["1120S", "1065", "1120", "SCHC"]

const index = new Map<string, Line>(returnTypes.flatMap((type) => byReturnType[type].map((entry) => [entry.id, entry] as const)))

/** The line with this id, when it belongs to `returnType`. */
export const find = (returnType: Tax.Shared.ReturnType, id: string): Line | undefined => {
  const found = index.get(id)
  return found?.return_type === returnType ? found : undefined
}

import type { Tax } from "@ledger/api"

/** One return line as data (ReturnLines.ts lists them). */
type Line = Tax.Shared.ReturnLine
type Kind = Line["kind"]

/** Liabilities and equity of Schedule L carry credit balances; everything else but income a debit. */
const creditLines = /^L(1[5-9]|2\d)$/

export const line = (returnType: Tax.Shared.ReturnType, id: string, form: string, number: string, description: string, kind: Kind): Line => ({
  id: `${returnType}-${id}`,
  return_type: returnType,
  form,
  line: number,
  description,
  kind,
  normal_balance: kind === "income" || (kind === "balance_sheet" && creditLines.test(id)) ? "credit" : "debit"
})


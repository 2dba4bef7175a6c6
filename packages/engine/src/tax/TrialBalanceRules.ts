import type { Tax } from "@ledger/api"
import * as ReturnLines from "./ReturnLines.ts"

/**
 * The trial balance grouped by return line (pure): each account's debit or credit lands on the
 * line its mapping names, unmapped ones on a line of their own; the line totals are the sums of
 * their accounts' sides, so the whole ties to the books' trial balance exactly when every row
 * of the books is placed once (`ties`).
 */

type ReturnType = Tax.Shared.ReturnType
type Result = Tax.TrialBalance.TaxTrialBalance

export interface BookRow {
  readonly code: string | null
  readonly name: string
  readonly debit_cents: number
  readonly credit_cents: number
}

export interface Books {
  readonly as_of: string
  readonly rows: ReadonlyArray<BookRow>
  readonly total_debit_cents: number
  readonly total_credit_cents: number
}

export const group = (
  returnType: ReturnType,
  books: Books,
  lineOf: (code: string | null) => string | null
): Result => {
  const lines = new Map<string | null, { debit: number; credit: number; accounts: Array<BookRow> }>()
  const unmapped: Array<string> = []
  for (const row of books.rows) {
    const id = lineOf(row.code)
    const known = id === null ? undefined : ReturnLines.find(returnType, id)
    const key = known === undefined ? null : known.id
    if (key === null) unmapped.push(row.code ?? "(earlier years' earnings)")
    const entry = lines.get(key) ?? { debit: 0, credit: 0, accounts: [] }
    entry.debit += row.debit_cents
    entry.credit += row.credit_cents
    entry.accounts.push(row)
    lines.set(key, entry)
  }
  const order = ReturnLines.byReturnType[returnType].map((line) => line.id)
  const keys = [...lines.keys()].sort((a, b) => (a === null ? Infinity : order.indexOf(a)) - (b === null ? Infinity : order.indexOf(b)))
  const out = keys.map((key) => {
    const entry = lines.get(key)!
    const line = key === null ? undefined : ReturnLines.find(returnType, key)
    return {
      line: key,
      form: line?.form ?? null,
      line_number: line?.line ?? null,
      description: line?.description ?? "Not mapped to a line",
      kind: line?.kind ?? null,
      debit_cents: entry.debit,
      credit_cents: entry.credit,
      accounts: entry.accounts.map((row) => ({ code: row.code, name: row.name, debit_cents: row.debit_cents, credit_cents: row.credit_cents }))
    }
  })
  const totalDebit = out.reduce((sum, line) => sum + line.debit_cents, 0)
  const totalCredit = out.reduce((sum, line) => sum + line.credit_cents, 0)
  const placed = out.reduce((sum, line) => sum + line.accounts.length, 0)
  return {
    as_of: books.as_of,
    return_type: returnType,
    lines: out,
    unmapped_accounts: unmapped,
    total_debit_cents: totalDebit,
    total_credit_cents: totalCredit,
    ties_to_books: totalDebit === books.total_debit_cents && totalCredit === books.total_credit_cents &&
      totalDebit === totalCredit && placed === books.rows.length
  }
}

import { accounts, debitsAt, openOf, partyBalances, type Txn } from "./model.ts"
import type { Year } from "./year.ts"

/**
 * What the books must show after a migration of the generated year, from the generator's own
 * postings: each account's balance by its code (the source's account number) at a date, debit
 * positive, zeros left out as a trial balance leaves them; the open documents' totals for AR and
 * AP aging; each party's balance.
 */

export const trialBalanceAt = (year: Year, date: string): Record<string, number> => {
  const balances = debitsAt(year.txns, date)
  return Object.fromEntries(accounts.map((account) => [account.number, balances.get(account.key) ?? 0] as const).filter(([, cents]) => cents !== 0))
}

/** Ledger's trial balance report as the same map: code to debit less credit. */
export const fromReport = (report: { readonly rows: ReadonlyArray<{ readonly code: string | null; readonly debit_cents: number; readonly credit_cents: number }> }) =>
  Object.fromEntries(report.rows.map((row) => [row.code ?? "(retained)", row.debit_cents - row.credit_cents] as const).filter(([, cents]) => cents !== 0))

const openSum = (txns: ReadonlyArray<Txn>, open: ReadonlyMap<string, number>, keep: (txn: Txn) => boolean) =>
  txns.filter(keep).reduce((total, txn) => total + (open.get(txn.id) ?? 0), 0)

export const openDocuments = (year: Year) => {
  const open = openOf(year.txns)
  const invoices = openSum(year.txns, open, (txn) => txn.type === "invoice")
  const bills = openSum(year.txns, open, (txn) => txn.type === "bill")
  const customerCredits = openSum(year.txns, open, (txn) => txn.type === "creditMemo" || txn.type === "payment")
  const vendorCredits = openSum(year.txns, open, (txn) => txn.type === "vendorCredit")
  const count = [...open.entries()].filter(([, cents]) => cents !== 0).length
  return { invoices, bills, customerCredits, vendorCredits, count, parties: partyBalances(year.txns) }
}

/** How many of each transaction type the year has: the test asserts every common type is there. */
export const typeCounts = (year: Year): Record<string, number> => {
  const counts: Record<string, number> = {}
  for (const txn of year.txns) counts[txn.type] = (counts[txn.type] ?? 0) + 1
  return counts
}

/**
 * A small business's year as its source books hold it, in one shape for both editions (issue 39
 * item 4): the chart, lists and every everyday transaction, each with the postings an accountant
 * would write for it. The expected figures (balances at month ends, open documents, each
 * customer's and vendor's balance) are worked out here from those postings, never by Ledger's code,
 * so a migration that drops, misreads or mis-signs a transaction type cannot agree with them.
 */

export type AccountKey =
  | "checking" | "savings" | "oldSavings" | "undeposited" | "ar" | "equipment" | "ap" | "card" | "salesTax" | "equity"
  | "services" | "products" | "materials" | "supplies" | "rent" | "utilities" | "bankFees"

/** The source's account types, by which the renderers name them in each edition. */
export type Kind = "Bank" | "OtherCurrentAsset" | "AccountsReceivable" | "FixedAsset" | "AccountsPayable" | "CreditCard"
  | "OtherCurrentLiability" | "Equity" | "Income" | "CostOfGoodsSold" | "Expense"

export interface ModelAccount {
  readonly key: AccountKey
  readonly number: string
  readonly name: string
  readonly kind: Kind
  readonly inactive?: boolean
}

const debitNatural = new Set<Kind>(["Bank", "OtherCurrentAsset", "AccountsReceivable", "FixedAsset", "CostOfGoodsSold", "Expense"])
/** 1 when a debit raises the account's balance, -1 when a credit does. */
export const natural = (kind: Kind): 1 | -1 => debitNatural.has(kind) ? 1 : -1

export const accounts: ReadonlyArray<ModelAccount> = [
  { key: "checking", number: "1000", name: "Checking", kind: "Bank" },
  { key: "savings", number: "1010", name: "Savings", kind: "Bank" },
  // Emptied in April and made inactive: it has history, and balances at the March month end.
  { key: "oldSavings", number: "1020", name: "Old Savings", kind: "Bank", inactive: true },
  { key: "undeposited", number: "1050", name: "Undeposited Funds", kind: "OtherCurrentAsset" },
  { key: "ar", number: "1100", name: "Accounts Receivable", kind: "AccountsReceivable" },
  { key: "equipment", number: "1500", name: "Equipment", kind: "FixedAsset" },
  { key: "ap", number: "2000", name: "Accounts Payable", kind: "AccountsPayable" },
  { key: "card", number: "2100", name: "Business Card", kind: "CreditCard" },
  { key: "salesTax", number: "2200", name: "Sales Tax Payable", kind: "OtherCurrentLiability" },
  { key: "equity", number: "3000", name: "Owner's Equity", kind: "Equity" },
  { key: "services", number: "4000", name: "Service Income", kind: "Income" },
  { key: "products", number: "4100", name: "Product Sales", kind: "Income" },
  { key: "materials", number: "5000", name: "Materials", kind: "CostOfGoodsSold" },
  { key: "supplies", number: "6000", name: "Office Supplies", kind: "Expense" },
  { key: "rent", number: "6100", name: "Rent", kind: "Expense" },
  { key: "utilities", number: "6200", name: "Utilities", kind: "Expense" },
  { key: "bankFees", number: "6300", name: "Bank Fees", kind: "Expense" }
]
export const accountOf = (key: AccountKey): ModelAccount => accounts.find((account) => account.key === key)!

export type ItemKey = "services" | "products"
/** Services sell to Service Income; products sell to Product Sales and are bought to Materials. */
export const items: ReadonlyArray<{ readonly key: ItemKey; readonly name: string; readonly income: AccountKey; readonly expense: AccountKey | null }> = [
  { key: "services", name: "Consulting", income: "services", expense: null },
  { key: "products", name: "Widgets", income: "products", expense: "materials" }
]
export const itemOf = (key: ItemKey) => items.find((item) => item.key === key)!

/** Sales tax: one rate, 8.25%, on every sale; each document's tax rounded to the cent. */
export const taxRate = { name: "State Sales Tax", permille10: 825 }
export const taxOn = (net: number) => Math.round(net * taxRate.permille10 / 10_000)

export interface Party { readonly id: string; readonly name: string; readonly email: string | null; readonly inactive: boolean }

export interface SaleLine { readonly item: ItemKey; readonly cents: number }
/** A purchase line on an account, or on an item (its purchase account). */
export interface CostLine { readonly account?: AccountKey; readonly item?: ItemKey; readonly cents: number }
export interface Applied { readonly txn: string; readonly cents: number }

interface Base { readonly id: string; readonly date: string; readonly number: string }

export type Txn =
  | Base & { readonly type: "invoice"; readonly customer: string; readonly due: string; readonly lines: ReadonlyArray<SaleLine>; readonly tax: number }
  | Base & { readonly type: "salesReceipt"; readonly customer: string; readonly lines: ReadonlyArray<SaleLine>; readonly tax: number; readonly to: AccountKey }
  | Base & { readonly type: "payment"; readonly customer: string; readonly applied: ReadonlyArray<Applied>; readonly unapplied: number; readonly to: AccountKey }
  | Base & { readonly type: "deposit"; readonly to: AccountKey; readonly gathered: ReadonlyArray<Applied & { readonly kind: "payment" | "salesReceipt" }>; readonly other: ReadonlyArray<{ readonly account: AccountKey; readonly cents: number }> }
  | Base & { readonly type: "transfer"; readonly from: AccountKey; readonly to: AccountKey; readonly cents: number }
  /** A check, a cash or card purchase; `refund`: a card credit, the other way. */
  | Base & { readonly type: "expense"; readonly vendor: string | null; readonly from: AccountKey; readonly lines: ReadonlyArray<{ readonly account: AccountKey; readonly cents: number }>; readonly refund: boolean }
  | Base & { readonly type: "bill"; readonly vendor: string; readonly due: string; readonly lines: ReadonlyArray<CostLine> }
  | Base & { readonly type: "billPayment"; readonly vendor: string; readonly from: AccountKey; readonly applied: ReadonlyArray<Applied> }
  | Base & { readonly type: "creditMemo"; readonly customer: string; readonly lines: ReadonlyArray<SaleLine>; readonly tax: number }
  | Base & { readonly type: "vendorCredit"; readonly vendor: string; readonly lines: ReadonlyArray<{ readonly account: AccountKey; readonly cents: number }> }
  | Base & { readonly type: "journal"; readonly lines: ReadonlyArray<{ readonly account: AccountKey; readonly cents: number }> }
  /** The sales tax collected, paid to the tax agency from checking. */
  | Base & { readonly type: "taxPayment"; readonly vendor: string; readonly from: AccountKey; readonly cents: number }
  /** The card's statement paid from checking. */
  | Base & { readonly type: "cardPayment"; readonly from: AccountKey; readonly cents: number }

export type TxnType = Txn["type"]

const sum = (values: ReadonlyArray<{ readonly cents: number }>) => values.reduce((total, value) => total + value.cents, 0)
export const totalOf = (txn: Txn): number => {
  switch (txn.type) {
    case "invoice": case "salesReceipt": case "creditMemo": return sum(txn.lines) + txn.tax
    case "payment": return sum(txn.applied) + txn.unapplied
    case "deposit": return sum(txn.gathered) + sum(txn.other)
    case "bill": case "expense": case "vendorCredit": return sum(txn.lines)
    case "billPayment": return sum(txn.applied)
    case "journal": return sum(txn.lines.filter((line) => line.cents > 0))
    case "transfer": case "taxPayment": case "cardPayment": return txn.cents
  }
}

/** The postings an accountant writes for a transaction (debit positive), by account. */
export const postingsOf = (txn: Txn): Array<readonly [AccountKey, number]> => {
  const sales = (lines: ReadonlyArray<SaleLine>, sign: 1 | -1) =>
    lines.map((line) => [itemOf(line.item).income, -sign * line.cents] as const)
  const costs = (lines: ReadonlyArray<CostLine>, sign: 1 | -1) =>
    lines.map((line) => [line.account ?? itemOf(line.item!).expense!, sign * line.cents] as const)
  switch (txn.type) {
    case "invoice": return [["ar", totalOf(txn)], ...sales(txn.lines, 1), ["salesTax", -txn.tax]]
    case "salesReceipt": return [[txn.to, totalOf(txn)], ...sales(txn.lines, 1), ["salesTax", -txn.tax]]
    case "creditMemo": return [["ar", -totalOf(txn)], ...sales(txn.lines, -1), ["salesTax", txn.tax]]
    case "payment": return [[txn.to, totalOf(txn)], ["ar", -totalOf(txn)]]
    case "deposit": return [[txn.to, totalOf(txn)], ["undeposited", -sum(txn.gathered)], ...txn.other.map((line) => [line.account, -line.cents] as const)]
    case "transfer": return [[txn.to, txn.cents], [txn.from, -txn.cents]]
    case "expense": return txn.refund ? [[txn.from, totalOf(txn)], ...costs(txn.lines, -1)] : [[txn.from, -totalOf(txn)], ...costs(txn.lines, 1)]
    case "bill": return [["ap", -totalOf(txn)], ...costs(txn.lines, 1)]
    case "vendorCredit": return [["ap", totalOf(txn)], ...costs(txn.lines, -1)]
    case "billPayment": return [["ap", totalOf(txn)], [txn.from, -totalOf(txn)]]
    case "journal": return txn.lines.map((line) => [line.account, line.cents] as const)
    case "taxPayment": return [["salesTax", txn.cents], [txn.from, -txn.cents]]
    case "cardPayment": return [["card", txn.cents], [txn.from, -txn.cents]]
  }
}

/** Each account's balance (debit positive) on a date, from the postings of the transactions up to it. */
export const debitsAt = (txns: ReadonlyArray<Txn>, date: string): Map<AccountKey, number> => {
  const balances = new Map<AccountKey, number>()
  for (const txn of txns) {
    if (txn.date > date) continue
    for (const [account, cents] of postingsOf(txn)) balances.set(account, (balances.get(account) ?? 0) + cents)
  }
  return balances
}

/** What is still open on each invoice, bill, credit memo, vendor credit and payment at the year's end. */
export const openOf = (txns: ReadonlyArray<Txn>): Map<string, number> => {
  const open = new Map<string, number>()
  for (const txn of txns) {
    if (txn.type === "invoice" || txn.type === "bill" || txn.type === "creditMemo" || txn.type === "vendorCredit") open.set(txn.id, totalOf(txn))
    if (txn.type === "payment") open.set(txn.id, txn.unapplied)
  }
  for (const txn of txns) {
    if (txn.type !== "payment" && txn.type !== "billPayment") continue
    for (const applied of txn.applied) open.set(applied.txn, open.get(applied.txn)! - applied.cents)
  }
  return open
}

/** A party's balance: its open invoices or bills less its open credits and unapplied payments. */
export const partyBalances = (txns: ReadonlyArray<Txn>): Map<string, number> => {
  const open = openOf(txns)
  const balances = new Map<string, number>()
  const add = (party: string, cents: number) => balances.set(party, (balances.get(party) ?? 0) + cents)
  for (const txn of txns) {
    if (txn.type === "invoice") add(txn.customer, open.get(txn.id)!)
    if (txn.type === "creditMemo" || txn.type === "payment") add(txn.customer, -open.get(txn.id)!)
    if (txn.type === "bill") add(txn.vendor, open.get(txn.id)!)
    if (txn.type === "vendorCredit") add(txn.vendor, -open.get(txn.id)!)
  }
  return balances
}

/** Mulberry32: a small seeded generator, so a seed is always the same year. */
export const random = (seed: number) => {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
  return { next, int: (low: number, high: number) => low + Math.floor(next() * (high - low + 1)), pick: <T>(values: ReadonlyArray<T>) => values[Math.floor(next() * values.length)]! }
}

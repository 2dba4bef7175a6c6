import type { Entity } from "../ports/OnlineBooks.ts"
import { centsOf } from "./Qbxml.ts"
import type { AccountType, SourceLine, SourceOpenItem, Staged } from "./Staging.ts"

/**
 * The online edition's JSON records (its v3 entities) read into staged records (pure), and the
 * read budget: a page of up to 1,000 rows is one metered read, a count one more.
 */

export const pageSize = 1_000

/** Metered reads an extraction of these counts takes: one page per 1,000 rows, at least one per entity. */
export const callsFor = (counts: Readonly<Record<string, number>>): number =>
  Object.values(counts).reduce((sum, count) => sum + Math.max(1, Math.ceil(count / pageSize)), 0)

type Json = Record<string, any>

const types: Record<string, AccountType> = {
  "Bank": "asset", "Accounts Receivable": "asset", "Other Current Asset": "asset", "Fixed Asset": "asset", "Other Asset": "asset",
  "Accounts Payable": "liability", "Credit Card": "liability", "Other Current Liability": "liability", "Long Term Liability": "liability",
  "Equity": "equity", "Income": "income", "Other Income": "income", "Cost of Goods Sold": "expense", "Expense": "expense", "Other Expense": "expense"
}

const cents = (value: unknown) => centsOf(String(value ?? 0))
const ref = (value: unknown): string | null => value === undefined || value === null ? null : String((value as Json).value)
const line = (account: string | null, amount: number, options: Partial<SourceLine> = {}): SourceLine =>
  ({ account, item: null, tax: false, cents: amount, ...options })

const txn = (entity: Entity, record: Json, lines: Array<SourceLine>): Staged => ({
  entity: "txn",
  id: `${entity}:${String(record.Id)}`,
  record: { id: String(record.Id), type: entity, date: String(record.TxnDate), ref: record.DocNumber === undefined ? null : String(record.DocNumber), lines }
})

const balance = (lines: Array<SourceLine>, account: string | null): Array<SourceLine> => {
  const total = lines.reduce((sum, item) => sum + item.cents, 0)
  return total === 0 ? lines : [...lines, line(account, -total)]
}

/**
 * The chart's control accounts the online entities leave implicit: an invoice names no AR account,
 * and a deposit's line that gathers received payments names none (they wait in Undeposited Funds).
 */
export interface Controls { readonly ar: string | null; readonly ap: string | null; readonly undeposited?: string | null }

/** The Undeposited Funds account among the online edition's Account records, if it has one. */
export const undepositedOf = (accounts: ReadonlyArray<Json>): string | null => {
  const found = accounts.find((account) => account.AccountSubType === "UndepositedFunds")
  return found === undefined ? null : String(found.Id)
}

/** A sale's item lines (credits) and its tax (a credit), from a sales receipt, invoice or credit memo. */
const saleLines = (record: Json, lines: Array<Json>, sign: 1 | -1): Array<SourceLine> => {
  const sales = lines.filter((item) => item.DetailType === "SalesItemLineDetail")
    .map((item): SourceLine => ({ account: null, item: ref(item.SalesItemLineDetail?.ItemRef), tax: false, cents: -sign * cents(item.Amount), itemSide: "sales" }))
  const tax = cents(record.TxnTaxDetail?.TotalTax)
  return tax === 0 ? sales : [...sales, line(null, -sign * tax, { tax: true })]
}

/** A purchase's expense lines (debits): by account, or by item (its purchase account). */
const expenseLines = (lines: Array<Json>, sign: 1 | -1): Array<SourceLine> =>
  lines.flatMap((item): Array<SourceLine> => {
    if (item.DetailType === "AccountBasedExpenseLineDetail") return [line(ref(item.AccountBasedExpenseLineDetail?.AccountRef), sign * cents(item.Amount))]
    if (item.DetailType === "ItemBasedExpenseLineDetail") {
      return [{ account: null, item: ref(item.ItemBasedExpenseLineDetail?.ItemRef), tax: false, cents: sign * cents(item.Amount), itemSide: "purchase" }]
    }
    return []
  })

export const fromOnline = (entity: Entity, record: Json, controls: Controls): Staged | null => {
  const lines = (record.Line ?? []) as Array<Json>
  switch (entity) {
    case "Account": {
      const type = types[String(record.AccountType)] ?? null
      const special = record.AccountType === "Accounts Receivable" ? "ar" : record.AccountType === "Accounts Payable" ? "ap"
        : record.AccountSubType === "SalesTaxPayable" ? "sales_tax" : null
      return {
        entity: "account",
        id: String(record.Id),
        record: { id: String(record.Id), name: String(record.FullyQualifiedName ?? record.Name), number: record.AcctNum ?? null, type, special, balanceCents: cents(record.CurrentBalance) }
      }
    }
    case "Customer":
    case "Vendor":
      // An inactive customer or vendor comes over inactive; its first email address with it.
      return { entity: entity === "Customer" ? "customer" : "vendor", id: String(record.Id), record: {
        id: String(record.Id), name: String(record.DisplayName), balanceCents: cents(record.Balance), active: record.Active !== false,
        email: typeof record.PrimaryEmailAddr?.Address === "string" ? record.PrimaryEmailAddr.Address : null
      } }
    case "Item":
      return { entity: "item", id: String(record.Id), record: { id: String(record.Id), name: String(record.Name), income: ref(record.IncomeAccountRef), expense: ref(record.ExpenseAccountRef) } }
    case "Invoice": {
      const sales = lines.filter((item) => item.DetailType === "SalesItemLineDetail")
        .map((item) => ({ account: null, item: ref(item.SalesItemLineDetail?.ItemRef), tax: false, cents: -cents(item.Amount) }))
      const tax = cents(record.TxnTaxDetail?.TotalTax)
      return txn(entity, record, balance(tax === 0 ? sales : [...sales, line(null, -tax, { tax: true })], controls.ar))
    }
    case "Bill":
      // Account lines and item lines (goods bought for resale post to the item's purchase account).
      return txn(entity, record, balance(expenseLines(lines, 1), ref(record.APAccountRef) ?? controls.ap))
    case "Payment":
      return txn(entity, record, [line(ref(record.DepositToAccountRef), cents(record.TotalAmt)), line(ref(record.ARAccountRef) ?? controls.ar, -cents(record.TotalAmt))])
    case "BillPayment":
      return txn(entity, record, [line(ref(record.APAccountRef) ?? controls.ap, cents(record.TotalAmt)), line(ref(record.CheckPayment?.BankAccountRef ?? record.CreditCardPayment?.CCAccountRef), -cents(record.TotalAmt))])
    case "SalesReceipt":
      // Paid at once: the money goes to the deposit account the receipt names.
      return txn(entity, record, balance(saleLines(record, lines, 1), ref(record.DepositToAccountRef) ?? controls.undeposited ?? null))
    case "RefundReceipt":
      return txn(entity, record, balance(saleLines(record, lines, -1), ref(record.DepositToAccountRef) ?? controls.undeposited ?? null))
    case "CreditMemo":
      return txn(entity, record, balance(saleLines(record, lines, -1), ref(record.ARAccountRef) ?? controls.ar))
    case "Deposit": {
      // A line with its own account credits it; a line that gathers received payments (LinkedTxn) credits Undeposited Funds.
      const credits = lines.filter((item) => typeof item.Amount === "number" || typeof item.Amount === "string").map((item) =>
        line(ref(item.DepositLineDetail?.AccountRef) ?? controls.undeposited ?? null, -cents(item.Amount)))
      return txn(entity, record, balance(credits, ref(record.DepositToAccountRef)))
    }
    case "Transfer":
      return txn(entity, record, [line(ref(record.ToAccountRef), cents(record.Amount)), line(ref(record.FromAccountRef), -cents(record.Amount))])
    case "Purchase":
      // A cash, check or card purchase: expenses debited, the paying account credited; `Credit` is a card refund, the other way.
      return txn(entity, record, balance(expenseLines(lines, record.Credit === true ? -1 : 1), ref(record.AccountRef)))
    case "VendorCredit":
      return txn(entity, record, balance(expenseLines(lines, -1), ref(record.APAccountRef) ?? controls.ap))
    case "JournalEntry":
      return txn(entity, record, lines.filter((item) => item.DetailType === "JournalEntryLineDetail").map((item) =>
        line(ref(item.JournalEntryLineDetail?.AccountRef), item.JournalEntryLineDetail?.PostingType === "Credit" ? -cents(item.Amount) : cents(item.Amount))))
    default:
      return null
  }
}

/**
 * The open document a record is (ADR 2112), as the online edition keeps it: an invoice's or bill's
 * `Balance`, a credit memo's `RemainingCredit`, a vendor credit's `Balance`, a payment's
 * `UnappliedAmt` (received but applied to no invoice). Null for other entities or nothing open.
 */
export const openOf = (entity: Entity, record: Json): SourceOpenItem | null => {
  const item = (kind: SourceOpenItem["kind"], party: unknown, account: unknown, open: unknown): SourceOpenItem | null => {
    const openCents = cents(open)
    return openCents === 0 ? null : {
      id: String(record.Id), kind, party: ref(party), account: ref(account), number: record.DocNumber === undefined ? null : String(record.DocNumber),
      date: String(record.TxnDate), due: record.DueDate === undefined ? null : String(record.DueDate), openCents
    }
  }
  switch (entity) {
    case "Invoice": return item("invoice", record.CustomerRef, record.ARAccountRef, record.Balance)
    case "Bill": return item("bill", record.VendorRef, record.APAccountRef, record.Balance)
    case "CreditMemo": return item("credit_memo", record.CustomerRef, record.ARAccountRef, record.RemainingCredit)
    case "VendorCredit": return item("vendor_credit", record.VendorRef, record.APAccountRef, record.Balance)
    case "Payment": return item("payment_received", record.CustomerRef, record.ARAccountRef, record.UnappliedAmt)
    default: return null
  }
}

/** What the online edition cannot export, and how the migration handles each (the disclosure). */
export const notExported: ReadonlyArray<{ readonly what: string; readonly handling: string }> = [
  { what: "Attachments and receipts", handling: "Not available through the API: download them from the online edition before cutover." },
  { what: "Bank feed connections and rules", handling: "Connect bank feeds again in Ledger; rules are re-created by hand." },
  { what: "Reconciliation history", handling: "Balances come over; start the next reconciliation from the cutover statement." },
  { what: "Recurring transaction templates", handling: "Re-create them as recurring templates in Ledger." },
  { what: "Audit log of the online edition", handling: "Kept by the online edition; Ledger's audit log marks the import." },
  { what: "Payroll details", handling: "Payroll journal entries come over as entries; employee records do not." },
  {
    what: "Transaction types not read: CreditCardPayment, InventoryAdjustment, TaxPayment and payroll checks (posting); Estimate, PurchaseOrder and TimeActivity (not posting)",
    handling: "Posting ones are missing from the balances, so the tie-out fails while the company has any; record them as journal entries. Non-posting ones are not needed for the books."
  }
]

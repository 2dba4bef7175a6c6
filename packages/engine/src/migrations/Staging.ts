import { centsOf, type Node } from "./Qbxml.ts"

/**
 * Source records in one shape for both editions (pure): accounts with their balances, customers
 * and vendors with theirs, items with their accounts, and transactions as signed lines (debit
 * positive) on an account, an item (resolved to its account at import) or the sales tax payable.
 * The desktop edition's qbXML records are read here; the online edition's JSON in OnlineRules.ts.
 */

export type AccountType = "asset" | "liability" | "equity" | "income" | "expense"

export interface SourceAccount {
  readonly id: string
  readonly name: string
  readonly number: string | null
  /** Null for the source's non-posting accounts (estimates, purchase orders): never imported. */
  readonly type: AccountType | null
  readonly special: "ar" | "ap" | "sales_tax" | null
  /** The source's own balance as of the extraction, in the account's natural sign. */
  readonly balanceCents: number
}

export interface SourceParty {
  readonly id: string
  readonly name: string
  readonly balanceCents: number
  /** Absent (the online edition's parties): active. */
  readonly active?: boolean
  readonly email?: string | null
}

/**
 * An open document as of the extraction (ADR 2111): an invoice or bill still owed, a credit memo
 * or vendor credit still to use, an item receipt waiting for its bill (owed to the vendor), a
 * customer's payment not applied to any invoice. What the aging shows after the import;
 * `openCents` is positive.
 */
export interface SourceOpenItem {
  readonly id: string
  readonly kind: "invoice" | "bill" | "credit_memo" | "vendor_credit" | "payment_received"
  /** The customer's or vendor's ListID (else its full name). */
  readonly party: string | null
  /** The AR or AP account it sits in (ListID, else full name); null: the first one. */
  readonly account: string | null
  readonly number: string | null
  readonly date: string
  readonly due: string | null
  readonly openCents: number
}
export interface SourceItem { readonly id: string; readonly name: string; readonly income: string | null; readonly expense: string | null }

export interface SourceLine {
  readonly account: string | null
  readonly item: string | null
  readonly tax: boolean
  /** Signed: positive is a debit. */
  readonly cents: number
  /**
   * Which of its item's accounts an item line posts to: a sale's (income) or a purchase's
   * (expense). Absent: by its sign (a credit is a sale). A credit memo's lines are debits on the
   * income account, a vendor credit's credits on the expense account, so they say so.
   */
  readonly itemSide?: "sales" | "purchase" | undefined
}

export interface SourceTxn {
  readonly id: string
  readonly type: string
  readonly date: string
  readonly ref: string | null
  readonly lines: ReadonlyArray<SourceLine>
}

export type Staged =
  | { readonly entity: "account"; readonly id: string; readonly record: SourceAccount }
  | { readonly entity: "customer" | "vendor"; readonly id: string; readonly record: SourceParty }
  | { readonly entity: "item"; readonly id: string; readonly record: SourceItem }
  | { readonly entity: "txn"; readonly id: string; readonly record: SourceTxn }
  | { readonly entity: "open"; readonly id: string; readonly record: SourceOpenItem }

const typeOf: Record<string, AccountType | null> = {
  Bank: "asset", AccountsReceivable: "asset", OtherCurrentAsset: "asset", FixedAsset: "asset", OtherAsset: "asset",
  AccountsPayable: "liability", CreditCard: "liability", OtherCurrentLiability: "liability", LongTermLiability: "liability",
  Equity: "equity", Income: "income", OtherIncome: "income", CostOfGoodsSold: "expense", Expense: "expense", OtherExpense: "expense",
  NonPosting: null
}

const text = (value: unknown): string | null => value === undefined || value === null || value === "" ? null : String(value)
/** An account or item reference: its ListID, else its full name. */
export const ref = (value: unknown): string | null => {
  if (value === undefined || value === null) return null
  const node = value as Node
  return text(node.ListID) ?? text(node.FullName)
}

const account = (node: Node): SourceAccount => {
  const sourceType = String(node.AccountType ?? "")
  const special = String(node.SpecialAccountType ?? "")
  return {
    id: String(node.ListID),
    name: String(node.FullName ?? node.Name),
    number: text(node.AccountNumber),
    type: typeOf[sourceType] ?? null,
    special: sourceType === "AccountsReceivable" ? "ar" : sourceType === "AccountsPayable" ? "ap" : special === "SalesTaxPayable" ? "sales_tax" : null,
    balanceCents: centsOf(node.Balance ?? "0", "Balance")
  }
}

const item = (node: Node): SourceItem => {
  const single = node.SalesOrPurchase as Node | undefined
  const both = node.SalesAndPurchase as Node | undefined
  return {
    id: String(node.ListID),
    name: String(node.FullName ?? node.Name),
    income: ref(node.IncomeAccountRef) ?? ref(single?.AccountRef) ?? ref(both?.IncomeAccountRef) ?? ref(node.AccountRef) ?? ref(node.DepositToAccountRef),
    expense: ref(node.COGSAccountRef) ?? ref(single?.AccountRef) ?? ref(both?.ExpenseAccountRef) ?? ref(node.AccountRef)
  }
}

const list = (value: unknown): Array<Node> => value === undefined ? [] : (Array.isArray(value) ? value : [value]) as Array<Node>

/** Sales lines (invoice, sales receipt): each credited to its item's income account, tax to sales tax. */
const salesLines = (node: Node, lineName: string): Array<SourceLine> => {
  const lines: Array<SourceLine> = list(node[lineName]).filter((line) => line.Amount !== undefined)
    .map((line): SourceLine => ({ account: null, item: ref(line.ItemRef), tax: false, cents: -centsOf(line.Amount), itemSide: "sales" }))
  const tax = centsOf(node.SalesTaxTotal ?? "0", "SalesTaxTotal")
  if (tax !== 0) lines.push({ account: null, item: null, tax: true, cents: -tax })
  return lines
}

/** Purchase lines (bill, check): expense lines on their account, item lines on the item's expense account. */
const purchaseLines = (node: Node): Array<SourceLine> => [
  ...list(node.ExpenseLineRet).map((line) => ({ account: ref(line.AccountRef), item: null, tax: false, cents: centsOf(line.Amount) })),
  ...list(node.ItemLineRet).map((line): SourceLine => ({ account: null, item: ref(line.ItemRef), tax: false, cents: centsOf(line.Amount), itemSide: "purchase" }))
]

/** The same lines on the other side: a credit memo undoes a sale, a vendor or card credit a purchase. */
const reversed = (lines: Array<SourceLine>): Array<SourceLine> => lines.map((line) => ({ ...line, cents: -line.cents }))

/** One amount moved from one account to another: debit `to`, credit `from`. */
const moved = (to: string | null, from: string | null, cents: number): Array<SourceLine> => [
  { account: to, item: null, tax: false, cents },
  { account: from, item: null, tax: false, cents: -cents }
]

const balancing = (lines: Array<SourceLine>, account: string | null): Array<SourceLine> => {
  const total = lines.reduce((sum, line) => sum + line.cents, 0)
  return total === 0 ? lines : [...lines, { account, item: null, tax: false, cents: -total }]
}

const txnLines = (kind: string, node: Node): Array<SourceLine> | null => {
  switch (kind) {
    case "JournalEntryRet":
      return [
        ...list(node.JournalDebitLine).map((line) => ({ account: ref(line.AccountRef), item: null, tax: false, cents: centsOf(line.Amount) })),
        ...list(node.JournalCreditLine).map((line) => ({ account: ref(line.AccountRef), item: null, tax: false, cents: -centsOf(line.Amount) }))
      ]
    case "InvoiceRet":
      return balancing(salesLines(node, "InvoiceLineRet"), ref(node.ARAccountRef))
    case "SalesReceiptRet":
      return balancing(salesLines(node, "SalesReceiptLineRet"), ref(node.DepositToAccountRef))
    case "ReceivePaymentRet": {
      const amount = centsOf(node.TotalAmount, "TotalAmount")
      return [{ account: ref(node.DepositToAccountRef), item: null, tax: false, cents: amount }, { account: ref(node.ARAccountRef), item: null, tax: false, cents: -amount }]
    }
    case "DepositRet":
      return balancing(list(node.DepositLineRet).map((line) => ({ account: ref(line.AccountRef), item: null, tax: false, cents: -centsOf(line.Amount) })), ref(node.DepositToAccountRef))
    case "BillRet":
      return balancing(purchaseLines(node), ref(node.APAccountRef))
    case "CheckRet":
      return balancing(purchaseLines(node), ref(node.AccountRef))
    case "BillPaymentCheckRet":
      return moved(ref(node.APAccountRef), ref(node.BankAccountRef), centsOf(node.Amount))
    // A credit memo: the sale undone, its total credited to receivables.
    case "CreditMemoRet":
      return balancing(reversed(salesLines(node, "CreditMemoLineRet")), ref(node.ARAccountRef))
    case "BillPaymentCreditCardRet":
      return moved(ref(node.APAccountRef), ref(node.CreditCardAccountRef), centsOf(node.Amount))
    // A vendor credit: the purchase undone, its total debited to payables.
    case "VendorCreditRet":
      return balancing(reversed(purchaseLines(node)), ref(node.APAccountRef))
    // Goods received ahead of their bill: a purchase owed to the vendor.
    case "ItemReceiptRet":
      return balancing(purchaseLines(node), ref(node.APAccountRef))
    // Card purchases and refunds: the card account (a liability) is `AccountRef`.
    case "CreditCardChargeRet":
      return balancing(purchaseLines(node), ref(node.AccountRef))
    case "CreditCardCreditRet":
      return balancing(reversed(purchaseLines(node)), ref(node.AccountRef))
    // "Pay Sales Tax": the tax collected (the sales tax payable) paid from the bank account.
    case "SalesTaxPaymentCheckRet": {
      const amount = centsOf(node.Amount)
      return [{ account: null, item: null, tax: true, cents: amount }, { account: ref(node.BankAccountRef), item: null, tax: false, cents: -amount }]
    }
    case "TransferRet":
      return moved(ref(node.TransferToAccountRef), ref(node.TransferFromAccountRef), centsOf(node.Amount))
    default:
      return null
  }
}

/** A qbXML `...Ret` element as a staged record; null for records the migration does not keep. */
export const fromQbxml = (kind: string, node: Node): Staged | null => {
  if (kind === "AccountRet") return { entity: "account", id: String(node.ListID), record: account(node) }
  if (kind === "CustomerRet" || kind === "VendorRet") {
    const record: SourceParty = {
      id: String(node.ListID),
      name: String(node.FullName ?? node.Name),
      balanceCents: centsOf(node.Balance ?? node.TotalBalance ?? "0", node.Balance === undefined ? "TotalBalance" : "Balance"),
      // qbXML's IsActive is optional and true when absent.
      active: String(node.IsActive ?? "true") !== "false",
      email: text(node.Email)
    }
    return { entity: kind === "CustomerRet" ? "customer" : "vendor", id: record.id, record }
  }
  if (kind.startsWith("Item") && node.ListID !== undefined) return { entity: "item", id: String(node.ListID), record: item(node) }
  const lines = txnLines(kind, node)
  if (lines === null || node.TxnID === undefined) return null
  return {
    entity: "txn",
    id: `${kind.replace(/Ret$/, "")}:${String(node.TxnID)}`,
    record: { id: String(node.TxnID), type: kind.replace(/Ret$/, ""), date: String(node.TxnDate), ref: text(node.RefNumber), lines }
  }
}

const openItem = (kind: SourceOpenItem["kind"], node: Node, party: unknown, account: unknown, openCents: number): SourceOpenItem => ({
  id: String(node.TxnID),
  kind,
  party: ref(party),
  account: ref(account),
  number: text(node.RefNumber),
  date: String(node.TxnDate),
  due: text(node.DueDate),
  openCents
})

/**
 * The open item of a record, or null. An invoice's `BalanceRemaining` and a bill's `OpenAmount`
 * (else, from a company file that does not give it, nothing when `IsPaid`, else `AmountDue`, the
 * bill's total) come from the open-documents steps; a credit memo's `CreditRemaining`, a vendor
 * credit's `OpenAmount`, an item receipt's total (it becomes a bill when its bill arrives, so
 * one still listed is owed as received) and a payment's `UnusedPayment` from their history steps.
 */
export const openItemOf = (kind: string, node: Node): SourceOpenItem | null => {
  if (node.TxnID === undefined) return null
  switch (kind) {
    case "InvoiceRet":
      return openItem("invoice", node, node.CustomerRef, node.ARAccountRef, centsOf(node.BalanceRemaining ?? "0", "BalanceRemaining"))
    case "BillRet": {
      const open = node.OpenAmount !== undefined
        ? centsOf(node.OpenAmount, "OpenAmount")
        : String(node.IsPaid ?? "false") === "true" ? 0 : centsOf(node.AmountDue ?? "0", "AmountDue")
      return openItem("bill", node, node.VendorRef, node.APAccountRef, open)
    }
    case "CreditMemoRet":
      return openItem("credit_memo", node, node.CustomerRef, node.ARAccountRef, centsOf(node.CreditRemaining ?? "0", "CreditRemaining"))
    case "VendorCreditRet":
      return openItem("vendor_credit", node, node.VendorRef, node.APAccountRef, centsOf(node.OpenAmount ?? "0", "OpenAmount"))
    case "ItemReceiptRet":
      return openItem("bill", node, node.VendorRef, node.APAccountRef, centsOf(node.TotalAmount ?? "0", "TotalAmount"))
    case "ReceivePaymentRet":
      return openItem("payment_received", node, node.CustomerRef, node.ARAccountRef, centsOf(node.UnusedPayment ?? "0", "UnusedPayment"))
    default:
      return null
  }
}

const openBeside = new Set(["CreditMemoRet", "VendorCreditRet", "ItemReceiptRet", "ReceivePaymentRet"])

/**
 * What one `...Ret` element stages: from an open-documents step only its open item; from any other
 * step its record (history), with the open item of a credit, an item receipt or a payment beside it.
 */
export const stagedOf = (kind: string, node: Node, openStep: boolean): Array<Staged> => {
  const staged: Array<Staged> = []
  if (!openStep) {
    const record = fromQbxml(kind, node)
    if (record !== null) staged.push(record)
  }
  const open = openStep || openBeside.has(kind) ? openItemOf(kind, node) : null
  if (open !== null && open.openCents !== 0) staged.push({ entity: "open", id: `${open.kind}:${open.id}`, record: open })
  return staged
}

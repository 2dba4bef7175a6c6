import { accountOf, accounts, type AccountKey, type CostLine, debitsAt, itemOf, items, natural, openOf, partyBalances, type SaleLine, taxRate, totalOf, type Txn } from "./model.ts"
import type { Year } from "./year.ts"

/**
 * The generated year as QuickBooks Online's v3 API holds it: the entities its query endpoint
 * answers (the JSON of Intuit's v3 XSDs), for the testkit's FakeOnlineBooks to serve. Amounts are
 * JSON numbers in dollars; ids are the service's small integers; an inactive record is
 * `Active: false` (the query language leaves it out unless asked for, as the service does).
 */

type Json = Record<string, any>
const money = (cents: number) => Number((cents / 100).toFixed(2))

const accountTypes: Record<string, string> = {
  Bank: "Bank", OtherCurrentAsset: "Other Current Asset", AccountsReceivable: "Accounts Receivable", FixedAsset: "Fixed Asset",
  AccountsPayable: "Accounts Payable", CreditCard: "Credit Card", OtherCurrentLiability: "Other Current Liability", Equity: "Equity",
  Income: "Income", CostOfGoodsSold: "Cost of Goods Sold", Expense: "Expense"
}
const classification: Record<string, string> = { Bank: "Asset", OtherCurrentAsset: "Asset", AccountsReceivable: "Asset", FixedAsset: "Asset",
  AccountsPayable: "Liability", CreditCard: "Liability", OtherCurrentLiability: "Liability", Equity: "Equity", Income: "Revenue", CostOfGoodsSold: "Expense", Expense: "Expense" }
const subTypes: Partial<Record<AccountKey, string>> = { undeposited: "UndepositedFunds", salesTax: "SalesTaxPayable", checking: "Checking", savings: "Savings", oldSavings: "Savings" }

const accountId = (key: AccountKey) => String(30 + accounts.findIndex((account) => account.key === key))
const accountRef = (key: AccountKey) => ({ value: accountId(key), name: accountOf(key).name })
const itemRef = (key: SaleLine["item"]) => ({ value: String(1 + items.findIndex((item) => item.key === key)), name: itemOf(key).name })
const partyId = (id: string) => String((id.startsWith("C") ? 100 : 200) + Number(id.slice(1)))

const saleLines = (lines: ReadonlyArray<SaleLine>): Array<Json> => [
  ...lines.map((line, index) => ({ Id: String(index + 1), LineNum: index + 1, Amount: money(line.cents), DetailType: "SalesItemLineDetail",
    SalesItemLineDetail: { ItemRef: itemRef(line.item), Qty: 1, UnitPrice: money(line.cents), TaxCodeRef: { value: "TAX" } } })),
  { Amount: money(lines.reduce((total, line) => total + line.cents, 0)), DetailType: "SubTotalLineDetail", SubTotalLineDetail: {} }
]
/** The document's sales tax as the service states it: the total, and the rate's line. */
const taxDetail = (lines: ReadonlyArray<SaleLine>, tax: number) => ({
  TxnTaxCodeRef: { value: "2" }, TotalTax: money(tax),
  TaxLine: [{ Amount: money(tax), DetailType: "TaxLineDetail", TaxLineDetail: { TaxRateRef: { value: "3" }, PercentBased: true,
    TaxPercent: taxRate.permille10 / 100, NetAmountTaxable: money(lines.reduce((total, line) => total + line.cents, 0)) } }]
})
const costLines = (lines: ReadonlyArray<CostLine>) => lines.map((line, index) => line.item === undefined
  ? { Id: String(index + 1), Amount: money(line.cents), DetailType: "AccountBasedExpenseLineDetail", AccountBasedExpenseLineDetail: { AccountRef: accountRef(line.account!) } }
  : { Id: String(index + 1), Amount: money(line.cents), DetailType: "ItemBasedExpenseLineDetail", ItemBasedExpenseLineDetail: { ItemRef: itemRef(line.item), Qty: 1, UnitPrice: money(line.cents) } })
const linked = (applied: ReadonlyArray<{ readonly txn: string; readonly cents: number }>, type: string) =>
  applied.map((item) => ({ Amount: money(item.cents), LinkedTxn: [{ TxnId: item.txn, TxnType: type }] }))
const customerRef = (id: string, year: Year) => ({ value: partyId(id), name: year.customers.find((party) => party.id === id)!.name })
const vendorRef = (id: string, year: Year) => ({ value: partyId(id), name: year.vendors.find((party) => party.id === id)!.name })

/** One transaction as its entity and JSON record. */
const render = (txn: Txn, year: Year, open: ReadonlyMap<string, number>): [string, Json] => {
  const head = { Id: txn.id, TxnDate: txn.date, ...(txn.type === "deposit" || txn.type === "transfer" || txn.type === "cardPayment" ? {} : { DocNumber: txn.number }) }
  switch (txn.type) {
    case "invoice":
      return ["Invoice", { ...head, DueDate: txn.due, CustomerRef: customerRef(txn.customer, year), Line: saleLines(txn.lines), TxnTaxDetail: taxDetail(txn.lines, txn.tax), TotalAmt: money(totalOf(txn)), Balance: money(open.get(txn.id)!) }]
    case "salesReceipt":
      return ["SalesReceipt", { ...head, CustomerRef: customerRef(txn.customer, year), Line: saleLines(txn.lines), TxnTaxDetail: taxDetail(txn.lines, txn.tax), TotalAmt: money(totalOf(txn)), Balance: 0, DepositToAccountRef: accountRef(txn.to) }]
    case "creditMemo":
      return ["CreditMemo", { ...head, CustomerRef: customerRef(txn.customer, year), Line: saleLines(txn.lines), TxnTaxDetail: taxDetail(txn.lines, txn.tax), TotalAmt: money(totalOf(txn)), RemainingCredit: money(open.get(txn.id)!), Balance: money(open.get(txn.id)!) }]
    case "payment":
      return ["Payment", { Id: txn.id, TxnDate: txn.date, CustomerRef: customerRef(txn.customer, year), TotalAmt: money(totalOf(txn)), UnappliedAmt: money(txn.unapplied), DepositToAccountRef: accountRef(txn.to), Line: linked(txn.applied, "Invoice") }]
    case "deposit":
      return ["Deposit", { ...head, DepositToAccountRef: accountRef(txn.to), TotalAmt: money(totalOf(txn)), Line: [
        ...txn.gathered.map((item) => ({ Amount: money(item.cents), LinkedTxn: [{ TxnId: item.txn, TxnType: item.kind === "payment" ? "Payment" : "SalesReceipt", TxnLineId: "0" }] })),
        ...txn.other.map((line) => ({ Amount: money(line.cents), DetailType: "DepositLineDetail", DepositLineDetail: { AccountRef: accountRef(line.account) } }))
      ] }]
    case "transfer":
    case "cardPayment":
      // Paying the card's statement from checking, as the online edition's transfer to a card account.
      return ["Transfer", { ...head, Amount: money(txn.cents), FromAccountRef: accountRef(txn.from), ToAccountRef: accountRef(txn.type === "transfer" ? txn.to : "card") }]
    case "expense":
      return ["Purchase", { ...head, PaymentType: accountOf(txn.from).kind === "CreditCard" ? "CreditCard" : "Check", AccountRef: accountRef(txn.from), Credit: txn.refund,
        ...(txn.vendor === null ? {} : { EntityRef: { ...vendorRef(txn.vendor, year), type: "Vendor" } }), TotalAmt: money(totalOf(txn)), Line: costLines(txn.lines) }]
    case "taxPayment":
      // The sales tax paid to the agency by check against the liability it was collected into.
      return ["Purchase", { ...head, PaymentType: "Check", AccountRef: accountRef(txn.from), EntityRef: { ...vendorRef(txn.vendor, year), type: "Vendor" }, TotalAmt: money(txn.cents), Line: costLines([{ account: "salesTax", cents: txn.cents }]) }]
    case "bill":
      return ["Bill", { ...head, DueDate: txn.due, VendorRef: vendorRef(txn.vendor, year), APAccountRef: accountRef("ap"), TotalAmt: money(totalOf(txn)), Balance: money(open.get(txn.id)!), Line: costLines(txn.lines) }]
    case "vendorCredit":
      return ["VendorCredit", { ...head, VendorRef: vendorRef(txn.vendor, year), APAccountRef: accountRef("ap"), TotalAmt: money(totalOf(txn)), Balance: money(open.get(txn.id)!), Line: costLines(txn.lines) }]
    case "billPayment":
      return ["BillPayment", { ...head, VendorRef: vendorRef(txn.vendor, year), APAccountRef: accountRef("ap"), TotalAmt: money(totalOf(txn)), Line: linked(txn.applied, "Bill"),
        ...(accountOf(txn.from).kind === "CreditCard" ? { PayType: "CreditCard", CreditCardPayment: { CCAccountRef: accountRef(txn.from) } } : { PayType: "Check", CheckPayment: { BankAccountRef: accountRef(txn.from) } }) }]
    case "journal":
      return ["JournalEntry", { ...head, Line: txn.lines.map((line, index) => ({ Id: String(index), Amount: money(Math.abs(line.cents)), DetailType: "JournalEntryLineDetail",
        JournalEntryLineDetail: { PostingType: line.cents > 0 ? "Debit" : "Credit", AccountRef: accountRef(line.account) } })) }]
  }
}

/** The company's entities, by the name the query language takes. */
export const onlineCompany = (year: Year): Record<string, Array<Json>> => {
  const balances = debitsAt(year.txns, "9999-12-31")
  const open = openOf(year.txns)
  const parties = partyBalances(year.txns)
  const company: Record<string, Array<Json>> = Object.fromEntries(["Invoice", "Bill", "Payment", "BillPayment", "JournalEntry", "SalesReceipt", "RefundReceipt",
    "CreditMemo", "Deposit", "Transfer", "Purchase", "VendorCredit"].map((entity) => [entity, [] as Array<Json>]))
  company.Account = accounts.map((account) => ({
    Id: accountId(account.key), Name: account.name, FullyQualifiedName: account.name, AcctNum: account.number, Active: account.inactive !== true,
    Classification: classification[account.kind], AccountType: accountTypes[account.kind], ...(subTypes[account.key] === undefined ? {} : { AccountSubType: subTypes[account.key] }),
    CurrentBalance: money(natural(account.kind) * (balances.get(account.key) ?? 0))
  }))
  const party = (id: string, name: string, email: string | null, inactive: boolean) => ({ Id: partyId(id), DisplayName: name, Active: !inactive,
    ...(email === null ? {} : { PrimaryEmailAddr: { Address: email } }), Balance: money(parties.get(id) ?? 0) })
  company.Customer = year.customers.map((customer) => party(customer.id, customer.name, customer.email, customer.inactive))
  company.Vendor = year.vendors.map((vendor) => party(vendor.id, vendor.name, vendor.email, vendor.inactive))
  company.Item = items.map((item, index) => ({ Id: String(index + 1), Name: item.name, FullyQualifiedName: item.name, Active: true, Taxable: true, Type: item.expense === null ? "Service" : "NonInventory",
    IncomeAccountRef: accountRef(item.income), ...(item.expense === null ? {} : { ExpenseAccountRef: accountRef(item.expense) }) }))
  for (const txn of year.txns) {
    const [entity, record] = render(txn, year, open)
    company[entity]!.push(record)
  }
  return company
}

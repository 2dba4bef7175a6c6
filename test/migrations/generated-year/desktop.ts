import { accountOf, accounts, type AccountKey, type CostLine, debitsAt, itemOf, type ItemKey, natural, openOf, partyBalances, type SaleLine, taxRate, totalOf, type Txn } from "./model.ts"
import type { Year } from "./year.ts"

/**
 * The generated year as the desktop edition holds it: qbXML 13 `...Ret` records (the shapes of
 * test/fixtures/qbxml/), for the migrations tests' qbXML responder (qbxml.ts) to answer as QuickBooks does
 * (inactive records only with ActiveStatus All, open invoices and bills with PaidStatus
 * NotPaidOnly, line items only with IncludeLineItems). Sales tax is paid with the desktop's own
 * "Pay Sales Tax" transaction (SalesTaxPaymentCheck), a card's statement with a check to the card.
 */

const amount = (cents: number) => `${cents < 0 ? "-" : ""}${Math.floor(Math.abs(cents) / 100)}.${String(Math.abs(cents) % 100).padStart(2, "0")}`
const listId = (index: number) => `8000${(index + 1).toString(16).toUpperCase().padStart(4, "0")}-1735689600`
const xml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
const ref = (tag: string, id: string, name: string) => `<${tag}><ListID>${id}</ListID><FullName>${xml(name)}</FullName></${tag}>`
const accountRef = (tag: string, key: AccountKey) => ref(tag, listId(accounts.findIndex((account) => account.key === key)), accountOf(key).name)
const itemIds: Record<ItemKey, string> = { services: "10000001-1735689600", products: "10000002-1735689600" }
const taxItem = ref("ItemSalesTaxRef", "10000003-1735689600", taxRate.name)
const specials: Partial<Record<AccountKey, string>> = { ar: "AccountsReceivable", ap: "AccountsPayable", salesTax: "SalesTaxPayable", undeposited: "UndepositedFunds" }
const partyListId = (id: string) => `${id.startsWith("C") ? "2" : "3"}000${id.slice(1).padStart(4, "0")}-1735689600`

const saleLines = (tag: string, lines: ReadonlyArray<SaleLine>) => lines.map((line, index) =>
  `<${tag}><TxnLineID>${index + 1}</TxnLineID>${ref("ItemRef", itemIds[line.item], itemOf(line.item).name)}<Quantity>1</Quantity><Rate>${amount(line.cents)}</Rate><Amount>${amount(line.cents)}</Amount></${tag}>`).join("")
const sale = (lines: ReadonlyArray<SaleLine>, tax: number) =>
  `<Subtotal>${amount(lines.reduce((total, line) => total + line.cents, 0))}</Subtotal>${taxItem}<SalesTaxPercentage>${taxRate.permille10 / 100}</SalesTaxPercentage><SalesTaxTotal>${amount(tax)}</SalesTaxTotal>`
const costLines = (lines: ReadonlyArray<CostLine>) => lines.map((line, index) => line.item === undefined
  ? `<ExpenseLineRet><TxnLineID>${index + 1}</TxnLineID>${accountRef("AccountRef", line.account!)}<Amount>${amount(line.cents)}</Amount></ExpenseLineRet>`
  : `<ItemLineRet><TxnLineID>${index + 1}</TxnLineID>${ref("ItemRef", itemIds[line.item], itemOf(line.item).name)}<Quantity>1</Quantity><Cost>${amount(line.cents)}</Cost><Amount>${amount(line.cents)}</Amount></ItemLineRet>`).join("")
const appliedTo = (applied: ReadonlyArray<{ readonly txn: string; readonly cents: number }>) =>
  applied.map((item) => `<AppliedToTxnRet><TxnID>T-${item.txn}</TxnID><Amount>${amount(item.cents)}</Amount></AppliedToTxnRet>`).join("")

/** One transaction as the entity its query names and its `...Ret` record. */
const render = (txn: Txn, year: Year, open: ReadonlyMap<string, number>): [string, string] => {
  const customer = (id: string) => ref("CustomerRef", partyListId(id), year.customers.find((party) => party.id === id)!.name)
  const vendor = (tag: string, id: string) => ref(tag, partyListId(id), year.vendors.find((party) => party.id === id)!.name)
  const head = `<TxnID>T-${txn.id}</TxnID><TxnDate>${txn.date}</TxnDate><RefNumber>${txn.number}</RefNumber>`
  const left = open.get(txn.id) ?? 0
  switch (txn.type) {
    case "invoice":
      return ["Invoice", `<InvoiceRet>${head}${customer(txn.customer)}${accountRef("ARAccountRef", "ar")}<DueDate>${txn.due}</DueDate>${sale(txn.lines, txn.tax)}
        <AppliedAmount>${amount(left - totalOf(txn))}</AppliedAmount><BalanceRemaining>${amount(left)}</BalanceRemaining><IsPaid>${left === 0}</IsPaid>${saleLines("InvoiceLineRet", txn.lines)}</InvoiceRet>`]
    case "salesReceipt":
      return ["SalesReceipt", `<SalesReceiptRet>${head}${customer(txn.customer)}${sale(txn.lines, txn.tax)}<TotalAmount>${amount(totalOf(txn))}</TotalAmount>${accountRef("DepositToAccountRef", txn.to)}${saleLines("SalesReceiptLineRet", txn.lines)}</SalesReceiptRet>`]
    case "creditMemo":
      return ["CreditMemo", `<CreditMemoRet>${head}${customer(txn.customer)}${accountRef("ARAccountRef", "ar")}${sale(txn.lines, txn.tax)}<TotalAmount>${amount(totalOf(txn))}</TotalAmount><CreditRemaining>${amount(left)}</CreditRemaining>${saleLines("CreditMemoLineRet", txn.lines)}</CreditMemoRet>`]
    case "payment":
      return ["ReceivePayment", `<ReceivePaymentRet>${head}${customer(txn.customer)}${accountRef("ARAccountRef", "ar")}<TotalAmount>${amount(totalOf(txn))}</TotalAmount>${accountRef("DepositToAccountRef", txn.to)}
        <UnusedPayment>${amount(txn.unapplied)}</UnusedPayment><UnusedCredits>0.00</UnusedCredits>${appliedTo(txn.applied.map((item) => ({ ...item })))}</ReceivePaymentRet>`]
    case "deposit":
      return ["Deposit", `<DepositRet>${head}${accountRef("DepositToAccountRef", txn.to)}<DepositTotal>${amount(totalOf(txn))}</DepositTotal>${[
        ...txn.gathered.map((item, index) => `<DepositLineRet><TxnType>${item.kind === "payment" ? "ReceivePayment" : "SalesReceipt"}</TxnType><TxnID>T-${item.txn}</TxnID><TxnLineID>${index + 1}</TxnLineID>${accountRef("AccountRef", "undeposited")}<Amount>${amount(item.cents)}</Amount></DepositLineRet>`),
        ...txn.other.map((line) => `<DepositLineRet>${accountRef("AccountRef", line.account)}<Memo>Owner contribution</Memo><Amount>${amount(line.cents)}</Amount></DepositLineRet>`)
      ].join("")}</DepositRet>`]
    case "transfer":
      return ["Transfer", `<TransferRet>${head}${accountRef("TransferFromAccountRef", txn.from)}${accountRef("TransferToAccountRef", txn.to)}<Amount>${amount(txn.cents)}</Amount></TransferRet>`]
    case "cardPayment":
      return ["Check", `<CheckRet>${head}${accountRef("AccountRef", txn.from)}<Amount>${amount(txn.cents)}</Amount>${costLines([{ account: "card", cents: txn.cents }])}</CheckRet>`]
    case "expense": {
      const payee = txn.vendor === null ? "" : vendor("PayeeEntityRef", txn.vendor)
      if (accountOf(txn.from).kind !== "CreditCard") return ["Check", `<CheckRet>${head}${accountRef("AccountRef", txn.from)}${payee}<Amount>${amount(totalOf(txn))}</Amount>${costLines(txn.lines)}</CheckRet>`]
      const kind = txn.refund ? "CreditCardCredit" : "CreditCardCharge"
      return [kind, `<${kind}Ret>${head}${accountRef("AccountRef", txn.from)}${payee}<Amount>${amount(totalOf(txn))}</Amount>${costLines(txn.lines)}</${kind}Ret>`]
    }
    case "taxPayment":
      return ["SalesTaxPaymentCheck", `<SalesTaxPaymentCheckRet>${head}${vendor("PayeeEntityRef", txn.vendor)}${accountRef("BankAccountRef", txn.from)}<Amount>${amount(txn.cents)}</Amount>
        <SalesTaxPaymentCheckLineRet><TxnLineID>1</TxnLineID>${taxItem}<Amount>${amount(txn.cents)}</Amount></SalesTaxPaymentCheckLineRet></SalesTaxPaymentCheckRet>`]
    case "bill":
      return ["Bill", `<BillRet>${head}${vendor("VendorRef", txn.vendor)}${accountRef("APAccountRef", "ap")}<DueDate>${txn.due}</DueDate><AmountDue>${amount(totalOf(txn))}</AmountDue>
        <IsPaid>${left === 0}</IsPaid>${costLines(txn.lines)}<OpenAmount>${amount(left)}</OpenAmount></BillRet>`]
    case "vendorCredit":
      return ["VendorCredit", `<VendorCreditRet>${head}${vendor("VendorRef", txn.vendor)}${accountRef("APAccountRef", "ap")}<CreditAmount>${amount(totalOf(txn))}</CreditAmount>${costLines(txn.lines)}<OpenAmount>${amount(left)}</OpenAmount></VendorCreditRet>`]
    case "billPayment": {
      const card = accountOf(txn.from).kind === "CreditCard"
      const kind = card ? "BillPaymentCreditCard" : "BillPaymentCheck"
      return [kind, `<${kind}Ret>${head}${vendor("PayeeEntityRef", txn.vendor)}${accountRef("APAccountRef", "ap")}${accountRef(card ? "CreditCardAccountRef" : "BankAccountRef", txn.from)}<Amount>${amount(totalOf(txn))}</Amount>${appliedTo(txn.applied)}</${kind}Ret>`]
    }
    case "journal":
      return ["JournalEntry", `<JournalEntryRet>${head}${txn.lines.map((line, index) => {
        const tag = line.cents > 0 ? "JournalDebitLine" : "JournalCreditLine"
        return `<${tag}><TxnLineID>${index + 1}</TxnLineID>${accountRef("AccountRef", line.account)}<Amount>${amount(Math.abs(line.cents))}</Amount></${tag}>`
      }).join("")}</JournalEntryRet>`]
  }
}

/** The lists as qbXML answers them: accounts with balances, customers and vendors with theirs, items. */
const lists = (year: Year) => {
  const balances = debitsAt(year.txns, "9999-12-31")
  const parties = partyBalances(year.txns)
  const party = (tag: string, id: string, name: string, email: string | null, inactive: boolean) =>
    `<${tag}><ListID>${partyListId(id)}</ListID><Name>${xml(name)}</Name><FullName>${xml(name)}</FullName><IsActive>${!inactive}</IsActive>${email === null ? "" : `<Email>${email}</Email>`}<Balance>${amount(parties.get(id) ?? 0)}</Balance><TotalBalance>${amount(parties.get(id) ?? 0)}</TotalBalance></${tag}>`
  return {
    Account: accounts.map((account, index) => `<AccountRet><ListID>${listId(index)}</ListID><Name>${xml(account.name)}</Name><FullName>${xml(account.name)}</FullName><IsActive>${account.inactive !== true}</IsActive>
      <AccountType>${account.kind}</AccountType>${specials[account.key] === undefined ? "" : `<SpecialAccountType>${specials[account.key]}</SpecialAccountType>`}<AccountNumber>${account.number}</AccountNumber>
      <Balance>${amount(natural(account.kind) * (balances.get(account.key) ?? 0))}</Balance><TotalBalance>${amount(natural(account.kind) * (balances.get(account.key) ?? 0))}</TotalBalance></AccountRet>`),
    Customer: year.customers.map((customer) => party("CustomerRet", customer.id, customer.name, customer.email, customer.inactive)),
    Vendor: year.vendors.map((vendor) => party("VendorRet", vendor.id, vendor.name, vendor.email, vendor.inactive)),
    Item: [
      `<ItemServiceRet><ListID>${itemIds.services}</ListID><Name>${itemOf("services").name}</Name><FullName>${itemOf("services").name}</FullName><IsActive>true</IsActive><SalesOrPurchase><Price>100.00</Price>${accountRef("AccountRef", "services")}</SalesOrPurchase></ItemServiceRet>`,
      `<ItemNonInventoryRet><ListID>${itemIds.products}</ListID><Name>${itemOf("products").name}</Name><FullName>${itemOf("products").name}</FullName><IsActive>true</IsActive><SalesAndPurchase><SalesPrice>25.00</SalesPrice>${accountRef("IncomeAccountRef", "products")}<PurchaseCost>10.00</PurchaseCost>${accountRef("ExpenseAccountRef", "materials")}</SalesAndPurchase></ItemNonInventoryRet>`,
      `<ItemSalesTaxRet><ListID>10000003-1735689600</ListID><Name>${taxRate.name}</Name><IsActive>true</IsActive><TaxRate>${taxRate.permille10 / 100}</TaxRate>${ref("TaxVendorRef", partyListId("V5"), "State Department of Revenue")}</ItemSalesTaxRet>`
    ]
  }
}

/** The company file: its records by the entity each query names. */
export const desktopCompany = (year: Year) => {
  const open = openOf(year.txns)
  const records: Record<string, Array<string>> = { ...lists(year), JournalEntry: [], Invoice: [], SalesReceipt: [], ReceivePayment: [], Deposit: [], Bill: [], BillPaymentCheck: [],
    Check: [], CreditMemo: [], BillPaymentCreditCard: [], VendorCredit: [], ItemReceipt: [], CreditCardCharge: [], CreditCardCredit: [], Transfer: [], SalesTaxPaymentCheck: [] }
  for (const txn of year.txns) {
    const [entity, record] = render(txn, year, open)
    records[entity]!.push(record)
  }
  return records
}

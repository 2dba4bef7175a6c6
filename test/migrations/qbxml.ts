/**
 * A generated desktop-edition company answering qbXML requests the way the desktop edition does
 * (the shapes of the real responses in test/fixtures/qbxml/): accounts with balances, customers and
 * vendors with open balances, items, and three months of journal entries, invoices with sales tax,
 * payments, bills and bill payments by check and by card, credit memos, vendor credits, item
 * receipts, card charges and credits, and transfers. Iterators page by MaxReturned and answer iteratorID and
 * iteratorRemainingCount.
 */

const amount = (cents: number) => `${cents < 0 ? "-" : ""}${Math.floor(Math.abs(cents) / 100)}.${String(Math.abs(cents) % 100).padStart(2, "0")}`
const ref = (tag: string, id: string, name: string) => `<${tag}><ListID>${id}</ListID><FullName>${name}</FullName></${tag}>`

interface Account { id: string; name: string; number: string; type: string; special?: string; balance: number; natural: 1 | -1; inactive?: boolean }

type Party = { id: string; name: string; balance: number; inactive?: boolean }
type Post = (key: string, debit: number) => void

/** 30 days after a date: the generated company's terms. */
const due = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 30 * 86_400_000).toISOString().slice(0, 10)

/**
 * An invoice with sales tax, and what was received for it (all, part or nothing): its
 * `BalanceRemaining` and `IsPaid` are what is left after the payment, as QuickBooks keeps them.
 */
const sale = (accounts: Record<string, Account>, post: Post, txns: Record<string, Array<string>>, customer: Party, id: number, date: string, paid: (total: number) => number) => {
  const net = 10_000 + (id * 1_237) % 40_000
  const tax = Math.round(net * 0.0625)
  const received = paid(net + tax)
  txns.Invoice!.push(`<InvoiceRet><TxnID>I-${id}</TxnID>${ref("CustomerRef", customer.id, customer.name)}${ref("ARAccountRef", accounts.ar!.id, "Accounts Receivable")}
    <TxnDate>${date}</TxnDate><RefNumber>${1000 + id}</RefNumber><DueDate>${due(date)}</DueDate><Subtotal>${amount(net)}</Subtotal><SalesTaxPercentage>6.25</SalesTaxPercentage>
    <SalesTaxTotal>${amount(tax)}</SalesTaxTotal><AppliedAmount>${amount(-received)}</AppliedAmount><BalanceRemaining>${amount(net + tax - received)}</BalanceRemaining>
    <IsPaid>${received === net + tax}</IsPaid><InvoiceLineRet><TxnLineID>1</TxnLineID>${ref("ItemRef", "I1-1", "Consulting")}<Quantity>1</Quantity><Amount>${amount(net)}</Amount></InvoiceLineRet></InvoiceRet>`)
  post("ar", net + tax)
  post("sales", -net)
  post("tax", -tax)
  customer.balance += net + tax
  if (received > 0) {
    // Now and then a customer pays 10.00 more than the invoice: QuickBooks keeps it as UnusedPayment, the customer's credit.
    const unused = id % 8 === 5 ? 1_000 : 0
    txns.ReceivePayment!.push(`<ReceivePaymentRet><TxnID>P-${id}</TxnID><TxnDate>${date}</TxnDate>${ref("CustomerRef", customer.id, customer.name)}
      ${ref("ARAccountRef", accounts.ar!.id, "Accounts Receivable")}<RefNumber>CHK-${id}</RefNumber><TotalAmount>${amount(received + unused)}</TotalAmount>
      ${ref("DepositToAccountRef", accounts.bank!.id, "Checking")}<UnusedPayment>${amount(unused)}</UnusedPayment><UnusedCredits>0.00</UnusedCredits>
      <AppliedToTxnRet><TxnID>I-${id}</TxnID><Amount>${amount(received)}</Amount></AppliedToTxnRet></ReceivePaymentRet>`)
    post("bank", received + unused)
    post("ar", -(received + unused))
    customer.balance -= received + unused
  }
}

/**
 * A bill, then paid by card, by check, in part by check, or not at all: `AmountDue` is the bill's
 * total, `OpenAmount` what is left, `IsPaid` whether nothing is (qbXML 13's BillRet).
 */
const purchase = (accounts: Record<string, Account>, post: Post, txns: Record<string, Array<string>>, vendor: Party, id: number, date: string, net: number) => {
  const cost = Math.floor(net / 4)
  const byCard = id % 4 === 1 ? cost : 0
  const byCheck = id % 2 === 0 ? cost : id % 12 === 3 ? Math.floor(cost / 3) : 0
  const open = cost - byCard - byCheck
  txns.Bill!.push(`<BillRet><TxnID>B-${id}</TxnID>${ref("VendorRef", vendor.id, vendor.name)}${ref("APAccountRef", accounts.ap!.id, "Accounts Payable")}
    <TxnDate>${date}</TxnDate><DueDate>${due(date)}</DueDate><AmountDue>${amount(cost)}</AmountDue><RefNumber>PS-${id}</RefNumber><IsPaid>${open === 0}</IsPaid>
    <ExpenseLineRet><TxnLineID>1</TxnLineID>${ref("AccountRef", accounts.supplies!.id, "Supplies")}<Amount>${amount(cost)}</Amount></ExpenseLineRet><OpenAmount>${amount(open)}</OpenAmount></BillRet>`)
  post("supplies", cost)
  post("ap", -cost)
  vendor.balance += cost
  if (byCard > 0) {
    txns.BillPaymentCreditCard!.push(`<BillPaymentCreditCardRet><TxnID>BC-${id}</TxnID><TxnDate>${date}</TxnDate>${ref("PayeeEntityRef", vendor.id, vendor.name)}
      ${ref("APAccountRef", accounts.ap!.id, "Accounts Payable")}${ref("CreditCardAccountRef", accounts.card!.id, "Business Card")}<Amount>${amount(byCard)}</Amount>
      <AppliedToTxnRet><TxnID>B-${id}</TxnID><Amount>${amount(byCard)}</Amount></AppliedToTxnRet></BillPaymentCreditCardRet>`)
    post("ap", byCard)
    post("card", -byCard)
    vendor.balance -= byCard
  }
  return () => {
    if (byCheck === 0) return
    txns.BillPaymentCheck!.push(`<BillPaymentCheckRet><TxnID>BP-${id}</TxnID><TxnDate>${date}</TxnDate>${ref("PayeeEntityRef", vendor.id, vendor.name)}
      ${ref("APAccountRef", accounts.ap!.id, "Accounts Payable")}${ref("BankAccountRef", accounts.bank!.id, "Checking")}<Amount>${amount(byCheck)}</Amount>
      <AppliedToTxnRet><TxnID>B-${id}</TxnID><Amount>${amount(byCheck)}</Amount></AppliedToTxnRet></BillPaymentCheckRet>`)
    post("ap", byCheck)
    post("bank", -byCheck)
    vendor.balance -= byCheck
  }
}

/**
 * Three months of invoices with sales tax (a third left open, some of them half paid), payments,
 * bills (some open, one in three of those paid in part) and bill payments; `post` keeps the balances.
 */
const business = (accounts: Record<string, Account>, post: Post, customers: Array<Party>, vendors: Array<Party>, txns: Record<string, Array<string>>, perMonth: number) => {
  let sequence = 0
  for (const month of ["01", "02", "03"]) {
    for (let n = 0; n < perMonth; n++) {
      const id = ++sequence
      const date = `2026-${month}-${String(2 + n).padStart(2, "0")}`
      const customer = customers[id % customers.length]!
      sale(accounts, post, txns, customer, id, date, (total) => id % 3 !== 0 ? total : id % 6 === 0 ? Math.floor(total / 2) : 0)
      const payByCheck = purchase(accounts, post, txns, vendors[0]!, id, date, 10_000 + (id * 1_237) % 40_000)
      otherTransactions(accounts, post, customer, vendors[0]!, txns, id, date)
      payByCheck()
    }
  }
}

const expenseLine = (accounts: Record<string, Account>, cents: number) =>
  `<ExpenseLineRet><TxnLineID>1</TxnLineID>${ref("AccountRef", accounts.supplies!.id, "Supplies")}<Amount>${amount(cents)}</Amount></ExpenseLineRet>`

/** Credit memos, vendor credits, item receipts, card charges and credits, and transfers, now and then. */
const otherTransactions = (
  accounts: Record<string, Account>,
  post: Post,
  customer: Party,
  vendor: Party,
  txns: Record<string, Array<string>>,
  id: number,
  date: string
) => {
  if (id % 4 === 0) {
    const net = 1_000 + (id * 7) % 3_000
    const tax = Math.round(net * 0.0625)
    txns.CreditMemo!.push(`<CreditMemoRet><TxnID>CM-${id}</TxnID><TxnDate>${date}</TxnDate><RefNumber>CM${id}</RefNumber>${ref("CustomerRef", customer.id, customer.name)}
      ${ref("ARAccountRef", accounts.ar!.id, "Accounts Receivable")}<Subtotal>${amount(net)}</Subtotal><SalesTaxTotal>${amount(tax)}</SalesTaxTotal>
      <TotalAmount>${amount(net + tax)}</TotalAmount><CreditRemaining>${amount(net + tax)}</CreditRemaining>
      <CreditMemoLineRet><TxnLineID>1</TxnLineID>${ref("ItemRef", "I1-1", "Consulting")}<Quantity>1</Quantity><Amount>${amount(net)}</Amount></CreditMemoLineRet></CreditMemoRet>`)
    post("sales", net)
    post("tax", tax)
    post("ar", -(net + tax))
    customer.balance -= net + tax
  }
  if (id % 3 === 1) {
    const charge = 2_000 + (id * 13) % 5_000
    txns.CreditCardCharge!.push(`<CreditCardChargeRet><TxnID>CC-${id}</TxnID><TxnDate>${date}</TxnDate>${ref("AccountRef", accounts.card!.id, "Business Card")}
      <Amount>${amount(charge)}</Amount>${expenseLine(accounts, charge)}</CreditCardChargeRet>`)
    post("supplies", charge)
    post("card", -charge)
  }
  if (id % 6 === 1) {
    const refund = 500 + id
    txns.CreditCardCredit!.push(`<CreditCardCreditRet><TxnID>CR-${id}</TxnID><TxnDate>${date}</TxnDate>${ref("AccountRef", accounts.card!.id, "Business Card")}
      <Amount>${amount(refund)}</Amount>${expenseLine(accounts, refund)}</CreditCardCreditRet>`)
    post("supplies", -refund)
    post("card", refund)
  }
  if (id % 5 === 2) {
    const credit = 700 + id * 3
    txns.VendorCredit!.push(`<VendorCreditRet><TxnID>VC-${id}</TxnID><TxnDate>${date}</TxnDate>${ref("VendorRef", vendor.id, vendor.name)}
      ${ref("APAccountRef", accounts.ap!.id, "Accounts Payable")}<CreditAmount>${amount(credit)}</CreditAmount>${expenseLine(accounts, credit)}<OpenAmount>${amount(credit)}</OpenAmount></VendorCreditRet>`)
    post("supplies", -credit)
    post("ap", credit)
    vendor.balance -= credit
  }
  if (id % 5 === 3) {
    const received = 1_500 + id * 11
    txns.ItemReceipt!.push(`<ItemReceiptRet><TxnID>IR-${id}</TxnID><TxnDate>${date}</TxnDate>${ref("VendorRef", vendor.id, vendor.name)}
      ${ref("APAccountRef", accounts.ap!.id, "Accounts Payable")}<TotalAmount>${amount(received)}</TotalAmount>${expenseLine(accounts, received)}</ItemReceiptRet>`)
    post("supplies", received)
    post("ap", -received)
    vendor.balance += received
  }
  if (id % 7 === 0) {
    txns.Transfer!.push(`<TransferRet><TxnID>T-${id}</TxnID><TxnDate>${date}</TxnDate>${ref("TransferFromAccountRef", accounts.bank!.id, "Checking")}
      ${ref("TransferToAccountRef", accounts.savings!.id, "Savings")}<Amount>100.00</Amount></TransferRet>`)
    post("savings", 10_000)
    post("bank", -10_000)
  }
}

const cents = (text: string) =>
  (text.startsWith("-") ? -1 : 1) * text.replace(/^-/, "").split(".").reduce((sum, part, index) => index === 0 ? Number(part) * 100 : sum + Number(part.padEnd(2, "0")), 0)

// What each query takes, in the order qbXML 13 requires (qbxmlops130: the filters used here).
const listFilters = ["MaxReturned", "ActiveStatus"]
const txnFilters = ["MaxReturned", "TxnDateRangeFilter", "PaidStatus", "IncludeLineItems"]
const lists = new Set(["Account", "Customer", "Vendor", "Item"])
const paidStatus = new Set(["Invoice", "Bill"])
const noLineItems = new Set(["Transfer"])

/** The top-level elements of a query, in order. */
const children = (body: string): Array<string> => {
  const names: Array<string> = []
  let depth = 0
  for (const tag of body.matchAll(/<(\/?)(\w+)[^>]*?(\/?)>/g)) {
    if (tag[1] === "/") depth--
    else if (tag[3] !== "/") { if (depth++ === 0) names.push(tag[2]!) }
    else if (depth === 0) names.push(tag[2]!)
  }
  return names
}

/**
 * Refuses what QuickBooks refuses: an element the query does not take (PaidStatus on a query
 * other than invoices and bills, ActiveStatus on a transaction query) or one out of the schema's
 * order. QuickBooks then answers no qbXML at all; the Web Connector reports the parse error.
 */
const refusal = (entity: string, body: string): string | null => {
  const order = lists.has(entity) ? listFilters : txnFilters
  const names = children(body)
  const misplaced = names.find((name, index) => !order.includes(name) || (name === "PaidStatus" && !paidStatus.has(entity)) ||
    (name === "IncludeLineItems" && noLineItems.has(entity)) || (index > 0 && order.indexOf(name) < order.indexOf(names[index - 1]!)))
  return misplaced === undefined ? null : `0x80040400: QuickBooks found an error when parsing the provided XML text stream (${entity}QueryRq: ${misplaced}).`
}

/** Answers qbXML query documents from the company's records, paging iterators by MaxReturned. */
export const responder = (records: () => Record<string, Array<string>>) => {
  const iterators = new Map<string, { entity: string; offset: number }>()
  let iteratorCount = 0
  /** Answers one qbXML request document. `alter` may change the records before they go out. */
  return (request: string, alter: (entity: string, records: Array<string>) => Array<string> = (_e, records) => records): string => {
    const match = /<(\w+)QueryRq requestID="([^"]*)"(?: iterator="(\w+)")?(?: iteratorID="([^"]*)")?>([\s\S]*)<\/\1QueryRq>/.exec(request)
    if (match === null) throw new Error(`unexpected request ${request}`)
    const [, entity, requestId, iterator, iteratorId, body] = match as unknown as [string, string, string, string | undefined, string | undefined, string]
    const refused = refusal(entity, body)
    if (refused !== null) throw new Error(refused)
    // As QuickBooks does: a list query without <ActiveStatus> answers active records only, an
    // invoice or bill query answers paid and unpaid ones unless PaidStatus says, and a transaction
    // query leaves out line items unless IncludeLineItems is true.
    const activeStatus = /<ActiveStatus>(\w+)<\/ActiveStatus>/.exec(body)?.[1] ?? "ActiveOnly"
    const paid = /<PaidStatus>(\w+)<\/PaidStatus>/.exec(body)?.[1] ?? "All"
    const withLines = /<IncludeLineItems>true<\/IncludeLineItems>/.test(body)
    const listed = (records()[entity] ?? []).filter((record) => {
      const inactive = record.includes("<IsActive>false</IsActive>")
      const unpaid = record.includes("<IsPaid>false</IsPaid>")
      return (activeStatus === "All" || (activeStatus === "InactiveOnly" ? inactive : !inactive)) &&
        (paid === "All" || (paid === "NotPaidOnly" ? unpaid : !unpaid))
    }).map((record) => lists.has(entity) || withLines ? record : record.replace(/<(\w+Line(?:Ret)?)>[\s\S]*?<\/\1>/g, ""))
    const all = alter(entity, listed)
    const max = Number(/<MaxReturned>(\d+)<\/MaxReturned>/.exec(body)?.[1] ?? all.length)
    let offset = 0
    let id = iteratorId ?? ""
    if (iterator === "Start") id = `{iterator-${++iteratorCount}}`
    if (iterator === "Continue") offset = iterators.get(iteratorId!)!.offset
    const page = iterator === undefined ? all : all.slice(offset, offset + max)
    const remaining = iterator === undefined ? 0 : all.length - offset - page.length
    if (iterator !== undefined) iterators.set(id, { entity, offset: offset + page.length })
    const status = page.length === 0 ? `statusCode="1" statusSeverity="Info" statusMessage="A query request did not find a matching object in QuickBooks"` : `statusCode="0" statusSeverity="Info" statusMessage="Status OK"`
    const attributes = iterator === undefined ? "" : ` iteratorRemainingCount="${remaining}" iteratorID="${id}"`
    return `<?xml version="1.0" ?><QBXML><QBXMLMsgsRs><${entity}QueryRs requestID="${requestId}" ${status}${attributes}>${page.join("")}</${entity}QueryRs></QBXMLMsgsRs></QBXML>`
  }
}

export const makeCompany = (options: { readonly customers?: number; readonly perMonth?: number } = {}) => {
  const accounts: Record<string, Account> = {
    bank: { id: "80000001-1", name: "Checking", number: "1010", type: "Bank", balance: 0, natural: 1 },
    ar: { id: "80000002-1", name: "Accounts Receivable", number: "1100", type: "AccountsReceivable", balance: 0, natural: 1 },
    ap: { id: "80000003-1", name: "Accounts Payable", number: "2000", type: "AccountsPayable", balance: 0, natural: -1 },
    tax: { id: "80000004-1", name: "Sales Tax Payable", number: "2200", type: "OtherCurrentLiability", special: "SalesTaxPayable", balance: 0, natural: -1 },
    equity: { id: "80000005-1", name: "Owner Equity", number: "3000", type: "Equity", balance: 0, natural: -1 },
    sales: { id: "80000006-1", name: "Consulting Income", number: "4000", type: "Income", balance: 0, natural: -1 },
    supplies: { id: "80000007-1", name: "Supplies", number: "6000", type: "Expense", balance: 0, natural: 1 },
    card: { id: "80000008-1", name: "Business Card", number: "2100", type: "CreditCard", balance: 0, natural: -1 },
    savings: { id: "80000009-1", name: "Savings", number: "1020", type: "Bank", balance: 0, natural: 1 },
    // Made inactive after its January purchase: qbXML lists it only when asked for ActiveStatus All.
    equipment: { id: "8000000A-1", name: "Old Equipment", number: "1500", type: "FixedAsset", balance: 0, natural: 1, inactive: true }
  }
  const post = (key: string, debit: number) => { accounts[key]!.balance += accounts[key]!.natural * debit }
  const customers: Array<Party> = Array.from({ length: options.customers ?? 150 }, (_, index) => ({ id: `C${index + 1}-1`, name: `Customer ${index + 1}`, balance: 0 }))
  const vendors: Array<Party> = [{ id: "V1-1", name: "Paper Supply", balance: 0 }]
  const txns: Record<string, Array<string>> = { JournalEntry: [], Invoice: [], ReceivePayment: [], Bill: [], BillPaymentCheck: [], SalesReceipt: [], Deposit: [], Check: [],
    CreditMemo: [], BillPaymentCreditCard: [], VendorCredit: [], ItemReceipt: [], CreditCardCharge: [], CreditCardCredit: [], Transfer: [] }
  txns.JournalEntry!.push(`<JournalEntryRet><TxnID>J-1</TxnID><TxnDate>2026-01-01</TxnDate><RefNumber>OB</RefNumber>
    <JournalDebitLine><TxnLineID>1</TxnLineID>${ref("AccountRef", accounts.bank!.id, "Checking")}<Amount>5000.00</Amount></JournalDebitLine>
    <JournalCreditLine><TxnLineID>2</TxnLineID>${ref("AccountRef", accounts.equity!.id, "Owner Equity")}<Amount>5000.00</Amount></JournalCreditLine></JournalEntryRet>`)
  post("bank", 500_000)
  post("equity", -500_000)
  txns.JournalEntry!.push(`<JournalEntryRet><TxnID>J-2</TxnID><TxnDate>2026-01-02</TxnDate><RefNumber>EQ</RefNumber>
    <JournalDebitLine><TxnLineID>1</TxnLineID>${ref("AccountRef", accounts.equipment!.id, "Old Equipment")}<Amount>250.00</Amount></JournalDebitLine>
    <JournalCreditLine><TxnLineID>2</TxnLineID>${ref("AccountRef", accounts.bank!.id, "Checking")}<Amount>250.00</Amount></JournalCreditLine></JournalEntryRet>`)
  post("equipment", 25_000)
  post("bank", -25_000)
  // A customer made inactive after its paid January invoice: qbXML lists it only when asked for ActiveStatus All.
  customers[0]!.inactive = true
  sale(accounts, post, txns, customers[0]!, 0, "2026-01-05", (total) => total)
  business(accounts, post, customers, vendors, txns, options.perMonth ?? 8)
  const respond = responder(() => ({
    Account: Object.values(accounts).map((account) => `<AccountRet><ListID>${account.id}</ListID><Name>${account.name}</Name><FullName>${account.name}</FullName>
      <IsActive>${account.inactive !== true}</IsActive><AccountType>${account.type}</AccountType>${account.special === undefined ? "" : `<SpecialAccountType>${account.special}</SpecialAccountType>`}
      <AccountNumber>${account.number}</AccountNumber><Balance>${amount(account.balance)}</Balance><TotalBalance>${amount(account.balance)}</TotalBalance></AccountRet>`),
    Customer: customers.map((customer, index) => `<CustomerRet><ListID>${customer.id}</ListID><Name>${customer.name}</Name><FullName>${customer.name}</FullName>
      <IsActive>${customer.inactive !== true}</IsActive>${index === 1 ? "<Email>ap@customer-2.example; owner@customer-2.example</Email>" : ""}
      <Balance>${amount(customer.balance)}</Balance><TotalBalance>${amount(customer.balance)}</TotalBalance></CustomerRet>`),
    Vendor: vendors.map((vendor) => `<VendorRet><ListID>${vendor.id}</ListID><Name>${vendor.name}</Name><IsActive>true</IsActive><Balance>${amount(vendor.balance)}</Balance></VendorRet>`),
    Item: [`<ItemServiceRet><ListID>I1-1</ListID><Name>Consulting</Name><FullName>Consulting</FullName><SalesOrPurchase><Price>100.00</Price>${ref("AccountRef", accounts.sales!.id, "Consulting Income")}</SalesOrPurchase></ItemServiceRet>`,
      `<ItemSalesTaxRet><ListID>T1-1</ListID><Name>State</Name><TaxRate>6.25</TaxRate></ItemSalesTaxRet>`],
    ...txns
  }))
  const sum = (records: ReadonlyArray<string>, tag: string) => records.reduce((total, record) => total + cents(new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(record)?.[1] ?? "0"), 0)
  /** The open documents as QuickBooks' aging reports show them: invoices and bills still owed, credits still to use, item receipts not yet billed. */
  const open = {
    invoices: sum(txns.Invoice!, "BalanceRemaining"),
    creditMemos: sum(txns.CreditMemo!, "CreditRemaining"),
    bills: sum(txns.Bill!, "OpenAmount") + sum(txns.ItemReceipt!, "TotalAmount"),
    vendorCredits: sum(txns.VendorCredit!, "OpenAmount"),
    unusedPayments: sum(txns.ReceivePayment!, "UnusedPayment"),
    documents: [...txns.Invoice!, ...txns.Bill!].filter((record) => record.includes("<IsPaid>false</IsPaid>")).length +
      txns.CreditMemo!.length + txns.VendorCredit!.length + txns.ItemReceipt!.length +
      txns.ReceivePayment!.filter((record) => !record.includes("<UnusedPayment>0.00</UnusedPayment>")).length
  }
  return { respond, accounts, customers, vendors, open, transactions: Object.values(txns).reduce((sum, list) => sum + list.length, 0) }
}

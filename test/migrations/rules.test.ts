import { readFileSync } from "node:fs"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { migratedAccountCodes as codesFor, MigrationStaging as Staging, OnlineMigrationRules, Qbxml, TieoutRules, webConnectorUrls as connectorUrls } from "@ledger/engine/rules"

describe("qbXML and tie-out rules", () => {
  it("reads amounts into exact integer cents", () => {
    expect(Qbxml.centsOf("-197.02")).toBe(-19_702)
    expect(Qbxml.centsOf("951.65")).toBe(95_165)
    expect(Qbxml.centsOf("1,234.5")).toBe(123_450)
    expect(Qbxml.centsOf("0.10")).toBe(10)
    fc.assert(fc.property(fc.integer({ min: -1e12, max: 1e12 }), (cents) => {
      const text = `${cents < 0 ? "-" : ""}${Math.floor(Math.abs(cents) / 100)}.${String(Math.abs(cents) % 100).padStart(2, "0")}`
      expect(Qbxml.centsOf(text)).toBe(cents)
    }))
  })

  it("asks for iterator pages and the as-of date", () => {
    const step = Qbxml.steps.find((candidate) => candidate.step === "invoices")!
    const first = Qbxml.request(step, { requestId: "7", iteratorId: null, asOf: "2026-03-31" })
    expect(first).toContain(`<InvoiceQueryRq requestID="7" iterator="Start"><MaxReturned>100</MaxReturned>`)
    expect(first).toContain("<ToTxnDate>2026-03-31</ToTxnDate>")
    expect(first).toContain("<IncludeLineItems>true</IncludeLineItems>")
    expect(Qbxml.request(step, { requestId: "8", iteratorId: "{abc}", asOf: "2026-03-31" })).toContain(`iterator="Continue" iteratorID="{abc}"`)
  })

  it("asks every list for inactive records too (qbXML's default is ActiveOnly; issue 39 item 10)", () => {
    for (const step of Qbxml.steps.filter((candidate) => !candidate.transactions)) {
      const request = Qbxml.request(step, { requestId: "1", iteratorId: null, asOf: "2026-03-31" })
      expect(request, step.step).toContain("<ActiveStatus>All</ActiveStatus>")
      // qbXML 13.0's element order: MaxReturned comes before ActiveStatus.
      if (step.iterator) expect(request.indexOf("<MaxReturned>")).toBeLessThan(request.indexOf("<ActiveStatus>"))
    }
    for (const step of Qbxml.steps.filter((candidate) => candidate.transactions)) {
      expect(Qbxml.request(step, { requestId: "1", iteratorId: null, asOf: "2026-03-31" })).not.toContain("ActiveStatus")
    }
  })

  it("month ends run from the first transaction's month to the as-of date", () => {
    expect(TieoutRules.monthEnds("2025-11-15", "2026-02-10")).toEqual(["2025-11-30", "2025-12-31", "2026-01-31", "2026-02-10"])
    expect(TieoutRules.monthEnds(null, "2026-02-10")).toEqual(["2026-02-10"])
  })

  it("ties out balanced random journals, and fails as soon as a source balance differs", () => {
    const accounts: Array<Staging.SourceAccount> = [
      { id: "a", name: "Bank", number: "1", type: "asset", special: null, balanceCents: 0 },
      { id: "b", name: "Sales", number: "2", type: "income", special: null, balanceCents: 0 },
      { id: "c", name: "Rent", number: "3", type: "expense", special: null, balanceCents: 0 }
    ]
    const txn = fc.record({ debit: fc.constantFrom("a", "c"), credit: fc.constantFrom("a", "b"), cents: fc.integer({ min: 1, max: 1_000_000 }), day: fc.integer({ min: 1, max: 28 }) })
    fc.assert(fc.property(fc.array(txn, { minLength: 1, maxLength: 30 }), fc.integer({ min: 1, max: 500 }), (items, skew) => {
      const txns = items.map((item, index): Staging.SourceTxn => ({
        id: String(index), type: "JournalEntry", date: `2026-01-${String(item.day).padStart(2, "0")}`, ref: null,
        lines: [{ account: item.debit, item: null, tax: false, cents: item.cents }, { account: item.credit, item: null, tax: false, cents: -item.cents }]
      }))
      const natural = new Map<string, number>()
      for (const t of txns) for (const l of t.lines) {
        const account = accounts.find((candidate) => candidate.id === l.account)!
        natural.set(l.account!, (natural.get(l.account!) ?? 0) + TieoutRules.naturalSign(account.type!) * l.cents)
      }
      const truthful = accounts.map((account) => ({ ...account, balanceCents: natural.get(account.id) ?? 0 }))
      const bundle = { accounts: truthful, customers: [], vendors: [], items: [], txns }
      expect(TieoutRules.tieout(bundle, "2026-01-31").passed).toBe(true)
      const altered = truthful.map((account, index) => index === 0 ? { ...account, balanceCents: account.balanceCents + skew } : account)
      const failed = TieoutRules.tieout({ ...bundle, accounts: altered }, "2026-01-31")
      expect(failed.passed).toBe(false)
      expect(failed.months.at(-1)!.differences[0]).toMatchObject({ account: "a", source_cents: (natural.get("a") ?? 0) + skew })
    }))
  })

  it("gives each source account one ledger code, its own number when free", () => {
    const accounts: Array<Staging.SourceAccount> = [
      { id: "1", name: "A", number: "1010", type: "asset", special: null, balanceCents: 0 },
      { id: "2", name: "B", number: "1010", type: "asset", special: null, balanceCents: 0 },
      { id: "3", name: "C", number: "bad code!", type: "income", special: null, balanceCents: 0 },
      { id: "4", name: "D", number: null, type: null, special: null, balanceCents: 0 }
    ]
    const codes = codesFor(accounts, new Set(["M0001"]))
    expect([...codes]).toEqual([["1", "1010"], ["2", "M0002"], ["3", "M0003"]])
  })
})

describe("the Web Connector's address", () => {
  it("is built from the public base URL and needs https except on this machine", () => {
    expect(connectorUrls("https://books.example.com")).toEqual({ _tag: "Usable", appUrl: "https://books.example.com/qbwc", supportUrl: "https://books.example.com/" })
    expect(connectorUrls("https://example.com/ledger/")).toMatchObject({ appUrl: "https://example.com/ledger/qbwc" })
    expect(connectorUrls("http://localhost:8080")).toMatchObject({ _tag: "Usable", appUrl: "http://localhost:8080/qbwc" })
    expect(connectorUrls("http://127.0.0.1:3000")).toMatchObject({ _tag: "Usable" })
    expect(connectorUrls("http://books.example.com")._tag).toBe("Unusable")
    expect(connectorUrls("http://0.0.0.0:8080")._tag).toBe("Unusable")
    expect(connectorUrls(null)._tag).toBe("Unusable")
    expect(connectorUrls("not a url")._tag).toBe("Unusable")
  })
})

describe("the desktop edition's other transaction types", () => {
  const fixture = (name: string) => readFileSync(new URL(`../fixtures/qbxml/${name}`, import.meta.url), "utf8")
  const staged = (name: string) =>
    Qbxml.parseResponse(fixture(name)).records.map((record) => Staging.fromQbxml(record.kind, record.node)).filter((record) => record !== null)
  const files = [
    "ledger-credit_memo_query_rs.xml", "ledger-bill_payment_credit_card_query_rs.xml", "ledger-vendor_credit_query_rs.xml",
    "ledger-item_receipt_query_rs.xml", "ledger-credit_card_charge_query_rs.xml", "ledger-credit_card_credit_query_rs.xml",
    "ledger-transfer_query_rs.xml"
  ]
  const id = (n: string) => `800000${n}-1600000001`
  const account = (n: string, name: string, type: Staging.AccountType, balanceCents: number, special: Staging.SourceAccount["special"] = null): Staging.SourceAccount =>
    ({ id: id(n), name, number: null, type, special, balanceCents })
  /** The source's balances after the seven transactions, worked out by hand in natural signs. */
  const accounts = [
    account("02", "Accounts Receivable", "asset", -132_866, "ar"),
    account("03", "Accounts Payable", "liability", 33_740, "ap"),
    account("04", "QuickBooks Credit Card", "liability", 67_177),
    account("05", "Job Materials", "expense", -6_231),
    account("06", "Freight and Delivery", "expense", 20_004),
    account("07", "Fuel", "expense", 5_638),
    account("08", "Checking", "asset", -250_099),
    account("12", "Savings", "asset", 250_099),
    account("13", "Sales Tax Payable", "liability", -7_816, "sales_tax"),
    account("14", "Installation Income", "income", -100_050),
    account("15", "Cabinet Sales", "income", -25_000),
    account("16", "Cabinet Costs", "expense", 81_506)
  ]
  const items = [
    { id: id("10"), name: "Installation", income: id("14"), expense: id("14") },
    { id: id("11"), name: "Cabinets", income: id("15"), expense: id("16") }
  ]
  const txnsOf = () => files.flatMap(staged).map((record) => record.record as Staging.SourceTxn)

  it("reads each into balanced lines in exact cents", () => {
    const byType = Object.fromEntries(txnsOf().map((txn) => [txn.type, txn.lines.map((line) => [line.account ?? line.item ?? "tax", line.cents])]))
    expect(byType).toEqual({
      CreditMemo: [[id("10"), 100_050], [id("11"), 25_000], ["tax", 7_816], [id("02"), -132_866]],
      BillPaymentCreditCard: [[id("03"), 61_539], [id("04"), -61_539]],
      VendorCredit: [[id("05"), -6_231], [id("11"), -2_500], [id("03"), 8_731]],
      ItemReceipt: [[id("06"), 20_004], [id("11"), 84_006], [id("03"), -104_010]],
      CreditCardCharge: [[id("07"), 6_843], [id("04"), -6_843]],
      CreditCardCredit: [[id("07"), -1_205], [id("04"), 1_205]],
      Transfer: [[id("12"), 250_099], [id("08"), -250_099]]
    })
    for (const txn of txnsOf()) expect(txn.lines.reduce((sum, line) => sum + line.cents, 0), txn.type).toBe(0)
  })

  it("ties out against the source's balances, item lines on the side their transaction says; a cent off fails", () => {
    const bundle: TieoutRules.Bundle = { accounts, customers: [{ id: "c", name: "Abercrombie", balanceCents: -132_866 }], vendors: [{ id: "v", name: "Patton", balanceCents: 33_740 }], items, txns: txnsOf() }
    const result = TieoutRules.tieout(bundle, "2026-02-28")
    expect(result.unresolved).toEqual([])
    expect(result.months.flatMap((month) => month.differences)).toEqual([])
    expect(result.passed).toBe(true)
    // The credit memo's cabinet line is a debit on the income account, the vendor credit's a credit on the cost account.
    const creditMemo = result.resolved.find((txn) => txn.type === "CreditMemo")!
    expect(creditMemo.lines).toContainEqual({ account: id("15"), cents: 25_000 })
    const vendorCredit = result.resolved.find((txn) => txn.type === "VendorCredit")!
    expect(vendorCredit.lines).toContainEqual({ account: id("16"), cents: -2_500 })
    const off = accounts.map((source) => source.id === id("12") ? { ...source, balanceCents: 250_098 } : source)
    expect(TieoutRules.tieout({ ...bundle, accounts: off }, "2026-02-28").passed).toBe(false)
  })
})

describe("what the generated year found (ADR 2112)", () => {
  it("desktop: Pay Sales Tax debits the sales tax payable and credits its bank account, and is asked for last", () => {
    const xml = `<?xml version="1.0" ?><QBXML><QBXMLMsgsRs><SalesTaxPaymentCheckQueryRs requestID="1" statusCode="0"><SalesTaxPaymentCheckRet><TxnID>T-9</TxnID>
      <TxnDate>2025-04-20</TxnDate><PayeeEntityRef><ListID>V5</ListID></PayeeEntityRef><BankAccountRef><ListID>B1</ListID></BankAccountRef><Amount>1,234.56</Amount>
      </SalesTaxPaymentCheckRet></SalesTaxPaymentCheckQueryRs></QBXMLMsgsRs></QBXML>`
    const [record] = Qbxml.parseResponse(xml).records
    const staged = Staging.fromQbxml(record!.kind, record!.node)!.record as Staging.SourceTxn
    expect(staged.lines.map((line) => [line.tax ? "tax" : line.account, line.cents])).toEqual([["tax", 123_456], ["B1", -123_456]])
    expect(Qbxml.steps.at(-1)!.request).toBe("SalesTaxPaymentCheckQueryRq")
  })

  it("online: a bill's item lines post to the item, and open documents are read from their balances", () => {
    const bill = { Id: "7", TxnDate: "2025-05-02", DocNumber: "W-5", DueDate: "2025-06-01", VendorRef: { value: "204" }, Balance: 120.5, Line: [
      { Amount: 100.5, DetailType: "ItemBasedExpenseLineDetail", ItemBasedExpenseLineDetail: { ItemRef: { value: "2" } } },
      { Amount: 20, DetailType: "AccountBasedExpenseLineDetail", AccountBasedExpenseLineDetail: { AccountRef: { value: "43" } } }
    ] }
    const staged = OnlineMigrationRules.fromOnline("Bill", bill, { ar: "34", ap: "36" })!.record as Staging.SourceTxn
    expect(staged.lines.map((line) => [line.account ?? line.item, line.cents, line.itemSide])).toEqual([["2", 10_050, "purchase"], ["43", 2_000, undefined], ["36", -12_050, undefined]])
    expect(OnlineMigrationRules.openOf("Bill", bill)).toEqual({ id: "7", kind: "bill", party: "204", account: null, number: "W-5", date: "2025-05-02", due: "2025-06-01", openCents: 12_050 })
    expect(OnlineMigrationRules.openOf("Payment", { Id: "8", TxnDate: "2025-05-03", CustomerRef: { value: "101" }, UnappliedAmt: 25 })).toMatchObject({ kind: "payment_received", openCents: 2_500 })
    expect(OnlineMigrationRules.openOf("Invoice", { Id: "9", TxnDate: "2025-05-03", CustomerRef: { value: "101" }, Balance: 0 })).toBeNull()
    expect(OnlineMigrationRules.fromOnline("Customer", { Id: "112", DisplayName: "Gone", Active: false, Balance: 0 }, { ar: null, ap: null })!.record).toMatchObject({ active: false, email: null })
  })
})

import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { MigrationStaging as Staging, Qbxml, TieoutRules } from "@ledger/engine/rules"

/** The open documents' rules (ADR 2111): what qbXML's records say is open, and the tie-out against AR, AP and each party. */

const records = (rs: string, body: string) =>
  Qbxml.parseResponse(`<?xml version="1.0" ?><QBXML><QBXMLMsgsRs><${rs} requestID="1" statusCode="0">${body}</${rs}></QBXMLMsgsRs></QBXML>`).records

const party = (tag: string, id: string) => `<${tag}><ListID>${id}</ListID><FullName>${id}</FullName></${tag}>`

describe("open documents from qbXML", () => {
  it("asks for unpaid invoices and bills in qbXML 13's order, without line items", () => {
    for (const name of ["open_invoices", "open_bills"]) {
      const step = Qbxml.steps.find((candidate) => candidate.step === name)!
      const request = Qbxml.request(step, { requestId: "3", iteratorId: null, asOf: "2026-03-31" })
      expect(request).toMatch(/<MaxReturned>100<\/MaxReturned><TxnDateRangeFilter><ToTxnDate>2026-03-31<\/ToTxnDate><\/TxnDateRangeFilter><PaidStatus>NotPaidOnly<\/PaidStatus><\/(Invoice|Bill)QueryRq>/)
    }
    expect(Qbxml.request(Qbxml.steps.find((step) => step.step === "journal_entries")!, { requestId: "1", iteratorId: null, asOf: "2026-03-31" })).toContain("<IncludeLineItems>true</IncludeLineItems>")
  })

  it("reads each open balance where qbXML keeps it", () => {
    const [invoice] = records("InvoiceQueryRs", `<InvoiceRet><TxnID>1</TxnID>${party("CustomerRef", "C1")}<TxnDate>2026-02-01</TxnDate><RefNumber>71</RefNumber>
      <DueDate>2026-03-03</DueDate><BalanceRemaining>1,200.50</BalanceRemaining><IsPaid>false</IsPaid></InvoiceRet>`)
    expect(Staging.openItemOf(invoice!.kind, invoice!.node)).toEqual({ id: "1", kind: "invoice", party: "C1", account: null, number: "71", date: "2026-02-01", due: "2026-03-03", openCents: 120_050 })
    const bills = records("BillQueryRs", [
      `<BillRet><TxnID>2</TxnID>${party("VendorRef", "V1")}<TxnDate>2026-02-02</TxnDate><AmountDue>90.00</AmountDue><IsPaid>false</IsPaid><OpenAmount>30.00</OpenAmount></BillRet>`,
      // A company file that gives no OpenAmount: nothing when paid, else the bill's total.
      `<BillRet><TxnID>3</TxnID>${party("VendorRef", "V1")}<TxnDate>2026-02-03</TxnDate><AmountDue>90.00</AmountDue><IsPaid>true</IsPaid></BillRet>`,
      `<BillRet><TxnID>4</TxnID>${party("VendorRef", "V1")}<TxnDate>2026-02-04</TxnDate><AmountDue>45.10</AmountDue><IsPaid>false</IsPaid></BillRet>`
    ].join(""))
    expect(bills.map((bill) => Staging.openItemOf(bill.kind, bill.node)?.openCents)).toEqual([3_000, 0, 4_510])
    const [credit] = records("CreditMemoQueryRs", `<CreditMemoRet><TxnID>5</TxnID>${party("CustomerRef", "C1")}<TxnDate>2026-02-05</TxnDate>
      <TotalAmount>20.00</TotalAmount><CreditRemaining>12.00</CreditRemaining><CreditMemoLineRet><ItemRef><FullName>X</FullName></ItemRef><Amount>20.00</Amount></CreditMemoLineRet></CreditMemoRet>`)
    // From a history step: the credit memo's entry and its open credit; from an open step only an open item.
    expect(Staging.stagedOf(credit!.kind, credit!.node, false).map((staged) => staged.entity)).toEqual(["txn", "open"])
    const [paidInvoice] = records("InvoiceQueryRs", `<InvoiceRet><TxnID>6</TxnID>${party("CustomerRef", "C1")}<TxnDate>2026-02-06</TxnDate><BalanceRemaining>0.00</BalanceRemaining></InvoiceRet>`)
    const [payment] = records("ReceivePaymentQueryRs", `<ReceivePaymentRet><TxnID>7</TxnID>${party("CustomerRef", "C1")}${party("ARAccountRef", "AR")}
      ${party("DepositToAccountRef", "BANK")}<TxnDate>2026-02-07</TxnDate><TotalAmount>50.00</TotalAmount><UnusedPayment>8.25</UnusedPayment></ReceivePaymentRet>`)
    expect(Staging.stagedOf(payment!.kind, payment!.node, false).map((staged) => staged.entity === "open" ? [staged.record.kind, staged.record.openCents] : staged.entity))
      .toEqual(["txn", ["payment_received", 825]])
    expect(Staging.stagedOf(paidInvoice!.kind, paidInvoice!.node, true)).toEqual([])
    expect(Staging.stagedOf(invoice!.kind, invoice!.node, true).map((staged) => staged.id)).toEqual(["invoice:1"])
  })
})

const kinds = ["invoice", "bill", "credit_memo", "vendor_credit", "payment_received"] as const
const arbitraryItems = fc.array(fc.record({ kind: fc.constantFrom(...kinds), party: fc.integer({ min: 0, max: 3 }), openCents: fc.integer({ min: 1, max: 1e9 }) }), { maxLength: 30 })

/** A bundle whose parties' balances and AR and AP are exactly what the open items add up to. */
const bundleOf = (items: ReadonlyArray<{ kind: (typeof kinds)[number]; party: number; openCents: number }>) => {
  const open = items.map((item, index) => ({
    id: String(index), kind: item.kind, party: `P${item.party}`, account: null, number: null, date: "2026-01-01", due: null, openCents: item.openCents
  }))
  const balance = (target: "ar" | "ap", id: string) =>
    open.filter((item) => TieoutRules.sideOf(item.kind) === target && item.party === id).reduce((sum, item) => sum + TieoutRules.signedOpen(item), 0)
  const parties = (target: "ar" | "ap") => [0, 1, 2, 3].map((n) => ({ id: `P${n}`, name: `${target} ${n}`, balanceCents: balance(target, `P${n}`) }))
  const bundle: TieoutRules.Bundle = { accounts: [], customers: parties("ar"), vendors: parties("ap"), items: [], txns: [], open }
  const control = { ar: bundle.customers.reduce((sum, p) => sum + p.balanceCents, 0), ap: bundle.vendors.reduce((sum, p) => sum + p.balanceCents, 0) }
  return { bundle, control }
}

describe("the open documents' tie-out", () => {
  it("passes exactly when the open documents add up to AR, AP and every party's balance", () => {
    fc.assert(fc.property(arbitraryItems, fc.integer({ min: 0, max: 7 }), fc.integer({ min: 1, max: 500 }), (items, pick, off) => {
      const { bundle, control } = bundleOf(items)
      expect(TieoutRules.openDocuments(bundle, control).passed).toBe(true)
      // One party's balance off by a few cents: that party is named, whatever AR and AP say.
      const parties = [...bundle.customers, ...bundle.vendors]
      const shifted = parties.map((candidate, index) => index === pick ? { ...candidate, balanceCents: candidate.balanceCents + off } : candidate)
      const result = TieoutRules.openDocuments({ ...bundle, customers: shifted.slice(0, 4), vendors: shifted.slice(4) }, control)
      expect(result.passed).toBe(false)
      expect(result.parties.map((candidate) => candidate.name)).toEqual([parties[pick]!.name])
      // AR off: the control differs.
      expect(TieoutRules.openDocuments(bundle, { ...control, ar: control.ar + off }).passed).toBe(false)
    }))
  })

  it("fails on a document whose customer or vendor was not read", () => {
    const { bundle, control } = bundleOf([{ kind: "invoice", party: 0, openCents: 500 }])
    const orphaned = { ...bundle, open: bundle.open!.map((item) => ({ ...item, party: "P9" })), customers: bundle.customers.map((c) => ({ ...c, balanceCents: 0 })) }
    const result = TieoutRules.openDocuments(orphaned, control)
    expect(result.orphans).toEqual(["invoice:0"])
    expect(result.passed).toBe(false)
  })
})

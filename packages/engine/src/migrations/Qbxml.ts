import { XMLParser, XMLValidator } from "fast-xml-parser"
import * as Money from "../kernel/values/Money.ts"

/**
 * qbXML, the desktop edition's request and response language (pure): the requests of each
 * extraction step (lists and transactions with iterators of 100, transactions up to the as-of date
 * with their lines), and the responses read into staged records the import understands. Amounts
 * are read from their decimal text into integer cents, never through a float.
 */

export interface Step {
  readonly step: string
  readonly request: string
  readonly iterator: boolean
  readonly lines: boolean
  readonly transactions: boolean
  /**
   * Open documents only (qbXML `PaidStatus` NotPaidOnly): the invoices and bills still owed, each
   * with its open balance (`BalanceRemaining`, `OpenAmount`), staged as open items, not history.
   */
  readonly open?: boolean
}

export const steps: ReadonlyArray<Step> = [
  { step: "accounts", request: "AccountQueryRq", iterator: false, lines: false, transactions: false },
  { step: "customers", request: "CustomerQueryRq", iterator: true, lines: false, transactions: false },
  { step: "vendors", request: "VendorQueryRq", iterator: true, lines: false, transactions: false },
  { step: "items", request: "ItemQueryRq", iterator: true, lines: false, transactions: false },
  // A journal entry's debit and credit lines are its line items: qbXML leaves them out unless asked.
  { step: "journal_entries", request: "JournalEntryQueryRq", iterator: true, lines: true, transactions: true },
  { step: "invoices", request: "InvoiceQueryRq", iterator: true, lines: true, transactions: true },
  { step: "sales_receipts", request: "SalesReceiptQueryRq", iterator: true, lines: true, transactions: true },
  { step: "payments_received", request: "ReceivePaymentQueryRq", iterator: true, lines: false, transactions: true },
  { step: "deposits", request: "DepositQueryRq", iterator: true, lines: true, transactions: true },
  { step: "bills", request: "BillQueryRq", iterator: true, lines: true, transactions: true },
  { step: "bill_payments", request: "BillPaymentCheckQueryRq", iterator: true, lines: false, transactions: true },
  { step: "checks", request: "CheckQueryRq", iterator: true, lines: true, transactions: true },
  // Added after the first eight transaction steps: a resumed extraction's step numbers stay where they were.
  { step: "credit_memos", request: "CreditMemoQueryRq", iterator: true, lines: true, transactions: true },
  { step: "bill_payments_card", request: "BillPaymentCreditCardQueryRq", iterator: true, lines: false, transactions: true },
  { step: "vendor_credits", request: "VendorCreditQueryRq", iterator: true, lines: true, transactions: true },
  { step: "item_receipts", request: "ItemReceiptQueryRq", iterator: true, lines: true, transactions: true },
  { step: "card_charges", request: "CreditCardChargeQueryRq", iterator: true, lines: true, transactions: true },
  { step: "card_credits", request: "CreditCardCreditQueryRq", iterator: true, lines: true, transactions: true },
  { step: "transfers", request: "TransferQueryRq", iterator: true, lines: false, transactions: true },
  // The open invoices and bills, after the history (ADR 2111): what AR and AP aging show after the import.
  { step: "open_invoices", request: "InvoiceQueryRq", iterator: true, lines: false, transactions: true, open: true },
  { step: "open_bills", request: "BillQueryRq", iterator: true, lines: false, transactions: true, open: true },
  // Sales tax paid with "Pay Sales Tax" is its own transaction, not a check: without it the tax
  // payable never ties out. Last, so a resumed extraction's step numbers stay where they were.
  { step: "sales_tax_payments", request: "SalesTaxPaymentCheckQueryRq", iterator: true, lines: false, transactions: true }
]

export const pageSize = 100

const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")

/** The qbXML request of a step: the first page (`iterator: null`) or the next of an iterator. */
export const request = (step: Step, options: { readonly requestId: string; readonly iteratorId: string | null; readonly asOf: string }): string => {
  const iterator = !step.iterator ? "" : options.iteratorId === null
    ? ` iterator="Start"`
    : ` iterator="Continue" iteratorID="${escape(options.iteratorId)}"`
  const body = [
    step.iterator ? `<MaxReturned>${pageSize}</MaxReturned>` : "",
    // List queries answer active records only unless asked (qbXML's default is ActiveOnly): an
    // inactive account with history would be missing and the tie-out could never pass.
    step.transactions ? "" : "<ActiveStatus>All</ActiveStatus>",
    step.transactions ? `<TxnDateRangeFilter><ToTxnDate>${escape(options.asOf)}</ToTxnDate></TxnDateRangeFilter>` : "",
    // After the filters, before IncludeLineItems: the order qbXML 13's InvoiceQueryRq and BillQueryRq require.
    step.open === true ? "<PaidStatus>NotPaidOnly</PaidStatus>" : "",
    step.lines ? "<IncludeLineItems>true</IncludeLineItems>" : ""
  ].join("")
  return `<?xml version="1.0" encoding="utf-8"?>\n<?qbxml version="13.0"?>\n<QBXML><QBXMLMsgsRq onError="stopOnError">` +
    `<${step.request} requestID="${escape(options.requestId)}"${iterator}>${body}</${step.request}></QBXMLMsgsRq></QBXML>`
}

const predefined: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: "\"", apos: "'" }

/**
 * Decodes XML's five predefined entities and character references, and nothing else: the parser's
 * own entity processing is off so a document can never define entities that expand (billion laughs).
 */
export const decodeText = (_name: string, value: unknown): unknown =>
  typeof value !== "string" ? value : value.replace(/&(lt|gt|amp|quot|apos|#\d{1,7}|#x[0-9a-fA-F]{1,6});/g, (whole, name: string) => {
    if (!name.startsWith("#")) return predefined[name]!
    const code = name[1] === "x" ? parseInt(name.slice(2), 16) : Number(name.slice(1))
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole
  })

/** Why a document is refused before it is parsed: a DTD (never needed, a vector for entity bombs) or malformed XML. */
export const refusal = (xml: string): string | null => {
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) return "DOCTYPE and ENTITY declarations are not accepted"
  const valid = XMLValidator.validate(xml)
  return valid === true ? null : `Malformed XML: ${valid.err.msg} (line ${valid.err.line})`
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: false,
  tagValueProcessor: decodeText,
  attributeValueProcessor: decodeText,
  isArray: (name) => /(Ret|Line)$/.test(name)
})

export type Node = Record<string, unknown>

/**
 * Integer cents from a qbXML amount ("-197.02", "1,234.5"): exact, never through a float. More
 * than 2 decimals (other than trailing zeros) or past the safe integer range is refused, never
 * rounded: `field` names the amount in the error.
 */
export const centsOf = (value: unknown, field = "Amount"): number => {
  const text = String(value ?? "0").replace(/,/g, "").trim()
  const read = Money.parsePlainCents(text)
  if ("cents" in read) return read.cents
  throw new Error(`${field}: ${refusals[read.refused](text.slice(0, 40))}`)
}

const refusals: Record<Money.PlainRefusal, (text: string) => string> = {
  not_an_amount: (text) => `not an amount: ${text}`,
  more_than_two_decimals: (text) => `${text} has more than 2 decimals`,
  out_of_range: (text) => `${text} is out of range`
}

export interface Response {
  readonly request: string
  readonly statusCode: number
  readonly statusMessage: string
  readonly iteratorId: string | null
  readonly remaining: number
  /** Every `...Ret` element, with its element name. */
  readonly records: ReadonlyArray<{ readonly kind: string; readonly node: Node }>
}

/** Reads a qbXML response document (one response in it: the extraction sends one request at a time). */
export const parseResponse = (xml: string): Response => {
  const refused = refusal(xml)
  if (refused !== null) throw new Error(refused)
  const document = parser.parse(xml) as Node
  const messages = ((document.QBXML as Node | undefined)?.QBXMLMsgsRs ?? null) as Node | null
  if (messages === null) throw new Error("Not a qbXML response: no QBXML/QBXMLMsgsRs")
  const name = Object.keys(messages).find((key) => key.endsWith("Rs"))
  if (name === undefined) throw new Error("No response element in QBXMLMsgsRs")
  const element = (Array.isArray(messages[name]) ? (messages[name] as Array<Node>)[0] : messages[name]) as Node
  const records: Array<{ kind: string; node: Node }> = []
  for (const [key, value] of Object.entries(element)) {
    if (!key.endsWith("Ret")) continue
    for (const node of value as Array<Node>) records.push({ kind: key, node })
  }
  return {
    request: name.replace(/Rs$/, "Rq"),
    statusCode: Number(element["@_statusCode"] ?? 0),
    statusMessage: String(element["@_statusMessage"] ?? ""),
    iteratorId: element["@_iteratorID"] === undefined ? null : String(element["@_iteratorID"]),
    remaining: Number(element["@_iteratorRemainingCount"] ?? 0),
    records
  }
}

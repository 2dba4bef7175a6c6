import type { ProposalKind } from "./Governed.ts"
import * as JournalEntries from "./JournalEntries.ts"
import * as BankLines from "../banking/BankLines.ts"
import * as Matching from "../banking/Matching.ts"
import * as SalesKinds from "../sales/ProposalKinds.ts"

/**
 * Every kind of governed write that can become a proposal, and how its area finishes it when a
 * person decides (Governed.ts, docs/governed-writes.md). Each area adds ONE line per kind.
 * Area modules never import this file (it imports them).
 */
export const kinds: Readonly<Record<string, ProposalKind>> = {
  invoice: SalesKinds.invoice,
  credit_memo: SalesKinds.creditMemo,
  bill: SalesKinds.bill,
  vendor_credit: SalesKinds.vendorCredit,
  sales_receipt: SalesKinds.salesReceipt,
  refund: SalesKinds.refund,
  vendor_refund: SalesKinds.vendorRefund,
  document_void: SalesKinds.documentVoid,
  payment_received: SalesKinds.paymentReceived,
  payment_made: SalesKinds.paymentMade,
  payment_void: SalesKinds.paymentVoid,
  bank_line: BankLines.proposalKind,
  bank_transfer: Matching.transferProposalKind,
  journal_entry: JournalEntries.proposalKind
  // sales: one line per kind, e.g. `invoice: Invoices.proposalKind,`
  // banking: one line per kind, e.g. `bank_line: BankLines.proposalKind,`
}

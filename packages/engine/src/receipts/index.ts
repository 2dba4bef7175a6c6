import { Receipts } from "@ledger/api"
import * as Area from "../pipeline/Area.ts"
import * as Inbox from "./Inbox.ts"
import * as ReceiptLinks from "./ReceiptLinks.ts"
import * as ReceiptsHandlers from "./Receipts.ts"

/**
 * Receipts and the receipt inbox (spec 3-endpoints-b 4.1): files by upload and by mail, stored
 * encrypted, read (PDF text, rules, and a provider when configured), matched to bank lines,
 * attached to documents, or posted as expenses through the ledger's governed path.
 */
export const area = Area.make({
  name: "receipts",
  operations: Receipts.operations,
  handlers: [...Inbox.handlers, ...ReceiptsHandlers.handlers, ...ReceiptLinks.handlers],
  proposalKinds: { receipt_expense: ReceiptLinks.expenseProposalKind }
})

/** Inbound mail, for the server's SMTP adapter. */
export * as Intake from "./Intake.ts"
export * as InboxRules from "./InboxRules.ts"

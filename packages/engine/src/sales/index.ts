import { Effect } from "effect"
import { Sales } from "@ledger/api"
import * as Area from "../pipeline/Area.ts"
import type { JobOutcome } from "../pipeline/Area.ts"
import * as Aging from "./Aging.ts"
import * as Contacts from "./Contacts.ts"
import * as Documents from "./Documents.ts"
import * as Email from "./Email.ts"
import * as EmailDelivery from "./EmailDelivery.ts"
import * as Estimates from "./Estimates.ts"
import * as Items from "./Items.ts"
import * as Payments from "./Payments.ts"
import * as Recurring from "./Recurring.ts"
import * as Reminders from "./Reminders.ts"
import * as SalesTax from "./SalesTax.ts"
import * as SalesTaxStore from "./SalesTaxStore.ts"

/**
 * Sales and purchases: contacts, items, sales tax, documents (invoices, bills, credits, receipts,
 * refunds), payments, estimates, recurring templates, email and aging. Documents and payments
 * post through the ledger's governed path; a payment may explain a bank line (banking).
 */
export const area = Area.make({
  name: "sales",
  operations: Sales.operations,
  handlers: [
    ...Contacts.handlers,
    ...Items.handlers,
    ...SalesTax.handlers,
    ...Documents.handlers,
    ...Payments.handlers,
    ...Estimates.handlers,
    ...Recurring.handlers,
    ...Email.handlers,
    ...Aging.handlers
  ],
  // Documents made from estimates and recurring templates are documents of these same kinds.
  proposalKinds: {
    invoice: Documents.documentProposalKind,
    credit_memo: Documents.documentProposalKind,
    bill: Documents.documentProposalKind,
    vendor_credit: Documents.documentProposalKind,
    sales_receipt: Documents.documentProposalKind,
    refund: Documents.documentProposalKind,
    vendor_refund: Documents.documentProposalKind,
    document_void: Documents.voidProposalKind,
    payment_received: Payments.paymentProposalKind,
    payment_made: Payments.paymentProposalKind,
    payment_void: Payments.paymentVoidProposalKind
  },
  protections: [SalesTaxStore.activeTaxRatePayable, Items.activeItemAccount],
  jobKinds: {
    [EmailDelivery.jobKind]: {
      run: (job) =>
        Effect.map(
          EmailDelivery.deliver(job.companyId ?? "", Number(job.payload.email_id)),
          (delivery): JobOutcome => delivery._tag === "Retry" ? { _tag: "Retry", error: delivery.error } : { _tag: "Done" }
        ),
      gaveUp: (job, error) =>
        job.companyId === null ? Effect.void : EmailDelivery.giveUp(job.companyId, Number(job.payload.email_id), error)
    },
    [Reminders.jobKind]: { run: () => Effect.as(Reminders.scan(), { _tag: "Done" } as const), periodic: true }
  },
  events: [
    "invoice.created",
    "invoice.paid",
    "invoice.voided",
    "bill.created",
    "bill.paid",
    "bill.voided",
    "payment.received",
    "payment.made"
  ]
})

/**
 * What the sales area offers outside the engine: the mail port (with its in-memory fake), the
 * background job queue, and the work of its jobs (email delivery, payment reminders).
 */
export * as EmailDelivery from "./EmailDelivery.ts"
export * as Jobs from "../store/Jobs.ts"
export { Mail, MailError, type Attachment, type OutgoingMessage } from "../ports/Mail.ts"
export * as Reminders from "./Reminders.ts"

import { Effect } from "effect"
import { Sales } from "@ledger/api"
import { Governed } from "../ledger/index.ts"
import * as Area from "../pipeline/Area.ts"
import type { JobOutcome } from "../pipeline/Area.ts"
import * as Aging from "./aging/Aging.ts"
import * as Contacts from "./contacts/Contacts.ts"
import * as ContactStore from "./contacts/ContactStore.ts"
import * as Documents from "./documents/Documents.ts"
import * as Email from "./email/Email.ts"
import * as EmailDelivery from "./email/EmailDelivery.ts"
import * as Estimates from "./estimates/Estimates.ts"
import * as Items from "./items/Items.ts"
import * as Payments from "./payments/Payments.ts"
import * as PaymentResolution from "./payments/PaymentResolution.ts"
import * as Recurring from "./recurring/Recurring.ts"
import * as Reminders from "./email/Reminders.ts"
import * as SalesTax from "./tax/SalesTax.ts"
import * as SalesTaxStore from "./tax/SalesTaxStore.ts"

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
  contactLookups: [ContactStore.knownContacts],
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
  events: Sales.events
})

/**
 * What the sales area offers outside the engine: the mail port (with its in-memory fake), the
 * background job queue, and the work of its jobs (email delivery, payment reminders).
 */
export * as EmailDelivery from "./email/EmailDelivery.ts"
export * as Jobs from "../store/Jobs.ts"
export { Mail, MailError, type Attachment, type OutgoingMessage } from "../ports/Mail.ts"
export * as Reminders from "./email/Reminders.ts"
/**
 * What a migration brings over into sales (ADR 2111): its customers and vendors as contacts, and
 * its open invoices, bills and credits as documents linked to the entries the migration posts.
 */
export { insert as insertContact } from "./contacts/Contacts.ts"
export * as ImportedDocuments from "./documents/ImportedDocuments.ts"
/** Vendors and payments made, read only, for the 1099 forms (taxforms). */
export * as VendorReaders from "./common/VendorReaders.ts"

/**
 * A payment received whose entry another area has already posted through the governed path (a
 * crypto receipt assigned to an invoice): written, applied to the invoice and announced exactly as
 * sales' own `POST /v1/payments/received` does, so its rules (same customer, open balance, dates)
 * and events (`payment.received`, `invoice.paid`) hold for it too. Whatever is not applied stays
 * as the customer's credit. Answers the new payment's id.
 */
export const recordReceivedPayment = (input: {
  readonly contactId: number
  readonly paymentDate: string
  readonly account: string
  readonly controlAccount: string
  readonly amountCents: number
  readonly applications: ReadonlyArray<{ readonly document_id: number; readonly amount_cents: number }>
  readonly reference: string | null
  readonly memo: string | null
  readonly entryId: number
}) =>
  // The entry is another area's (its own source): the payment takes a new id of its own.
  Effect.flatMap(Governed.reserveId(), (id) => PaymentResolution.persist({
    direction: "received",
    contactId: input.contactId,
    // The name only words a default memo and summary; this payment has its memo and no summary here.
    contactName: "",
    paymentDate: input.paymentDate,
    account: input.account,
    controlAccount: input.controlAccount,
    amountCents: input.amountCents,
    applications: input.applications,
    number: null,
    reference: input.reference,
    memo: input.memo,
    bankLineId: null
  }, input.entryId, id))

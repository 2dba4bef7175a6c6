import type { Sales } from "@ledger/api"
import * as Row from "../../kernel/Row.ts"
import type { TaxLine } from "../tax/SalesTaxRules.ts"
import type { ResolvedLine } from "./DocumentLines.ts"
import { type PostingKind, side } from "./DocumentPosting.ts"
import type { ResolvedDocument } from "./DocumentResolution.ts"
import { isCashDocument, isOverdue, openBalance, status } from "./DocumentStatus.ts"

/**
 * A document's fields under their column and wire names, both ways: a resolved document into the
 * `documents` table, a dry run's preview and an estimate's row (one mapping, so a field is named
 * alike in all three), and the stored rows back into the document the API shows.
 */

/** A document's heading, as the API shows it and as `documents` stores it. */
export const headingFields = (document: ResolvedDocument, number: string) => ({
  kind: document.kind,
  side: side(document.kind),
  contact_id: document.contactId,
  number,
  doc_date: document.docDate,
  due_date: document.dueDate,
  terms_days: document.termsDays,
  reference: document.reference,
  memo: document.memo
})

/** What a document or an estimate adds up to, as the API shows it and as `documents` and `estimates` store it. */
export const amountFields = (amounts: {
  readonly taxRateId: number | null
  readonly subtotalCents: number
  readonly taxCents: number
  readonly totalCents: number
}) => ({
  tax_rate_id: amounts.taxRateId,
  subtotal_cents: amounts.subtotalCents,
  tax_cents: amounts.taxCents,
  total_cents: amounts.totalCents
})

/** The document as the API shows it, before it exists (a dry run's preview). */
export const preview = (document: ResolvedDocument, number: string): Record<string, unknown> => {
  // The lines sit between the tax rate and the totals, as in the document the API shows.
  const { tax_rate_id, ...totals } = amountFields(document)
  return {
    ...headingFields(document, number),
    control_account: isCashDocument(document.kind) ? null : document.controlAccount,
    account: isCashDocument(document.kind) ? document.controlAccount : null,
    tax_rate_id,
    lines: document.lines.map(lineToWire),
    tax_lines: document.taxLines.map(taxLineToWire),
    ...totals,
    status: status(document.kind, document.totalCents, 0, false),
    open_balance_cents: openBalance(document.kind, document.totalCents, 0, false)
  }
}

/** A resolved line as the API shows it (and as `document_lines` and estimates store it). */
export const lineToWire = (line: ResolvedLine) => ({
  line_no: line.lineNo,
  item_id: line.itemId,
  description: line.description,
  account: line.account,
  quantity: line.quantity,
  unit_price_cents: line.unitPriceCents,
  amount_cents: line.amountCents,
  class: line.class,
  taxable: line.taxable
})

/** A tax line as the API shows it (and as `document_tax_lines` and estimates store it). */
export const taxLineToWire = (tax: TaxLine) => ({
  tax_rate_id: tax.taxRateId,
  name: tax.name,
  agency_id: tax.agencyId,
  rate_percent: tax.ratePercent,
  payable_account: tax.payableAccount,
  taxable_subtotal_cents: tax.taxableSubtotalCents,
  tax_cents: tax.taxCents
})

/** A row of `document_lines` as the API shows it. */
export const lineFromRow = (line: Record<string, unknown>): Sales.Documents.Document["lines"][number] => ({
  line_no: Row.int(line.line_no),
  item_id: Row.intOrNull(line.item_id),
  description: (line.description as string | null) ?? null,
  account: String(line.account),
  quantity: (line.quantity as string | null) ?? null,
  unit_price_cents: Row.intOrNull(line.unit_price_cents),
  amount_cents: Row.int(line.amount_cents),
  class: (line.class as string | null) ?? null,
  taxable: line.taxable === true
})

/** A row of `document_tax_lines` as the API shows it. */
export const taxLineFromRow = (tax: Record<string, unknown>): Sales.Documents.Document["tax_lines"][number] => ({
  tax_rate_id: Row.int(tax.tax_rate_id),
  name: String(tax.name),
  agency_id: Row.int(tax.agency_id),
  rate_percent: String(tax.rate_percent),
  payable_account: String(tax.payable_account),
  taxable_subtotal_cents: Row.int(tax.taxable_subtotal_cents),
  tax_cents: Row.int(tax.tax_cents)
})

/** An application (a payment's or a credit's) as a document shows it. */
export const applicationFromRow = (application: Record<string, unknown>): Sales.Documents.Document["applications"][number] => ({
  application_id: Row.int(application.id),
  source: application.payment_id === null ? "credit" as const : "payment" as const,
  payment_id: Row.intOrNull(application.payment_id),
  credit_document_id: Row.intOrNull(application.credit_document_id),
  document_id: Row.int(application.document_id),
  amount_cents: Row.int(application.amount_cents),
  applied_on: Row.date(application.applied_on)
})

/** A stored document with its own lines, tax lines and applications, balances as of `asOf` from `appliedCents`. */
export const documentFromRows = (
  row: Record<string, unknown>,
  parts: {
    readonly lines: ReadonlyArray<Record<string, unknown>>
    readonly taxes: ReadonlyArray<Record<string, unknown>>
    readonly applications: ReadonlyArray<Record<string, unknown>>
    readonly appliedCents: number
  },
  asOf: string
): Sales.Documents.Document => {
  const kind = String(row.kind) as PostingKind
  const voided = row.voided === true
  const total = Row.int(row.total_cents)
  const applied = parts.appliedCents
  const open = openBalance(kind, total, applied, voided)
  const dueDate = row.due_date === null ? null : Row.date(row.due_date)
  return {
    id: Row.int(row.id),
    kind,
    side: String(row.side) as "sales" | "purchases",
    contact_id: Row.int(row.contact_id),
    number: String(row.number),
    doc_date: Row.date(row.doc_date),
    due_date: dueDate,
    terms_days: Row.intOrNull(row.terms_days),
    reference: (row.reference as string | null) ?? null,
    memo: (row.memo as string | null) ?? null,
    control_account: isCashDocument(kind) ? null : String(row.control_account),
    account: isCashDocument(kind) ? String(row.control_account) : null,
    tax_rate_id: Row.intOrNull(row.tax_rate_id),
    lines: parts.lines.map(lineFromRow),
    tax_lines: parts.taxes.map(taxLineFromRow),
    subtotal_cents: Row.int(row.subtotal_cents),
    tax_cents: Row.int(row.tax_cents),
    total_cents: total,
    applied_cents: applied,
    open_balance_cents: open,
    status: status(kind, total, applied, voided),
    overdue: !voided && isOverdue(kind, dueDate, open, asOf),
    entry_id: Row.intOrNull(row.entry_id),
    void_entry_id: Row.intOrNull(row.void_entry_id),
    void_reason: (row.void_reason as string | null) ?? null,
    voided_at: Row.isoOrNull(row.voided_at),
    estimate_id: Row.intOrNull(row.estimate_id),
    recurring_template_id: Row.intOrNull(row.recurring_template_id),
    applications: parts.applications.filter((application) => application.voided_on === null).map(applicationFromRow),
    created_at: Row.iso(row.created_at)
  }
}

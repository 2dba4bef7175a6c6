/**
 * A document's status follows from its totals (spec 3.3): nothing is stored that could drift.
 * Invoices and bills are open, partial or paid; credits are open, partial or applied; receipts and
 * refunds are paid when made; a voided document is void.
 */
export type Kind = "invoice" | "credit_memo" | "bill" | "vendor_credit" | "sales_receipt" | "refund" | "vendor_refund"
export type Status = "open" | "partial" | "paid" | "applied" | "void"

export const isCredit = (kind: string): boolean => kind === "credit_memo" || kind === "vendor_credit"
export const isReceivable = (kind: string): boolean => kind === "invoice" || kind === "bill"
/** Paid on the spot: no AR or AP, nothing to apply. */
export const isCashDocument = (kind: string): boolean =>
  kind === "sales_receipt" || kind === "refund" || kind === "vendor_refund"

export const status = (kind: string, totalCents: number, appliedCents: number, voided: boolean): Status => {
  if (voided) return "void"
  if (isCashDocument(kind)) return "paid"
  const open = totalCents - appliedCents
  if (open <= 0) return isCredit(kind) ? "applied" : "paid"
  if (appliedCents > 0) return "partial"
  return "open"
}

export const openBalance = (kind: string, totalCents: number, appliedCents: number, voided: boolean): number =>
  voided || isCashDocument(kind) ? 0 : totalCents - appliedCents

export const isOverdue = (
  kind: string,
  dueDate: string | null,
  openCents: number,
  asOf: string
): boolean => isReceivable(kind) && openCents > 0 && dueDate !== null && dueDate < asOf

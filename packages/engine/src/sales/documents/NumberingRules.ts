/**
 * Document numbers. Each kind draws from its own sequence per company (a counter row locked in
 * the posting transaction, so a dry run or a refused write consumes nothing and a number is
 * never reused: docs/decisions/0302-document-numbers.md).
 */
export type NumberedKind =
  | "invoice"
  | "credit_memo"
  | "bill"
  | "vendor_credit"
  | "sales_receipt"
  | "refund"
  | "vendor_refund"
  | "estimate"

export const prefixes: Record<NumberedKind, string> = {
  invoice: "INV-",
  credit_memo: "CM-",
  bill: "BILL-",
  vendor_credit: "VC-",
  sales_receipt: "SR-",
  refund: "RF-",
  vendor_refund: "VRF-",
  estimate: "EST-"
}

/** Numbers are zero-padded to four digits and grow past them: INV-0001, ..., INV-12345. */
export const format = (prefix: string, value: number): string => `${prefix}${String(value).padStart(4, "0")}`

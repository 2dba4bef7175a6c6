import { ApiError } from "@ledger/api"
import type { Path } from "./JournalEntryRules.ts"

/**
 * AR and AP control accounts move only through documents and payments (ADR 0106), so the
 * ledger's receivables and payables always equal the aging less unapplied credits. The one rule,
 * as pure functions: the posting path applies it with the entry's source kind; sales applies it to
 * the account lines of a document (whose own control line the document writes itself).
 */

export type Control = "ar" | "ap"

/**
 * The source kinds whose lines a caller writes freely: a manual journal entry, a bank-line
 * categorization and a receipt booked as an expense (both its accounts are the caller's). Their
 * lines never name a control account. Every other kind posts lines its
 * area derives from a document or a payment (or the exact reversal of a posted entry, or the
 * migration import's opening balances, ADR 0106), so it may.
 */
export const freeFormKinds: ReadonlySet<string> = new Set(["journal_entry", "bank_line", "receipt_expense"])

export const mayMoveControlAccounts = (sourceKind: string): boolean => !freeFormKinds.has(sourceKind)

export interface ControlledLine {
  readonly account: string
  readonly control?: Control | null | undefined
}

const label = (control: Control): string => control === "ar" ? "receivables (AR)" : "payables (AP)"

/**
 * The refusal of lines that name a control account, each at its own path, or null when none
 * does. `why` ends the message (what the caller should use instead).
 */
export const refuseControlLines = (
  lines: ReadonlyArray<ControlledLine & { readonly path: Path }>,
  why: string
): ApiError.LedgerError | null => {
  const issues = lines.flatMap((line) =>
    line.control === undefined || line.control === null
      ? []
      : [{ path: [...line.path], message: `Account ${line.account} is the ${label(line.control)} control account` }]
  )
  if (issues.length === 0) return null
  return ApiError.fail("control_account_line", `AR and AP control accounts move only through documents and payments: ${why}`, { issues })
}

/** The posting path's check: a free-form entry may not name a control account on any line. */
export const checkEntry = (
  sourceKind: string,
  lines: ReadonlyArray<ControlledLine>,
  linesPath: Path
): ApiError.LedgerError | null =>
  mayMoveControlAccounts(sourceKind)
    ? null
    : refuseControlLines(
      lines.map((line, index) => ({ ...line, path: [...linesPath, index, "account"] })),
      "record an invoice, bill, credit or payment instead."
    )

/**
 * A document's account lines (items and expenses) never name a control account: the document
 * posts its control line itself, so a line there would cancel it (an invoice line on AR) or move
 * the other side's sub-ledger (a bill line on AR, a credit-memo line on AP).
 */
export const checkDocumentLines = (lines: ReadonlyArray<ControlledLine & { readonly path: Path }>): ApiError.LedgerError | null =>
  refuseControlLines(lines, "a document's lines go to income, expense or other accounts; its control account is its own.")

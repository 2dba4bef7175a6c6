import type { Banking } from "@ledger/api"
import * as Row from "../../kernel/Row.ts"

/**
 * Database rows of the banking tables as the API shows them. Every read of a banking record goes
 * through these (a bank rule's through rules/BankRuleStore.ts), so PGlite and PostgreSQL answers
 * look the same. This file sits below every banking folder: it imports none of them.
 */

type Records = typeof Banking.Records

export const statementImport = (row: Record<string, unknown>): Records["StatementImport"]["Type"] => ({
  id: Row.int(row.id),
  bank_account_id: Row.int(row.bank_account_id),
  format: row.format as "ofx" | "qfx" | "csv" | "feed",
  filename: row.filename === null ? null : String(row.filename),
  lines_read: Row.int(row.lines_read),
  lines_imported: Row.int(row.lines_imported),
  duplicates: Row.int(row.duplicates),
  first_date: row.first_date === null ? null : Row.date(row.first_date),
  last_date: row.last_date === null ? null : Row.date(row.last_date),
  statement_balance_cents: Row.intOrNull(row.statement_balance_cents),
  created_at: Row.iso(row.created_at),
  status: row.status === "importing" ? "importing" : "imported",
  lines_total: Row.intOrNull(row.lines_total)
})

export const bankLine = (
  row: Record<string, unknown>,
  suggestion: Records["RuleSuggestion"]["Type"] | null = null
): Records["BankLine"]["Type"] => ({
  id: Row.int(row.id),
  bank_account_id: Row.int(row.bank_account_id),
  status: row.status as Records["BankLine"]["Type"]["status"],
  date: Row.date(row.line_date),
  amount_cents: Row.int(row.amount_cents),
  payee: row.payee === null ? null : String(row.payee),
  memo: row.memo === null ? null : String(row.memo),
  check_number: row.check_number === null ? null : String(row.check_number),
  statement_id: row.statement_id === null ? null : String(row.statement_id),
  source: row.source as "file" | "feed",
  import_id: Row.intOrNull(row.import_id),
  pending: Boolean(row.pending),
  entry_id: Row.intOrNull(row.entry_id),
  proposal_id: Row.intOrNull(row.proposal_id),
  excluded_reason: row.excluded_reason === null ? null : String(row.excluded_reason),
  review: row.review === null ? null : String(row.review),
  suggestion: row.status === "unmatched" ? suggestion : null,
  created_at: Row.iso(row.created_at)
})

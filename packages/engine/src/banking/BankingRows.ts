import type { Banking } from "@ledger/api"
import * as Row from "../kernel/Row.ts"
import type * as BankRule from "./BankRuleRules.ts"

/**
 * Database rows of the banking tables as the API shows them. Every read of a banking record goes
 * through these, so PGlite and PostgreSQL answers look the same.
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
  created_at: Row.iso(row.created_at)
})

export const rule = (row: Record<string, unknown>): BankRule.Rule => ({
  id: Row.int(row.id),
  name: String(row.name),
  priority: Number(row.priority),
  createdAt: Row.iso(row.created_at),
  active: Boolean(row.active),
  bankAccountId: Row.intOrNull(row.bank_account_id),
  payeeContains: row.payee_contains === null ? null : String(row.payee_contains),
  direction: row.direction as BankRule.Rule["direction"],
  amountMinCents: Row.intOrNull(row.amount_min_cents),
  amountMaxCents: Row.intOrNull(row.amount_max_cents),
  account: String(row.account_code),
  className: row.class_name === null ? null : String(row.class_name),
  memo: row.memo === null ? null : String(row.memo)
})

export const ruleRecord = (row: Record<string, unknown>): Records["BankRule"]["Type"] => {
  const parsed = rule(row)
  return {
    id: parsed.id,
    name: parsed.name,
    priority: parsed.priority,
    bank_account_id: parsed.bankAccountId,
    payee_contains: parsed.payeeContains,
    direction: parsed.direction,
    amount_min_cents: parsed.amountMinCents,
    amount_max_cents: parsed.amountMaxCents,
    account: parsed.account,
    class: parsed.className,
    memo: parsed.memo,
    active: parsed.active,
    deactivated_reason: row.deactivated_reason === null ? null : String(row.deactivated_reason),
    created_at: parsed.createdAt
  }
}

export const suggestionOf = (found: BankRule.Rule | undefined): Records["RuleSuggestion"]["Type"] | null =>
  found === undefined
    ? null
    : { rule_id: found.id, rule_name: found.name, account: found.account, class: found.className, memo: found.memo }

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

export const facts = (row: Record<string, unknown>): BankRule.LineFacts => ({
  bankAccountId: Row.int(row.bank_account_id),
  amountCents: Row.int(row.amount_cents),
  payee: row.payee === null ? null : String(row.payee),
  memo: row.memo === null ? null : String(row.memo)
})

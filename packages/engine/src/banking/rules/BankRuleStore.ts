import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, type Banking } from "@ledger/api"
import { requireCompanyId } from "../../kernel/CompanyContext.ts"
import * as Row from "../../kernel/Row.ts"
import type * as BankRule from "./BankRuleRules.ts"

/**
 * Reads of bank rules shared by the rule operations and the bank lines' suggestions and
 * categorizations, and their rows as the rules read them and as the API shows them (so PGlite and
 * PostgreSQL answers look the same).
 */

type Records = typeof Banking.Records

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

export const facts = (row: Record<string, unknown>): BankRule.LineFacts => ({
  bankAccountId: Row.int(row.bank_account_id),
  amountCents: Row.int(row.amount_cents),
  payee: row.payee === null ? null : String(row.payee),
  memo: row.memo === null ? null : String(row.memo)
})

/** A rule with its account's code; the caller adds its conditions and order. */
export const selectRule = (sql: SqlClient.SqlClient, companyId: string) =>
  sql`SELECT r.*, a.code AS account_code FROM bank_rules r JOIN accounts a ON a.company_id = r.company_id AND a.id = r.account_id
    WHERE r.company_id = ${companyId}`

/**
 * A rule a categorization names is one of the caller's company's: an id from another company (or
 * none) is refused, never recorded as if it were this company's (issue 19 item 4).
 */
export const requireRule = Effect.fn("BankRuleStore.requireRule")(function*(ruleId: number) {
  const sql = yield* SqlClient.SqlClient
  const companyId = yield* requireCompanyId
  const rows = yield* sql`SELECT 1 FROM bank_rules WHERE company_id = ${companyId} AND id = ${ruleId}`.pipe(Effect.orDie)
  if (rows.length === 0) {
    return yield* Effect.fail(ApiError.validationFailed("No such bank rule in this company.", [
      { path: ["body", "rule_id"], message: "Unknown rule" }
    ]))
  }
})

/** The company's active rules, with their accounts' codes, for suggestions. */
export const activeRules = Effect.fn("BankRuleStore.activeRules")(function*() {
  const sql = yield* SqlClient.SqlClient
  const companyId = yield* requireCompanyId
  const rows = yield* sql<Record<string, unknown>>`SELECT r.*, a.code AS account_code FROM bank_rules r
    JOIN accounts a ON a.company_id = r.company_id AND a.id = r.account_id
    WHERE r.company_id = ${companyId} AND r.active ORDER BY r.priority, r.created_at, r.id`.pipe(Effect.orDie)
  return rows.map(rule)
})

import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, type Banking } from "@ledger/api"
import { requireCompanyId } from "../../kernel/CompanyContext.ts"
import { RequestContext } from "../../kernel/RequestContext.ts"
import * as Row from "../../kernel/Row.ts"
import * as BankRuleRules from "../rules/BankRuleRules.ts"
import * as BankRuleStore from "../rules/BankRuleStore.ts"
import * as BankingRows from "../common/BankingRows.ts"

/** Reads and state changes of bank lines shared by the line operations, payments and feeds. */

type Status = Banking.Records.BankLineStatus

/** A visible (not withdrawn) line of the company, locked for update; 404 otherwise. */
export const lockLine = Effect.fn("BankLineStore.lockLine")(function*(id: number) {
  const sql = yield* SqlClient.SqlClient
  const companyId = yield* requireCompanyId
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM bank_lines WHERE company_id = ${companyId} AND id = ${id}
    AND withdrawn_at IS NULL FOR UPDATE`.pipe(Effect.orDie)
  const row = rows[0]
  if (row === undefined) return yield* Effect.fail(ApiError.notFound("bank line"))
  return row
})

export const requireStatus = (row: Record<string, unknown>, allowed: ReadonlyArray<Status>, doing: string) =>
  allowed.includes(row.status as Status)
    ? Effect.void
    : Effect.fail(ApiError.fail("bank_line_state", `The line is ${String(row.status)}; only ${allowed.join(" or ")} lines can be ${doing}.`, {
      status: row.status,
      allowed
    }))

export const requirePosted = (row: Record<string, unknown>) =>
  row.pending === true
    ? Effect.fail(ApiError.fail("bank_line_state", "The bank has not posted this transaction yet (it is pending).", { pending: true }))
    : Effect.void

/** Sets a line's state; `fields` names the columns that change with it. */
export const update = Effect.fn("BankLineStore.update")(function*(id: number, fields: Record<string, unknown>) {
  const sql = yield* SqlClient.SqlClient
  const request = yield* RequestContext
  const companyId = yield* requireCompanyId
  const rows = yield* sql<Record<string, unknown>>`UPDATE bank_lines SET ${sql.update({ ...fields, updated_at: request.now })}
    WHERE company_id = ${companyId} AND id = ${id} RETURNING *`.pipe(Effect.orDie)
  return rows[0]!
})

/** Lines as the API shows them; unmatched ones carry the first matching rule's suggestion. */
export const present = Effect.fn("BankLineStore.present")(function*(rows: ReadonlyArray<Record<string, unknown>>) {
  const needsRules = rows.some((row) => row.status === "unmatched")
  const rules = needsRules ? yield* BankRuleStore.activeRules() : []
  return rows.map((row) =>
    BankingRows.bankLine(row, row.status === "unmatched" ? BankRuleStore.suggestionOf(BankRuleRules.firstMatch(rules, BankRuleStore.facts(row))) : null)
  )
})

export const presentOne = (row: Record<string, unknown>) => Effect.map(present([row]), (lines) => lines[0]!)

/** Whether a posted entry is cleared in a finished reconciliation of this bank account. */
export const clearedInFinished = Effect.fn("BankLineStore.clearedInFinished")(function*(bankAccountId: number, entryId: number) {
  const sql = yield* SqlClient.SqlClient
  const companyId = yield* requireCompanyId
  const rows = yield* sql<Record<string, unknown>>`SELECT r.id FROM reconciliation_items i
    JOIN reconciliations r ON r.company_id = i.company_id AND r.id = i.reconciliation_id
    WHERE i.company_id = ${companyId} AND i.bank_account_id = ${bankAccountId} AND i.entry_id = ${entryId}
      AND r.status = 'finished'`.pipe(Effect.orDie)
  return rows.length === 0 ? null : Row.int(rows[0]!.id)
})

/**
 * The effect of a posted entry on a bank's ledger account as a bank line states it (debits minus
 * credits: money into an asset, a payment onto a card), or undefined when there is no such entry.
 */
export const entryEffect = Effect.fn("BankLineStore.entryEffect")(function*(entryId: number, accountId: number) {
  const sql = yield* SqlClient.SqlClient
  const companyId = yield* requireCompanyId
  const entries = yield* sql<Record<string, unknown>>`SELECT e.id, e.entry_date,
      (SELECT r.id FROM journal_entries r WHERE r.company_id = e.company_id AND r.reverses_entry_id = e.id) AS reversed_by,
      (SELECT coalesce(sum(l.amount_cents), 0) FROM journal_lines l
        WHERE l.company_id = e.company_id AND l.entry_id = e.id AND l.account_id = ${accountId}) AS effect,
      (SELECT count(*) FROM journal_lines l
        WHERE l.company_id = e.company_id AND l.entry_id = e.id AND l.account_id = ${accountId}) AS touching
    FROM journal_entries e WHERE e.company_id = ${companyId} AND e.id = ${entryId}`.pipe(Effect.orDie)
  const row = entries[0]
  if (row === undefined) return undefined
  return {
    date: Row.date(row.entry_date),
    effectCents: Row.int(row.effect),
    touches: Row.int(row.touching) > 0,
    reversed: row.reversed_by !== null
  }
})

/** The visible lines linked to a posted entry, locked (an entry explains one line per bank account). */
export const linesOfEntry = Effect.fn("BankLineStore.linesOfEntry")(function*(entryId: number) {
  const sql = yield* SqlClient.SqlClient
  const companyId = yield* requireCompanyId
  return yield* sql<Record<string, unknown>>`SELECT * FROM bank_lines WHERE company_id = ${companyId} AND entry_id = ${entryId}
    AND withdrawn_at IS NULL ORDER BY id FOR UPDATE`.pipe(Effect.orDie)
})

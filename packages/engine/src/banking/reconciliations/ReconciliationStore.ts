import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, type Banking, Limits } from "@ledger/api"
import { requireCompanyId } from "../../kernel/CompanyContext.ts"
import * as Row from "../../kernel/Row.ts"
import * as BankAccounts from "../accounts/BankAccounts.ts"
import * as ReconciliationRules from "./ReconciliationRules.ts"

/**
 * Reads and writes of reconciliations shared by their operations: a reconciliation's row, its
 * cleared items and the entries it could still clear, its summary and detail as the API shows
 * them, and its report.
 */

type Item = typeof Banking.Records.ReconciliationItem.Type
type Rows = readonly [Record<string, unknown>, ...Array<Record<string, unknown>>]

export const load = Effect.fn("ReconciliationStore.load")(function*(id: number, lock: boolean) {
  const sql = yield* SqlClient.SqlClient
  const companyId = yield* requireCompanyId
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM reconciliations WHERE company_id = ${companyId} AND id = ${id}
    ${lock ? sql`FOR UPDATE` : sql``}`.pipe(Effect.orDie)
  if (rows[0] === undefined) return yield* Effect.fail(ApiError.notFound("reconciliation"))
  return rows[0]
})

export const requireInProgress = (row: Record<string, unknown>) =>
  row.status === "in_progress"
    ? Effect.void
    : Effect.fail(ApiError.fail("reconciliation_closed", `The reconciliation is ${String(row.status)}.`, { status: row.status }))

/** Net effect of entries on the ledger account up to a date, per entry, for those not cleared for this bank account. */
export const unclearedItems = Effect.fn("ReconciliationStore.unclearedItems")(function*(
  bank: Record<string, unknown>,
  through: string,
  options: { readonly entryIds?: ReadonlyArray<number>; readonly limit?: number } = {}
) {
  const sql = yield* SqlClient.SqlClient
  const companyId = yield* requireCompanyId
  const sign = BankAccounts.naturalSign(String(bank.account_type))
  const rows = yield* sql<Record<string, unknown>>`SELECT l.entry_id, e.entry_date, e.memo, sum(l.amount_cents) AS effect,
      (SELECT b.id FROM bank_lines b WHERE b.company_id = l.company_id AND b.bank_account_id = ${bank.id} AND b.entry_id = l.entry_id) AS line_id
    FROM journal_lines l JOIN journal_entries e ON e.company_id = l.company_id AND e.id = l.entry_id
    WHERE l.company_id = ${companyId} AND l.account_id = ${bank.account_id} AND e.entry_date <= ${through}
      AND NOT EXISTS (SELECT 1 FROM reconciliation_items i WHERE i.company_id = l.company_id
        AND i.bank_account_id = ${bank.id} AND i.entry_id = l.entry_id)
      ${options.entryIds === undefined ? sql`` : sql`AND l.entry_id IN ${sql.in(options.entryIds)}`}
    GROUP BY l.company_id, l.entry_id, e.entry_date, e.memo HAVING sum(l.amount_cents) <> 0
    ORDER BY e.entry_date, l.entry_id
    ${options.limit === undefined ? sql`` : sql`LIMIT ${options.limit}`}`.pipe(Effect.orDie)
  return rows.map((row): Item => ({
    entry_id: Row.int(row.entry_id),
    date: Row.date(row.entry_date),
    amount_cents: sign * Row.int(row.effect),
    memo: row.memo === null ? null : String(row.memo),
    bank_line_id: Row.intOrNull(row.line_id)
  }))
})

export const clearedItems = Effect.fn("ReconciliationStore.clearedItems")(function*(reconciliationId: number, bankAccountId: number) {
  const sql = yield* SqlClient.SqlClient
  const companyId = yield* requireCompanyId
  const rows = yield* sql<Record<string, unknown>>`SELECT i.*, e.memo,
      (SELECT b.id FROM bank_lines b WHERE b.company_id = i.company_id AND b.bank_account_id = ${bankAccountId} AND b.entry_id = i.entry_id) AS line_id
    FROM reconciliation_items i JOIN journal_entries e ON e.company_id = i.company_id AND e.id = i.entry_id
    WHERE i.company_id = ${companyId} AND i.reconciliation_id = ${reconciliationId}
    ORDER BY i.entry_date, i.entry_id`.pipe(Effect.orDie)
  return rows.map((row): Item => ({
    entry_id: Row.int(row.entry_id),
    date: Row.date(row.entry_date),
    amount_cents: Row.int(row.amount_cents),
    memo: row.memo === null ? null : String(row.memo),
    bank_line_id: Row.intOrNull(row.line_id)
  }))
})

const asItems = (items: ReadonlyArray<Item>): Array<ReconciliationRules.Item> =>
  items.map((item) => ({ entryId: item.entry_id, date: item.date, amountCents: item.amount_cents }))

export const summary = (row: Record<string, unknown>, cleared: ReadonlyArray<Item>) => {
  const beginning = Row.int(row.beginning_balance_cents)
  const ending = Row.int(row.statement_ending_balance_cents)
  return {
    id: Row.int(row.id),
    bank_account_id: Row.int(row.bank_account_id),
    status: row.status as typeof Banking.Records.ReconciliationStatus.Type,
    statement_date: Row.date(row.statement_date),
    beginning_balance_cents: beginning,
    statement_ending_balance_cents: ending,
    cleared_balance_cents: ReconciliationRules.clearedBalance(beginning, asItems(cleared)),
    difference_cents: ReconciliationRules.difference(ending, beginning, asItems(cleared)),
    cleared_count: cleared.length,
    finished_at: Row.isoOrNull(row.finished_at),
    reason: row.reason === null ? null : String(row.reason),
    created_at: Row.iso(row.created_at)
  }
}

export const detail = Effect.fn("ReconciliationStore.detail")(function*(row: Record<string, unknown>) {
  const bankAccountId = Row.int(row.bank_account_id)
  const cleared = yield* clearedItems(Row.int(row.id), bankAccountId)
  const candidates = row.status === "in_progress"
    ? yield* unclearedItems(yield* BankAccounts.load(bankAccountId), Row.date(row.statement_date), {
      limit: Limits.reconciliationChangeItemsMax
    })
    : []
  return { ...summary(row, cleared), cleared, candidates }
})

/** The last finished reconciliation of a bank account, if any. */
export const lastFinished = Effect.fn("ReconciliationStore.lastFinished")(function*(bankAccountId: number) {
  const sql = yield* SqlClient.SqlClient
  const companyId = yield* requireCompanyId
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM reconciliations WHERE company_id = ${companyId}
    AND bank_account_id = ${bankAccountId} AND status = 'finished' ORDER BY statement_date DESC, id DESC LIMIT 1`.pipe(Effect.orDie)
  return rows[0]
})

/** Clears entries in a reconciliation in progress after checking each one. */
export const clear = Effect.fn("ReconciliationStore.clear")(function*(
  row: Record<string, unknown>,
  bank: Record<string, unknown>,
  entryIds: ReadonlyArray<number>,
  statementDate: string
) {
  const sql = yield* SqlClient.SqlClient
  const companyId = yield* requireCompanyId
  const wanted = Array.from(new Set(entryIds))
  if (wanted.length === 0) return
  const candidates = new Map((yield* unclearedItems(bank, "9999-12-31", { entryIds: wanted })).map((item) => [item.entry_id, item]))
  const issues: Array<{ path: Array<string | number>; message: string }> = []
  const items: Array<Record<string, unknown>> = []
  wanted.forEach((entryId, index) => {
    const item = candidates.get(entryId)
    if (item === undefined) {
      issues.push({ path: ["body", "clear", index], message: `Entry ${entryId} does not move this bank account, or is already cleared` })
    } else if (item.date > statementDate) {
      issues.push({ path: ["body", "clear", index], message: `Entry ${entryId} is dated after the statement date` })
    } else {
      items.push({
        company_id: companyId,
        reconciliation_id: row.id,
        bank_account_id: bank.id,
        entry_id: entryId,
        entry_date: item.date,
        amount_cents: item.amount_cents
      })
    }
  })
  if (issues.length > 0) return yield* Effect.fail(ApiError.validationFailed("Some entries cannot be cleared.", issues))
  yield* sql`INSERT INTO reconciliation_items ${sql.insert(items as unknown as Rows)}`.pipe(Effect.orDie)
})

/** The report of a reconciliation: its cleared deposits and payments, what is uncleared, and the tie-out to the books. */
export const reportOf = Effect.fn("ReconciliationStore.reportOf")(function*(row: Record<string, unknown>) {
  const sql = yield* SqlClient.SqlClient
  const companyId = yield* requireCompanyId
  const bankAccountId = Row.int(row.bank_account_id)
  const bank = yield* BankAccounts.load(bankAccountId)
  const statementDate = Row.date(row.statement_date)
  const cleared = yield* clearedItems(Row.int(row.id), bankAccountId)
  // Uncleared: what the books have up to the statement date that this and earlier statements did not clear.
  const uncleared = yield* unclearedItems(bank, statementDate)
  const balance = yield* sql<{ net: unknown }>`SELECT coalesce(sum(debit_cents) - sum(credit_cents), 0) AS net
    FROM account_daily_totals WHERE company_id = ${companyId} AND account_id = ${bank.account_id}
    AND day <= ${statementDate}`.pipe(Effect.orDie)
  const book = BankAccounts.naturalSign(String(bank.account_type)) * Row.int(balance[0]!.net)
  const parts = ReconciliationRules.split(cleared.map((item) => ({ ...item, amountCents: item.amount_cents })))
  const strip = (items: ReadonlyArray<Item & { amountCents: number }>): Array<Item> =>
    items.map(({ amountCents: _, ...item }) => item)
  return {
    reconciliation: summary(row, cleared),
    cleared_deposits: strip(parts.deposits),
    cleared_payments: strip(parts.payments),
    uncleared,
    tie_out: ReconciliationRules.tieOut({
      beginningCents: Row.int(row.beginning_balance_cents),
      statementEndingCents: Row.int(row.statement_ending_balance_cents),
      cleared: asItems(cleared),
      uncleared: asItems(uncleared),
      bookBalanceCents: book
    })
  }
})

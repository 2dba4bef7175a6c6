import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Banking } from "@ledger/api"
import * as Handler from "../../kernel/Handler.ts"
import { requireCompanyId } from "../../kernel/CompanyContext.ts"
import * as Outbox from "../../pipeline/Outbox.ts"
import * as Pagination from "../../kernel/Pagination.ts"
import { RequestContext } from "../../kernel/RequestContext.ts"
import * as Row from "../../kernel/Row.ts"
import * as BankAccounts from "../accounts/BankAccounts.ts"
import * as ReconciliationStore from "./ReconciliationStore.ts"

/**
 * Reconciliations (spec 3.6): clear the posted entries a bank statement shows, finish at zero
 * difference, cancel, undo the latest finished one. Items are entries, each counted by its net
 * effect on the bank's ledger account in the account's natural direction (a card's balance owed
 * is positive).
 */

type Item = typeof Banking.Records.ReconciliationItem.Type

export const handlers = [
  Handler.make(Banking.Reconciliations.startReconciliation, ({ path, body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const companyId = yield* requireCompanyId
      const bank = yield* BankAccounts.load(path.id, "update")
      const running = yield* sql<Record<string, unknown>>`SELECT id FROM reconciliations WHERE company_id = ${companyId}
        AND bank_account_id = ${path.id} AND status = 'in_progress'`.pipe(Effect.orDie)
      if (running[0] !== undefined) {
        return yield* Effect.fail(ApiError.fail("reconciliation_in_progress", "This bank account already has a reconciliation in progress.", {
          reconciliation_id: Row.int(running[0].id)
        }))
      }
      const last = yield* ReconciliationStore.lastFinished(path.id)
      if (last !== undefined && body.statement_date <= Row.date(last.statement_date)) {
        return yield* Effect.fail(ApiError.validationFailed(`The statement date must be after the last reconciled statement (${Row.date(last.statement_date)}).`, [
          { path: ["body", "statement_date"], message: "Not after the last reconciled statement" }
        ]))
      }
      const inserted = yield* sql<Record<string, unknown>>`INSERT INTO reconciliations ${sql.insert({
        company_id: companyId,
        bank_account_id: path.id,
        statement_date: body.statement_date,
        beginning_balance_cents: last === undefined ? 0 : Row.int(last.statement_ending_balance_cents),
        statement_ending_balance_cents: body.statement_ending_balance_cents,
        created_at: request.now
      })} RETURNING *`.pipe(Effect.orDie)
      const row = inserted[0]!
      if (body.auto_clear === true) {
        // The entries the bank has confirmed: those linked to this account's lines up to the statement date.
        const linked = (yield* ReconciliationStore.unclearedItems(bank, body.statement_date)).filter((item) => item.bank_line_id !== null)
        yield* ReconciliationStore.clear(row, bank, linked.map((item) => item.entry_id), body.statement_date)
      }
      const result = yield* ReconciliationStore.detail(row)
      return {
        body: result,
        audit: { targetType: "reconciliation", targetId: result.id, details: { bank_account_id: path.id, statement_date: body.statement_date } }
      }
    })),

  Handler.make(Banking.Reconciliations.listReconciliations, ({ query }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const companyId = yield* requireCompanyId
      const select = (after: number | null, limitPlusOne: number) =>
        sql<Record<string, unknown>>`SELECT * FROM reconciliations WHERE company_id = ${companyId}
        ${query.bank_account_id === undefined ? sql`` : sql`AND bank_account_id = ${query.bank_account_id}`}
        ${after === null ? sql`` : sql`AND id < ${after}`} ORDER BY id DESC LIMIT ${limitPlusOne}`.pipe(Effect.orDie)
      const load = (shown: ReadonlyArray<Record<string, unknown>>) =>
        Effect.forEach(shown, (row) =>
          Effect.map(ReconciliationStore.clearedItems(Row.int(row.id), Row.int(row.bank_account_id)), (cleared) => ReconciliationStore.summary(row, cleared)))
      return { body: yield* Pagination.listPageLoaded(query, select, (row) => Row.int(row.id), load) }
    })),

  Handler.make(Banking.Reconciliations.getReconciliation, ({ path }) =>
    Effect.gen(function*() {
      return { body: yield* ReconciliationStore.detail(yield* ReconciliationStore.load(path.id, false)) }
    })),

  Handler.make(Banking.Reconciliations.updateReconciliation, ({ path, body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const companyId = yield* requireCompanyId
      let row = yield* ReconciliationStore.load(path.id, true)
      yield* ReconciliationStore.requireInProgress(row)
      const bank = yield* BankAccounts.load(Row.int(row.bank_account_id), "share")
      const changes: Record<string, unknown> = {}
      if (body.statement_date !== undefined) {
        const last = yield* ReconciliationStore.lastFinished(Row.int(row.bank_account_id))
        if (last !== undefined && body.statement_date <= Row.date(last.statement_date)) {
          return yield* Effect.fail(ApiError.validationFailed("The statement date must be after the last reconciled statement.", [
            { path: ["body", "statement_date"], message: "Not after the last reconciled statement" }
          ]))
        }
        changes.statement_date = body.statement_date
      }
      if (body.statement_ending_balance_cents !== undefined) changes.statement_ending_balance_cents = body.statement_ending_balance_cents
      if (Object.keys(changes).length > 0) {
        row = (yield* sql<Record<string, unknown>>`UPDATE reconciliations SET ${sql.update(changes)}
          WHERE company_id = ${companyId} AND id = ${path.id} RETURNING *`.pipe(Effect.orDie))[0]!
      }
      const statementDate = Row.date(row.statement_date)
      if (body.unclear !== undefined && body.unclear.length > 0) {
        yield* sql`DELETE FROM reconciliation_items WHERE company_id = ${companyId} AND reconciliation_id = ${path.id}
          AND entry_id IN ${sql.in(Array.from(new Set(body.unclear)))}`.pipe(Effect.orDie)
      }
      if (body.clear !== undefined) yield* ReconciliationStore.clear(row, bank, body.clear, statementDate)
      const late = yield* sql`SELECT entry_id FROM reconciliation_items WHERE company_id = ${companyId}
        AND reconciliation_id = ${path.id} AND entry_date > ${statementDate} LIMIT 1`.pipe(Effect.orDie)
      if (late.length > 0) {
        return yield* Effect.fail(ApiError.validationFailed("Cleared entries are dated after the new statement date: unclear them first.", [
          { path: ["body", "statement_date"], message: "Before cleared entries" }
        ]))
      }
      const result = yield* ReconciliationStore.detail(row)
      return {
        body: result,
        audit: {
          targetType: "reconciliation",
          targetId: path.id,
          details: { cleared: body.clear?.length ?? 0, uncleared: body.unclear?.length ?? 0, changed: Object.keys(changes) }
        }
      }
    })),

  Handler.make(Banking.Reconciliations.finishReconciliation, ({ path }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const companyId = yield* requireCompanyId
      const row = yield* ReconciliationStore.load(path.id, true)
      yield* ReconciliationStore.requireInProgress(row)
      const current = yield* ReconciliationStore.detail(row)
      if (current.difference_cents !== 0) {
        return yield* Effect.fail(ApiError.fail("reconciliation_not_balanced", `The difference is ${current.difference_cents} cents; finish needs zero.`, {
          difference_cents: current.difference_cents,
          cleared_balance_cents: current.cleared_balance_cents,
          statement_ending_balance_cents: current.statement_ending_balance_cents
        }))
      }
      const updated = yield* sql<Record<string, unknown>>`UPDATE reconciliations SET status = 'finished', finished_at = ${request.now}
        WHERE company_id = ${companyId} AND id = ${path.id} RETURNING *`.pipe(Effect.orDie)
      yield* Outbox.emit("reconciliation.finished", {
        reconciliation_id: path.id,
        bank_account_id: current.bank_account_id,
        statement_date: current.statement_date,
        statement_ending_balance_cents: current.statement_ending_balance_cents,
        cleared_count: current.cleared_count
      }).pipe(Effect.orDie)
      return {
        body: yield* ReconciliationStore.detail(updated[0]!),
        audit: { targetType: "reconciliation", targetId: path.id, details: { statement_date: current.statement_date } }
      }
    })),

  Handler.make(Banking.Reconciliations.cancelReconciliation, ({ path, body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const companyId = yield* requireCompanyId
      const row = yield* ReconciliationStore.load(path.id, true)
      yield* ReconciliationStore.requireInProgress(row)
      const updated = yield* sql<Record<string, unknown>>`UPDATE reconciliations SET status = 'cancelled', reason = ${body.reason}
        WHERE company_id = ${companyId} AND id = ${path.id} RETURNING *`.pipe(Effect.orDie)
      yield* sql`DELETE FROM reconciliation_items WHERE company_id = ${companyId} AND reconciliation_id = ${path.id}`.pipe(Effect.orDie)
      return {
        body: ReconciliationStore.summary(updated[0]!, []),
        audit: { targetType: "reconciliation", targetId: path.id, reason: body.reason }
      }
    })),

  Handler.make(Banking.Reconciliations.undoReconciliation, ({ path, body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const companyId = yield* requireCompanyId
      const row = yield* ReconciliationStore.load(path.id, true)
      if (row.status !== "finished") {
        return yield* Effect.fail(ApiError.fail("reconciliation_closed", `Only a finished reconciliation can be undone; this one is ${String(row.status)}.`))
      }
      const bankAccountId = Row.int(row.bank_account_id)
      yield* BankAccounts.load(bankAccountId, "update")
      const last = yield* ReconciliationStore.lastFinished(bankAccountId)
      if (last === undefined || Row.int(last.id) !== path.id) {
        return yield* Effect.fail(ApiError.fail("reconciliation_not_latest", "Only the latest finished reconciliation of a bank account can be undone.", {
          latest_reconciliation_id: last === undefined ? null : Row.int(last.id)
        }))
      }
      const statementDate = Row.date(row.statement_date)
      const locked = yield* sql<Record<string, unknown>>`SELECT id, status, start_date, end_date FROM periods
        WHERE company_id = ${companyId} AND end_date >= ${statementDate} AND status <> 'open'
        ORDER BY start_date LIMIT 1 FOR SHARE`.pipe(Effect.orDie)
      if (locked[0] !== undefined) {
        return yield* Effect.fail(ApiError.fail("period_locked", "A period containing or after the statement date is locked: reopen it first.", {
          period_id: Row.int(locked[0].id),
          period_status: locked[0].status,
          start_date: Row.date(locked[0].start_date),
          end_date: Row.date(locked[0].end_date)
        }))
      }
      const cleared = yield* ReconciliationStore.clearedItems(path.id, bankAccountId)
      const updated = yield* sql<Record<string, unknown>>`UPDATE reconciliations SET status = 'undone', reason = ${body.reason}
        WHERE company_id = ${companyId} AND id = ${path.id} RETURNING *`.pipe(Effect.orDie)
      yield* sql`DELETE FROM reconciliation_items WHERE company_id = ${companyId} AND reconciliation_id = ${path.id}`.pipe(Effect.orDie)
      return {
        body: ReconciliationStore.summary(updated[0]!, cleared),
        audit: {
          targetType: "reconciliation",
          targetId: path.id,
          reason: body.reason,
          details: { released_entry_ids: cleared.map((item) => item.entry_id) }
        }
      }
    })),

  Handler.make(Banking.Reconciliations.getReconciliationReport, ({ path, query }) =>
    Effect.gen(function*() {
      const row = yield* ReconciliationStore.load(path.id, false)
      const statementDate = Row.date(row.statement_date)
      const report = yield* ReconciliationStore.reportOf(row)
      if (query.format !== "csv") return { body: report }
      return { body: { format: "csv" as const, filename: `reconciliation-${path.id}-${statementDate}.csv`, content: reportCsv(report) } }
    }))
] as const

/** RFC 4180 fields; text a spreadsheet would run as a formula gets an apostrophe (docs/decisions/0204). */
const csvField = (value: string | number | null): string => {
  let text = value === null ? "" : String(value)
  if (typeof value === "string" && /^[=+\-@\t\r]/u.test(text)) text = `'${text}`
  return /[",\n\r]/u.test(text) ? `"${text.replace(/"/gu, "\"\"")}"` : text
}

/** Cents as a decimal string with two places, by integer arithmetic. */
export const decimal = (cents: number): string => {
  const size = Math.abs(cents)
  return `${cents < 0 ? "-" : ""}${Math.floor(size / 100)}.${String(size % 100).padStart(2, "0")}`
}

/** The report as CSV: one row per item, then the tie-out (amounts as decimals, like every report's CSV). */
export const reportCsv = (report: {
  readonly reconciliation: { readonly statement_date: string }
  readonly cleared_deposits: ReadonlyArray<Item>
  readonly cleared_payments: ReadonlyArray<Item>
  readonly uncleared: ReadonlyArray<Item>
  readonly tie_out: Record<string, number>
}): string => {
  const rows: Array<Array<string | number | null>> = [["section", "entry_id", "date", "amount", "memo", "bank_line_id"]]
  for (const [section, items] of [
    ["cleared_deposit", report.cleared_deposits],
    ["cleared_payment", report.cleared_payments],
    ["uncleared", report.uncleared]
  ] as const) {
    for (const item of items) rows.push([section, item.entry_id, item.date, decimal(item.amount_cents), item.memo, item.bank_line_id])
  }
  for (const [name, value] of Object.entries(report.tie_out)) {
    rows.push(["tie_out", null, report.reconciliation.statement_date, decimal(value), name.replace(/_cents$/u, ""), null])
  }
  return rows.map((row) => row.map(csvField).join(",")).join("\r\n") + "\r\n"
}

import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, type Payroll } from "@ledger/api"
import * as Row from "../kernel/Row.ts"
import { LedgerReaders } from "../ledger/index.ts"
import type * as Rules from "./PayrollCsvRules.ts"

export const record = (row: Record<string, unknown>): Payroll.PayrollYtd.PayrollImport => ({
  id: Row.int(row.id),
  tax_year: Row.int(row.tax_year),
  provider: String(row.provider),
  period_through: Row.date(row.period_through),
  switch_id: Row.intOrNull(row.switch_id),
  status: row.status as "imported" | "void",
  columns: Row.json(row.columns),
  employee_count: Row.int(row.employee_count),
  totals: Row.json(row.totals),
  summary_entry_id: Row.intOrNull(row.summary_entry_id),
  void_entry_id: Row.intOrNull(row.void_entry_id),
  void_reason: (row.void_reason as string | null) ?? null,
  created_by: String(row.created_by),
  created_at: Row.iso(row.created_at),
  voided_at: Row.isoOrNull(row.voided_at)
})

export const load = Effect.fn("PayrollStore.load")(function*(company: string, id: number, lock = false) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM payroll_imports WHERE company_id = ${company} AND id = ${id}
    ${lock ? sql`FOR UPDATE` : sql``}`.pipe(Effect.orDie)
  if (rows[0] === undefined) return yield* Effect.fail(ApiError.notFound("payroll import"))
  return record(rows[0])
})

export const ofYear = Effect.fn("PayrollStore.ofYear")(function*(company: string, year: number) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM payroll_imports WHERE company_id = ${company} AND tax_year = ${year}
    ORDER BY id`.pipe(Effect.orDie)
  return rows.map(record)
})

export interface NewImport {
  readonly taxYear: number
  readonly provider: string
  readonly periodThrough: string
  readonly switchId: number | null
  readonly columns: ReadonlyArray<string>
  readonly rows: ReadonlyArray<Rules.EmployeeRow>
  readonly totals: Payroll.PayrollYtd.Totals
  readonly createdBy: string
  readonly now: string
}

export const insert = Effect.fn("PayrollStore.insert")(function*(company: string, input: NewImport) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`INSERT INTO payroll_imports ${sql.insert({
    company_id: company,
    tax_year: input.taxYear,
    provider: input.provider,
    period_through: input.periodThrough,
    switch_id: input.switchId,
    columns: JSON.stringify(input.columns),
    employee_count: input.rows.length,
    totals: JSON.stringify(input.totals),
    gross_wages_cents: input.totals.gross_wages_cents,
    created_by: input.createdBy,
    created_at: input.now
  })} RETURNING *`.pipe(Effect.orDie)
  const created = record(rows[0]!)
  for (let start = 0; start < input.rows.length; start += 500) {
    const chunk = input.rows.slice(start, start + 500).map((row) => ({
      company_id: company,
      import_id: created.id,
      line_no: row.line,
      employee: row.employee,
      amounts: JSON.stringify(row.amounts)
    }))
    yield* sql`INSERT INTO payroll_import_rows ${sql.insert(chunk as unknown as readonly [Record<string, unknown>])}`.pipe(Effect.orDie)
  }
  return created
})

export const markVoid = Effect.fn("PayrollStore.markVoid")(function*(company: string, id: number, reason: string, voidEntryId: number | null, now: string) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`UPDATE payroll_imports SET status = 'void', void_reason = ${reason}, void_entry_id = ${voidEntryId}, voided_at = ${now}
    WHERE company_id = ${company} AND id = ${id}`.pipe(Effect.orDie)
})

export const linkSummary = Effect.fn("PayrollStore.linkSummary")(function*(company: string, id: number, entryId: number) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`UPDATE payroll_imports SET summary_entry_id = ${entryId} WHERE company_id = ${company} AND id = ${id}`.pipe(Effect.orDie)
})

/**
 * Wages the account already holds for the year from entries other than payroll summaries (net
 * debits of journal lines dated in the tax year): what makes a summary entry a double count.
 */
export const otherWagesInYear = (company: string, account: string, year: number) =>
  LedgerReaders.netDebits(company, { codes: [account], from: `${year}-01-01`, to: `${year}-12-31`, excludeSourceKinds: ["payroll_summary", "payroll_summary_void"] })

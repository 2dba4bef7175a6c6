import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Limits } from "@ledger/api"
import { RequestContext } from "../../kernel/RequestContext.ts"
import * as Row from "../../kernel/Row.ts"
import * as AccountStore from "../accounts/AccountStore.ts"
import * as FiscalYear from "./FiscalYear.ts"

/**
 * Creating periods: one company at a time (an advisory lock), never overlapping an existing period,
 * never past the per-company limit. Periods.ts answers the HTTP operations with these.
 */

/** Creating periods in a company one at a time keeps the no-overlap rule true without a range index. */
export const lockCompanyPeriods = Effect.fn("Periods.lockCompany")(function*(companyId: string) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`SELECT pg_advisory_xact_lock(hashtext(${`${companyId}:periods`}))`.pipe(Effect.orDie)
})

export const overlapping = Effect.fn("Periods.overlapping")(function*(companyId: string, range: FiscalYear.DateRange) {
  const sql = yield* SqlClient.SqlClient
  return yield* sql<Record<string, unknown>>`SELECT * FROM periods WHERE company_id = ${companyId}
    AND start_date <= ${range.end} AND end_date >= ${range.start} ORDER BY start_date`.pipe(Effect.orDie)
})

export const countPeriods = Effect.fn("Periods.count")(function*(companyId: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ count: unknown }>`SELECT count(*) AS count FROM periods WHERE company_id = ${companyId}`.pipe(Effect.orDie)
  return Row.int(rows[0]!.count)
})

export const insertPeriods = Effect.fn("Periods.insert")(function*(companyId: string, ranges: ReadonlyArray<FiscalYear.DateRange>) {
  const sql = yield* SqlClient.SqlClient
  const request = yield* RequestContext
  if (ranges.length === 0) return []
  return yield* sql<Record<string, unknown>>`INSERT INTO periods ${sql.insert(AccountStore.rows(ranges.map((range) => ({
    company_id: companyId,
    start_date: range.start,
    end_date: range.end,
    created_at: request.now
  }))))} RETURNING *`.pipe(Effect.orDie)
})

/**
 * Creates the monthly periods of a fiscal year that no existing period touches, and returns the
 * rows created. Used at company creation and by `POST /v1/fiscal-years/periods`.
 */
export const createMonthly = Effect.fn("Periods.createMonthly")(function*(
  companyId: string,
  fiscalYear: number,
  startMonth: number
) {
  yield* lockCompanyPeriods(companyId)
  const year = FiscalYear.range(fiscalYear, startMonth)
  const existing = (yield* overlapping(companyId, year)).map((row) => ({
    start: Row.date(row.start_date),
    end: Row.date(row.end_date)
  }))
  const missing = FiscalYear.months(fiscalYear, startMonth)
    .filter((month) => !existing.some((period) => FiscalYear.overlaps(period, month)))
  if ((yield* countPeriods(companyId)) + missing.length > Limits.periodsPerCompanyMax) {
    return yield* Effect.fail(ApiError.validationFailed(`A company has at most ${Limits.periodsPerCompanyMax} periods.`))
  }
  return yield* insertPeriods(companyId, missing)
})

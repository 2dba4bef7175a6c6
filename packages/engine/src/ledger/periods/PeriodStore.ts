import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { requireCompanyId } from "../../kernel/CompanyContext.ts"
import * as Row from "../../kernel/Row.ts"
import type * as PeriodRules from "./PeriodRules.ts"

/**
 * The period of a date, as the posting path reads it: its status decides whether an entry dated
 * there posts (entries/PostingPolicy.ts). A posting holds the row FOR SHARE; a status change
 * (Periods.ts) takes it FOR UPDATE.
 */

export interface PeriodOnDate {
  readonly id: number
  readonly status: PeriodRules.Status
  readonly startDate: string
  readonly endDate: string
}

/** Of periods already read, the one containing a date, or null when none does (such dates are open). */
export const periodContaining = (periods: ReadonlyArray<PeriodOnDate>, date: string): PeriodOnDate | null =>
  periods.find((held) => held.startDate <= date && held.endDate >= date) ?? null

/**
 * The period containing a date, or null when none does (such dates are open). `share` holds the
 * row FOR SHARE until the transaction ends, so a concurrent status change (FOR UPDATE) waits for
 * this posting and a posting waits for a status change in progress, then sees its result.
 */
export const periodOn = Effect.fn("PeriodStore.periodOn")(function*(date: string, lock: "share" | "none" = "none") {
  const sql = yield* SqlClient.SqlClient
  const companyId = yield* requireCompanyId
  const rows = yield* sql<Record<string, unknown>>`SELECT id, status, start_date, end_date FROM periods
    WHERE company_id = ${companyId} AND start_date <= ${date} AND end_date >= ${date}
    ${lock === "share" ? sql`FOR SHARE` : sql``}`.pipe(Effect.orDie)
  const row = rows[0]
  return row === undefined ? null : periodOf(row)
})

/** A `periods` row as the period of a date. */
export const periodOf = (row: Record<string, unknown>): PeriodOnDate => ({
  id: Row.int(row.id),
  status: row.status as PeriodRules.Status,
  startDate: Row.date(row.start_date),
  endDate: Row.date(row.end_date)
})

import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Ledger, Limits } from "@ledger/api"
import * as Audit from "../../pipeline/Audit.ts"
import * as Handler from "../../kernel/Handler.ts"
import * as Outbox from "../../pipeline/Outbox.ts"
import { RequestContext } from "../../kernel/RequestContext.ts"
import * as Row from "../../kernel/Row.ts"
import { fiscalYearStartMonth, requireCompanyId } from "../../kernel/CompanyContext.ts"
import * as Cursor from "../../kernel/Cursor.ts"
import * as FiscalYear from "./FiscalYear.ts"
import * as PeriodCreation from "./PeriodCreation.ts"
import * as PeriodRules from "./PeriodRules.ts"

/**
 * Periods and fiscal years: creating them, listing them and moving their status (spec 3.2).
 * A status change takes the period row FOR UPDATE; postings hold it FOR SHARE (PeriodStore.periodOn),
 * so a hard lock and a posting into its period never both commit with the posting unseen.
 */

const operations = Ledger.Periods
type Period = Ledger.Records.Period

const toPeriod = (row: Record<string, unknown>, startMonth: number): Period => {
  const endDate = Row.date(row.end_date)
  return {
    id: Row.int(row.id),
    start_date: Row.date(row.start_date),
    end_date: endDate,
    fiscal_year: FiscalYear.containing(endDate, startMonth),
    status: row.status as Period["status"],
    status_reason: row.status_reason === null ? null : String(row.status_reason),
    status_changed_at: Row.isoOrNull(row.status_changed_at),
    created_at: Row.iso(row.created_at)
  }
}

/** Kept here so callers (company setup) still reach it as `Periods.createMonthly`. */
export const createMonthly = PeriodCreation.createMonthly

/**
 * The periods of a fiscal year (those ending within it, as `fiscal_year` says), in date order;
 * `lock` takes them FOR UPDATE, in that order, so two year-wide changes never deadlock.
 */
const periodsOfYear = Effect.fn("Periods.ofYear")(function*(companyId: string, range: FiscalYear.DateRange, lock: boolean) {
  const sql = yield* SqlClient.SqlClient
  return yield* sql<Record<string, unknown>>`SELECT * FROM periods WHERE company_id = ${companyId}
    AND end_date >= ${range.start} AND end_date <= ${range.end} ORDER BY start_date
    ${lock ? sql`FOR UPDATE` : sql``}`.pipe(Effect.orDie)
})

const refuseTransition = (verdict: PeriodRules.Verdict, period: Period) => {
  if (verdict._tag !== "Refused") return Effect.void
  if (verdict.type === "validation_failed") {
    return Effect.fail(ApiError.validationFailed(verdict.message, [{ path: ["body", "reason"], message: "Required to reopen a hard lock, other than the lock's own reason" }]))
  }
  return Effect.fail(ApiError.fail(verdict.type, verdict.message, {
    period_id: period.id,
    from: period.status
  }))
}

/** Moves one locked period row to `status`, emitting `period.status_changed`. */
const applyStatus = Effect.fn("Periods.applyStatus")(function*(
  companyId: string,
  period: Period,
  status: Period["status"],
  reason: string | null,
  startMonth: number
) {
  const sql = yield* SqlClient.SqlClient
  const request = yield* RequestContext
  const rows = yield* sql<Record<string, unknown>>`UPDATE periods SET status = ${status}, status_reason = ${reason},
      status_changed_at = ${request.now}, status_changed_by = ${`${request.actor.type}:${request.actor.id ?? ""}`}
    WHERE company_id = ${companyId} AND id = ${period.id} RETURNING *`.pipe(Effect.orDie)
  const updated = toPeriod(rows[0]!, startMonth)
  yield* Outbox.emit("period.status_changed", {
    period_id: updated.id,
    start_date: updated.start_date,
    end_date: updated.end_date,
    from: period.status,
    to: updated.status,
    reason
  }).pipe(Effect.orDie)
  return updated
})

export const handlers = [
  Handler.make(operations.createPeriod, ({ body }) =>
    Effect.gen(function*() {
      const companyId = yield* requireCompanyId
      const startMonth = yield* fiscalYearStartMonth(companyId)
      const range = { start: body.start_date, end: body.end_date }
      if (range.end < range.start) {
        return yield* Effect.fail(ApiError.validationFailed("A period ends on or after its start.", [{
          path: ["body", "end_date"],
          message: "Before start_date"
        }]))
      }
      if (FiscalYear.lengthInDays(range) > Limits.periodDaysMax) {
        return yield* Effect.fail(ApiError.validationFailed(`A period is at most ${Limits.periodDaysMax} days long.`, [{
          path: ["body", "end_date"],
          message: `More than ${Limits.periodDaysMax} days after start_date`
        }]))
      }
      yield* PeriodCreation.lockCompanyPeriods(companyId)
      const clashes = yield* PeriodCreation.overlapping(companyId, range)
      if (clashes.length > 0) {
        return yield* Effect.fail(ApiError.fail("conflict", "The period overlaps an existing period.", {
          overlapping_period_ids: clashes.map((row) => Row.int(row.id))
        }))
      }
      if ((yield* PeriodCreation.countPeriods(companyId)) >= Limits.periodsPerCompanyMax) {
        return yield* Effect.fail(ApiError.validationFailed(`A company has at most ${Limits.periodsPerCompanyMax} periods.`))
      }
      const rows = yield* PeriodCreation.insertPeriods(companyId, [range])
      const period = toPeriod(rows[0]!, startMonth)
      return { body: period, audit: { targetType: "period", targetId: period.id } }
    })),

  Handler.make(operations.listPeriods, ({ query }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const companyId = yield* requireCompanyId
      const startMonth = yield* fiscalYearStartMonth(companyId)
      const limit = Math.min(query.limit ?? Limits.pageSizeDefault, Limits.pageSizeMax)
      const after = yield* Cursor.decode(query.cursor)
      if (after !== null && !/^\d{4}-\d{2}-\d{2}$/.test(after)) {
        return yield* Effect.fail(ApiError.invalidRequest([{ path: ["query", "cursor"], message: "Not a cursor this server issued" }]))
      }
      const year = query.fiscal_year === undefined ? null : FiscalYear.range(query.fiscal_year, startMonth)
      const rows = yield* sql<Record<string, unknown>>`SELECT * FROM periods WHERE company_id = ${companyId}
        ${year === null ? sql`` : sql`AND end_date >= ${year.start} AND end_date <= ${year.end}`}
        ${query.status === undefined ? sql`` : sql`AND status = ${query.status}`}
        ${after === null ? sql`` : sql`AND start_date > ${after}`}
        ORDER BY start_date LIMIT ${limit + 1}`.pipe(Effect.orDie)
      const shown = rows.slice(0, limit).map((row) => toPeriod(row, startMonth))
      const hasMore = rows.length > limit
      return {
        body: { data: shown, has_more: hasMore, next_cursor: hasMore ? Cursor.encode(shown[shown.length - 1]!.start_date) : null }
      }
    })),

  Handler.make(operations.setPeriodStatus, ({ body, path }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const companyId = yield* requireCompanyId
      const startMonth = yield* fiscalYearStartMonth(companyId)
      // FOR UPDATE: waits for postings holding the row FOR SHARE, and makes new ones wait for us.
      const rows = yield* sql<Record<string, unknown>>`SELECT * FROM periods WHERE company_id = ${companyId} AND id = ${path.id}
        FOR UPDATE`.pipe(Effect.orDie)
      if (rows[0] === undefined) return yield* Effect.fail(ApiError.notFound("period"))
      const period = toPeriod(rows[0], startMonth)
      const reason = body.reason ?? null
      const verdict = PeriodRules.check({ from: period.status, to: body.status, actorIsPerson: request.actor.isPerson, reason, lockReason: period.status_reason })
      yield* refuseTransition(verdict, period)
      if (verdict._tag === "Unchanged") {
        return { body: period, audit: { targetType: "period", targetId: period.id, reason, details: { unchanged: true } } }
      }
      const updated = yield* applyStatus(companyId, period, body.status, reason, startMonth)
      return {
        body: updated,
        audit: { targetType: "period", targetId: period.id, reason, details: { from: period.status, to: updated.status } }
      }
    })),

  Handler.make(operations.createFiscalYearPeriods, ({ body }) =>
    Effect.gen(function*() {
      const companyId = yield* requireCompanyId
      const startMonth = yield* fiscalYearStartMonth(companyId)
      const created = (yield* PeriodCreation.createMonthly(companyId, body.fiscal_year, startMonth)).map((row) => toPeriod(row, startMonth))
      const range = FiscalYear.range(body.fiscal_year, startMonth)
      const periods = (yield* periodsOfYear(companyId, range, false)).map((row) => toPeriod(row, startMonth))
      return {
        body: { fiscal_year: body.fiscal_year, start_date: range.start, end_date: range.end, created, periods },
        audit: { targetType: "fiscal_year", targetId: body.fiscal_year, details: { periods_created: created.length } }
      }
    })),

  Handler.make(operations.setFiscalYearStatus, ({ body }) =>
    Effect.gen(function*() {
      const request = yield* RequestContext
      const companyId = yield* requireCompanyId
      const startMonth = yield* fiscalYearStartMonth(companyId)
      const range = FiscalYear.range(body.fiscal_year, startMonth)
      const periods = (yield* periodsOfYear(companyId, range, true)).map((row) => toPeriod(row, startMonth))
      if (periods.length === 0) {
        return yield* Effect.fail(ApiError.fail("period_not_found", `Fiscal year ${body.fiscal_year} has no periods.`, {
          start_date: range.start,
          end_date: range.end
        }))
      }
      const reason = body.reason ?? null
      // All or none: every period's transition is checked before any changes.
      for (const period of periods) {
        const verdict = PeriodRules.check({ from: period.status, to: body.status, actorIsPerson: request.actor.isPerson, reason, lockReason: period.status_reason })
        yield* refuseTransition(verdict, period)
      }
      const changed: Array<Period> = []
      const after: Array<Period> = []
      for (const period of periods) {
        if (period.status === body.status) {
          after.push(period)
          continue
        }
        const updated = yield* applyStatus(companyId, period, body.status, reason, startMonth)
        // Each period's change is an audit event of its own, beside the request's.
        yield* Audit.record({
          companyId,
          occurredAt: request.now,
          action: "period.status_changed",
          outcome: "ok",
          status: 200,
          actor: request.actor,
          agentModel: request.agentModel,
          agentRunId: request.agentRunId,
          targetType: "period",
          targetId: period.id,
          reason,
          via: request.via,
          details: { from: period.status, to: updated.status, fiscal_year: body.fiscal_year }
        }).pipe(Effect.orDie)
        changed.push(updated)
        after.push(updated)
      }
      return {
        body: { fiscal_year: body.fiscal_year, status: body.status, changed, periods: after },
        audit: {
          targetType: "fiscal_year",
          targetId: body.fiscal_year,
          reason,
          details: {
            to: body.status,
            changes: changed.map((period) => ({
              period_id: period.id,
              from: periods.find((before) => before.id === period.id)!.status,
              to: period.status
            }))
          }
        }
      }
    }))
] as const

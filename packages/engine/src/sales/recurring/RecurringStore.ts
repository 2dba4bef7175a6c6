import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Limits, type Sales } from "@ledger/api"
import * as Row from "../../kernel/Row.ts"
import { isCalendarDate } from "../../kernel/values/Calendar.ts"
import { occurrence, type Schedule } from "./Recurrence.ts"

/** Recurring templates (spec 4.9): a schedule and the invoice or bill each occurrence creates. */
export const scheduleOf = (row: Record<string, unknown>): Schedule => ({
  frequency: String(row.frequency) as Schedule["frequency"],
  intervalCount: Row.int(row.interval_count),
  startDate: Row.date(row.start_date),
  endDate: row.end_date === null ? null : Row.date(row.end_date)
})

export const loadRow = Effect.fn("RecurringStore.loadRow")(function*(company: string, id: number, lock = false) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM recurring_templates WHERE company_id = ${company} AND id = ${id}
    ${lock ? sql`FOR UPDATE` : sql``}`.pipe(Effect.orDie)
  if (rows[0] === undefined) return yield* Effect.fail(ApiError.notFound("recurring template"))
  return rows[0]
})

export const occurrencesOf = Effect.fn("RecurringStore.occurrencesOf")(function*(company: string, templateIds: ReadonlyArray<number>) {
  const sql = yield* SqlClient.SqlClient
  if (templateIds.length === 0) return []
  return yield* sql<Record<string, unknown>>`SELECT * FROM recurring_occurrences WHERE company_id = ${company}
    AND template_id IN ${sql.in(templateIds)} ORDER BY template_id, occurrence_date`.pipe(Effect.orDie)
})

export const toWire = (row: Record<string, unknown>, occurrences: ReadonlyArray<Record<string, unknown>>): typeof Sales.Recurring.RecurringTemplate.Type => {
  const mine = occurrences.filter((occurrence) => Row.int(occurrence.template_id) === Row.int(row.id))
  const generated = new Set(mine.map((occurrence) => Row.date(occurrence.occurrence_date)))
  const schedule = scheduleOf(row)
  // The first scheduled date with no occurrence yet, or null when the schedule has ended.
  let next: string | null = null
  for (let n = 0; ; n++) {
    const date = occurrence(schedule, n)
    if (!isCalendarDate(date) || (schedule.endDate !== null && date > schedule.endDate)) break
    if (!generated.has(date)) {
      next = date
      break
    }
  }
  return {
    id: Row.int(row.id),
    name: String(row.name),
    kind: String(row.kind) as "invoice" | "bill",
    frequency: schedule.frequency,
    interval_count: schedule.intervalCount,
    start_date: schedule.startDate,
    end_date: schedule.endDate,
    request: Row.json(row.request),
    active: row.active === true,
    next_date: next,
    occurrences: mine.map((occurrence) => ({
      occurrence_date: Row.date(occurrence.occurrence_date),
      status: String(occurrence.status) as "posted" | "pending_approval" | "rejected" | "failed",
      document_id: Row.intOrNull(occurrence.document_id),
      proposal_id: Row.intOrNull(occurrence.proposal_id),
      error: occurrence.error === null ? null : Row.json(occurrence.error),
      created_at: Row.iso(occurrence.created_at)
    })),
    created_at: Row.iso(row.created_at),
    updated_at: Row.iso(row.updated_at)
  }
}

export const occurrencesPerRunMax = Limits.recurringOccurrencesPerRunMax

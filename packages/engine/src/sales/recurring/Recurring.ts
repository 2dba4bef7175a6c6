import { Effect } from "effect"
import { requireCompanyId } from "../../kernel/CompanyContext.ts"
import { SqlClient } from "effect/sql"
import { ApiError, Limits, Sales } from "@ledger/api"
import * as Handler from "../../kernel/Handler.ts"
import { Governed } from "../../ledger/index.ts"
import * as Pagination from "../../kernel/Pagination.ts"
import { RequestContext } from "../../kernel/RequestContext.ts"
import * as Row from "../../kernel/Row.ts"
import { actorReference } from "../common/Common.ts"
import { persistAndLoad } from "../documents/Documents.ts"
import * as DocumentResolution from "../documents/DocumentResolution.ts"
import { occurrencesThrough } from "./Recurrence.ts"
import * as RecurringStore from "./RecurringStore.ts"

type RunOccurrence = typeof Sales.Recurring.RunResult.Type["occurrences"][number]

/**
 * Generates a template's due occurrences through `through`, each through the governed path as
 * the invoice or bill it describes. The template row is locked for the run and every occurrence
 * date has one row at most (its primary key), so two runs never generate a date twice. A date
 * refused (say, a hard-locked period) leaves no row and is tried again by the next run.
 */
const runTemplate = (company: string, templateId: number, through: string, dryRun: boolean) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const template = yield* RecurringStore.loadRow(company, templateId, !dryRun)
    const kind = String(template.kind) as "invoice" | "bill"
    const done = new Set((yield* RecurringStore.occurrencesOf(company, [templateId])).map((row) => Row.date(row.occurrence_date)))
    const due = template.active === true
      ? occurrencesThrough(RecurringStore.scheduleOf(template), through).filter((date) => !done.has(date))
      : []
    const batch = due.slice(0, RecurringStore.occurrencesPerRunMax)
    const request = Row.json<Omit<DocumentResolution.DocumentRequest, "doc_date">>(template.request)
    const results: Array<RunOccurrence> = []
    for (const date of batch) {
      const recurring = { templateId, occurrenceDate: date }
      const outcome = yield* Effect.gen(function*() {
        const document = yield* DocumentResolution.resolve(company, kind, { ...request, doc_date: date }, { recurring })
        const written = yield* Governed.write({
          kind,
          summary: `${DocumentResolution.summaryOf(document)} (recurring ${String(template.name)}, ${date})`,
          entry: DocumentResolution.entryOf(document),
          request: { document },
          dryRun,
          linesPath: ["entry", "lines"],
          reserveSourceId: true,
          onPosted: (entry) => persistAndLoad(document, entry),
          onProposed: (proposal) =>
            Effect.gen(function*() {
              const context = yield* RequestContext
              yield* sql`INSERT INTO recurring_occurrences ${sql.insert({
                company_id: company,
                template_id: templateId,
                occurrence_date: date,
                status: "pending_approval",
                proposal_id: proposal.id,
                created_at: context.now
              })}`.pipe(Effect.orDie)
            })
        })
        switch (written.outcome._tag) {
          case "Previewed":
            return {
              occurrence_date: date,
              status: written.outcome.preview.verdict === "propose" ? "would_propose" as const : "would_post" as const,
              document_id: null,
              proposal_id: null,
              number: null,
              error: written.outcome.preview.verdict === "refuse" ? { reasons: written.outcome.preview.reasons } : null
            }
          case "Queued":
            return { occurrence_date: date, status: "pending_approval" as const, document_id: null, proposal_id: written.outcome.proposal.id, number: null, error: null }
          case "Posted": {
            const value = written.outcome.value as { id: number; number: string }
            return { occurrence_date: date, status: "posted" as const, document_id: value.id, proposal_id: null, number: value.number, error: null }
          }
        }
      }).pipe(
        Effect.catchTag("LedgerError", (error) =>
          Effect.succeed({
            occurrence_date: date,
            status: "failed" as const,
            document_id: null,
            proposal_id: null,
            number: null,
            error: error.toBody().error
          }))
      )
      results.push(outcome)
    }
    return { template_id: templateId, through, dry_run: dryRun, occurrences: results, has_more: due.length > batch.length }
  })

const templateBody = Effect.fn("Recurring.body")(function*(company: string, templateId: number) {
  const row = yield* RecurringStore.loadRow(company, templateId)
  return RecurringStore.toWire(row, yield* RecurringStore.occurrencesOf(company, [templateId]))
})

export const handlers = [
  Handler.make(Sales.Recurring.createRecurringTemplate, ({ body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const company = yield* requireCompanyId
      if (body.end_date !== undefined && body.end_date < body.start_date) {
        return yield* Effect.fail(ApiError.validationFailed("The end date is before the start date.", [{ path: ["body", "end_date"], message: "Before start_date" }]))
      }
      if (body.kind === "bill" && body.request.tax_rate_id !== undefined) {
        return yield* Effect.fail(ApiError.validationFailed("Bills carry no sales tax rate.", [{ path: ["body", "request", "tax_rate_id"], message: "Invoices only" }]))
      }
      // Checked now as the first occurrence would be, so a template that could never post is refused at once.
      yield* DocumentResolution.resolve(company, body.kind, { ...body.request, doc_date: body.start_date }).pipe(
        Effect.mapError((error) => {
          const issues = (error.details?.issues as ReadonlyArray<{ path: ReadonlyArray<string | number>; message: string }> | undefined) ?? []
          return ApiError.fail(error.type as never, error.message, {
            ...error.details,
            issues: issues.map((issue) => ({ ...issue, path: issue.path[0] === "body" ? ["body", "request", ...issue.path.slice(1)] : issue.path }))
          })
        })
      )
      const rows = yield* sql<{ id: unknown }>`INSERT INTO recurring_templates ${sql.insert({
        company_id: company,
        name: body.name,
        kind: body.kind,
        frequency: body.frequency,
        interval_count: body.interval_count ?? 1,
        start_date: body.start_date,
        end_date: body.end_date ?? null,
        request: JSON.stringify(body.request),
        created_by: yield* actorReference,
        created_at: request.now,
        updated_at: request.now
      })} RETURNING id`.pipe(Effect.orDie)
      const id = Row.int(rows[0]!.id)
      return { body: yield* templateBody(company, id), audit: { targetType: "recurring_template", targetId: id } }
    })),

  Handler.make(Sales.Recurring.listRecurringTemplates, ({ query }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const company = yield* requireCompanyId
      const select = (after: number | null, limitPlusOne: number) =>
        sql<Record<string, unknown>>`SELECT * FROM recurring_templates WHERE company_id = ${company}
        ${query.active === undefined ? sql`` : sql`AND active = ${query.active}`}
        ${after === null ? sql`` : sql`AND id < ${after}`} ORDER BY id DESC LIMIT ${limitPlusOne}`.pipe(Effect.orDie)
      const load = (shown: ReadonlyArray<Record<string, unknown>>) =>
        Effect.map(RecurringStore.occurrencesOf(company, shown.map((row) => Row.int(row.id))), (occurrences) =>
          shown.map((row) => RecurringStore.toWire(row, occurrences)))
      return { body: yield* Pagination.listPageLoaded(query, select, (row) => Row.int(row.id), load) }
    })),

  Handler.make(Sales.Recurring.getRecurringTemplate, ({ path }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      return { body: yield* templateBody(company, path.id) }
    })),

  Handler.make(Sales.Recurring.updateRecurringTemplate, ({ path, body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const company = yield* requireCompanyId
      const row = yield* RecurringStore.loadRow(company, path.id, true)
      if (body.end_date !== undefined && body.end_date !== null && body.end_date < Row.date(row.start_date)) {
        return yield* Effect.fail(ApiError.validationFailed("The end date is before the start date.", [{ path: ["body", "end_date"], message: "Before start_date" }]))
      }
      const changes: Record<string, unknown> = { updated_at: request.now }
      if (body.active !== undefined) changes.active = body.active
      if (body.end_date !== undefined) changes.end_date = body.end_date
      yield* sql`UPDATE recurring_templates SET ${sql.update(changes)} WHERE company_id = ${company} AND id = ${path.id}`.pipe(Effect.orDie)
      return {
        body: yield* templateBody(company, path.id),
        audit: { targetType: "recurring_template", targetId: path.id, reason: body.reason ?? null, details: { changed: Object.keys(changes) } }
      }
    })),

  Handler.make(Sales.Recurring.runRecurringTemplate, ({ path, body }) =>
    Effect.gen(function*() {
      const request = yield* RequestContext
      const company = yield* requireCompanyId
      const result = yield* runTemplate(company, path.id, body.through ?? request.today, body.dry_run === true)
      return { body: result, audit: { targetType: "recurring_template", targetId: path.id, details: { through: result.through } } }
    })),

  Handler.make(Sales.Recurring.runAllRecurring, ({ body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const company = yield* requireCompanyId
      const through = body.through ?? request.today
      const templates = yield* sql<{ id: unknown }>`SELECT id FROM recurring_templates WHERE company_id = ${company} AND active
        AND start_date <= ${through} ORDER BY id LIMIT ${Limits.recurringTemplatesPerRunMax}`.pipe(Effect.orDie)
      const results = []
      for (const template of templates) results.push(yield* runTemplate(company, Row.int(template.id), through, body.dry_run === true))
      return { body: { through, dry_run: body.dry_run === true, results } }
    }))
]

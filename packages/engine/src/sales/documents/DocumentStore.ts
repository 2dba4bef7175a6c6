import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, type Sales } from "@ledger/api"
import * as DatabaseError from "../../store/DatabaseError.ts"
import * as Outbox from "../../pipeline/Outbox.ts"
import { RequestContext } from "../../kernel/RequestContext.ts"
import { requireCompanyId } from "../../kernel/CompanyContext.ts"
import * as Row from "../../kernel/Row.ts"
import { actorReference, rowsToInsert } from "../common/Common.ts"
import type { ResolvedDocument } from "./DocumentResolution.ts"
import { amountFields, documentFromRows, headingFields, lineToWire, taxLineToWire } from "./DocumentWire.ts"
import * as NumberingStore from "./NumberingStore.ts"

/** The unique indexes of a document's number: per company and kind, per vendor too for purchases (store/migrations, sales). */
const numberConstraints = ["documents_sales_number", "documents_purchases_number"]

/**
 * Documents in the database: written once their entry has posted (with their number, lines, tax
 * lines, and what an estimate or a recurring template needs to know), and read back as the API
 * shows them, with applications and balances as of a date.
 */

/** The document's row under its reserved id, with its number (taken now unless the caller gave one). */
const insertDocument = Effect.fn("DocumentStore.insertDocument")(function*(document: ResolvedDocument, entryId: number, id: number) {
  const sql = yield* SqlClient.SqlClient
  const request = yield* RequestContext
  const company = yield* requireCompanyId
  const number = document.number ?? (yield* NumberingStore.next(company, document.kind, true))
  const createdBy = yield* actorReference
  yield* sql`INSERT INTO documents ${sql.insert({
    id,
    company_id: company,
    ...headingFields(document, number),
    control_account: document.controlAccount,
    ...amountFields(document),
    entry_id: entryId,
    estimate_id: document.estimateId,
    recurring_template_id: document.recurring?.templateId ?? null,
    created_by: createdBy,
    created_at: request.now
  })}`.pipe(
    Effect.catch((error) =>
      numberConstraints.some((constraint) => DatabaseError.isUniqueViolation(error, constraint))
        ? Effect.fail(ApiError.fail("number_in_use", `Number ${number} is already used.`, { issues: [{ path: ["body", "number"], message: "Already used" }] }))
        : Effect.die(error)
    )
  )
  return number
})

/** Its lines and tax lines, under the document's id. */
const insertLines = Effect.fn("DocumentStore.insertLines")(function*(company: string, id: number, document: ResolvedDocument) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`INSERT INTO document_lines ${sql.insert(rowsToInsert(document.lines.map((line) => ({
    company_id: company,
    document_id: id,
    ...lineToWire(line)
  }))))}`.pipe(Effect.orDie)
  if (document.taxLines.length > 0) {
    yield* sql`INSERT INTO document_tax_lines ${sql.insert(rowsToInsert(document.taxLines.map((tax, index) => ({
      company_id: company,
      document_id: id,
      position: index + 1,
      ...taxLineToWire(tax)
    }))))}`.pipe(Effect.orDie)
  }
})

/** What the document was made from learns of it: the estimate is converted, the occurrence posted. */
const linkSources = Effect.fn("DocumentStore.linkSources")(function*(company: string, id: number, document: ResolvedDocument) {
  const sql = yield* SqlClient.SqlClient
  const request = yield* RequestContext
  if (document.estimateId !== null) {
    const converted = yield* sql`UPDATE estimates SET status = 'converted', invoice_id = ${id}, updated_at = ${request.now}
      WHERE company_id = ${company} AND id = ${document.estimateId} AND status IN ('open', 'accepted') RETURNING id`.pipe(Effect.orDie)
    if (converted.length === 0) {
      return yield* Effect.fail(ApiError.fail("invalid_transition", "The estimate is no longer open or accepted."))
    }
  }
  if (document.recurring !== null) {
    // The occurrence row may already exist (waiting for approval); either way it now has its document.
    yield* sql`INSERT INTO recurring_occurrences ${sql.insert({
      company_id: company,
      template_id: document.recurring.templateId,
      occurrence_date: document.recurring.occurrenceDate,
      status: "posted",
      document_id: id,
      created_at: request.now
    })} ON CONFLICT (company_id, template_id, occurrence_date)
      DO UPDATE SET status = 'posted', document_id = EXCLUDED.document_id, error = NULL`.pipe(Effect.orDie)
  }
})

/**
 * Writes a document whose entry has just posted (from `onPosted`, or from a proposal's approval):
 * takes its number, stores it under `id` (from `ledger_ids`, the entry's `source.id`) with its
 * lines and tax lines linked to the entry, emits its event.
 */
export const persist = Effect.fn("DocumentStore.persist")(function*(document: ResolvedDocument, entryId: number, id: number) {
  const company = yield* requireCompanyId
  const number = yield* insertDocument(document, entryId, id)
  yield* insertLines(company, id, document)
  yield* linkSources(company, id, document)
  if (document.kind === "invoice" || document.kind === "bill") {
    yield* Outbox.emit(document.kind === "invoice" ? "invoice.created" : "bill.created", {
      document_id: id,
      number,
      contact_id: document.contactId,
      doc_date: document.docDate,
      due_date: document.dueDate,
      total_cents: document.totalCents,
      entry_id: entryId
    }).pipe(Effect.orDie)
  }
  return id
})

/** Applications in force on `asOf` (or now), into or out of documents. */
const applicationsOf = Effect.fn("DocumentStore.applicationsOf")(function*(company: string, ids: ReadonlyArray<number>) {
  const sql = yield* SqlClient.SqlClient
  if (ids.length === 0) return []
  return yield* sql<Record<string, unknown>>`SELECT * FROM applications WHERE company_id = ${company}
    AND (document_id IN ${sql.in(ids)} OR credit_document_id IN ${sql.in(ids)}) ORDER BY id`.pipe(Effect.orDie)
})

const activeOn = (application: Record<string, unknown>, asOf: string): boolean =>
  Row.date(application.applied_on) <= asOf && (application.voided_on === null || Row.date(application.voided_on) > asOf)

/** Reads documents as the API shows them, balances as of `asOf`. */
export const loadMany = Effect.fn("DocumentStore.loadMany")(function*(company: string, ids: ReadonlyArray<number>, asOf: string) {
  const sql = yield* SqlClient.SqlClient
  if (ids.length === 0) return new Map<number, Sales.Documents.Document>()
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM documents WHERE company_id = ${company} AND id IN ${sql.in(ids)}`
    .pipe(Effect.orDie)
  const lines = yield* sql<Record<string, unknown>>`SELECT * FROM document_lines WHERE company_id = ${company}
    AND document_id IN ${sql.in(ids)} ORDER BY document_id, line_no`.pipe(Effect.orDie)
  const taxes = yield* sql<Record<string, unknown>>`SELECT * FROM document_tax_lines WHERE company_id = ${company}
    AND document_id IN ${sql.in(ids)} ORDER BY document_id, position`.pipe(Effect.orDie)
  const applications = yield* applicationsOf(company, ids)
  const result = new Map<number, Sales.Documents.Document>()
  for (const row of rows) {
    const id = Row.int(row.id)
    const mine = applications.filter((application) =>
      Row.intOrNull(application.document_id) === id || Row.intOrNull(application.credit_document_id) === id
    )
    result.set(id, documentFromRows(row, {
      lines: lines.filter((line) => Row.int(line.document_id) === id),
      taxes: taxes.filter((tax) => Row.int(tax.document_id) === id),
      applications: mine,
      appliedCents: mine.filter((application) => activeOn(application, asOf)).reduce((sum, application) => sum + Row.int(application.amount_cents), 0)
    }, asOf))
  }
  return result
})

export const load = Effect.fn("DocumentStore.load")(function*(company: string, id: number, asOf: string) {
  const document = (yield* loadMany(company, [id], asOf)).get(id)
  if (document === undefined) return yield* Effect.fail(ApiError.notFound("document"))
  return document
})

import { Effect } from "effect"
import { requireCompanyId } from "../../kernel/CompanyContext.ts"
import { SqlClient } from "effect/sql"
import { ApiError, Limits, Sales } from "@ledger/api"
import * as Handler from "../../kernel/Handler.ts"
import * as DatabaseError from "../../store/DatabaseError.ts"
import * as Pagination from "../../kernel/Pagination.ts"
import { RequestContext } from "../../kernel/RequestContext.ts"
import * as Row from "../../kernel/Row.ts"
import { actorReference, asOfOrToday, loadContact } from "../common/Common.ts"
import { postDocument } from "../documents/Documents.ts"
import * as DocumentPdf from "../documents/DocumentPdf.ts"
import { subtotal, taxTotal } from "../documents/DocumentPosting.ts"
import * as DocumentLines from "../documents/DocumentLines.ts"
import * as DocumentResolution from "../documents/DocumentResolution.ts"
import { amountFields } from "../documents/DocumentWire.ts"
import * as EstimateStore from "./EstimateStore.ts"
import * as NumberingStore from "../documents/NumberingStore.ts"

/** The unique constraint of an estimate's number in its company (store/migrations, sales). */
const estimateNumberConstraint = "estimates_company_id_number_key"

const numberInUse = (number: string) =>
  ApiError.fail("number_in_use", `Number ${number} is already used.`, { issues: [{ path: ["body", "number"], message: "Already used" }] })

export const handlers = [
  Handler.make(Sales.Estimates.createEstimate, ({ body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const company = yield* requireCompanyId
      yield* loadContact(company, body.contact_id, "customer")
      if (body.expiry_date !== undefined && body.expiry_date < body.estimate_date) {
        return yield* Effect.fail(ApiError.validationFailed("An estimate expires after its date.", [{ path: ["body", "expiry_date"], message: "Before estimate_date" }]))
      }
      if (body.number !== undefined) {
        const taken = yield* sql`SELECT 1 FROM estimates WHERE company_id = ${company} AND number = ${body.number}`.pipe(Effect.orDie)
        if (taken.length > 0) return yield* Effect.fail(numberInUse(body.number))
      }
      const lines = yield* DocumentLines.resolveLines(company, "sales", body.lines, body.tax_rate_id !== undefined)
      const tax = yield* DocumentLines.resolveTax(company, body.tax_rate_id, lines)
      const subtotalCents = subtotal(lines)
      const taxCents = taxTotal(tax.taxLines)
      if (subtotalCents > Limits.amountCentsMax || subtotalCents + taxCents > Limits.amountCentsMax) {
        return yield* Effect.fail(ApiError.validationFailed(`An estimate's total is at most ${Limits.amountCentsMax} cents.`, [{ path: ["body", "lines"], message: "Too large" }]))
      }
      const dryRun = body.dry_run === true
      const number = body.number ?? (yield* NumberingStore.next(company, "estimate", !dryRun))
      const row = {
        company_id: company,
        contact_id: body.contact_id,
        number,
        estimate_date: body.estimate_date,
        expiry_date: body.expiry_date ?? null,
        reference: body.reference ?? null,
        memo: body.memo ?? null,
        ...amountFields({ taxRateId: tax.taxRateId, subtotalCents, taxCents, totalCents: subtotalCents + taxCents }),
        lines: JSON.stringify(lines),
        tax_lines: JSON.stringify(tax.taxLines),
        status: "open",
        created_by: yield* actorReference,
        created_at: request.now,
        updated_at: request.now
      }
      if (dryRun) {
        return { status: 200, body: { dry_run: true, number, estimate: EstimateStore.toWire({ ...row, id: 0 }, request.today) } }
      }
      const rows = yield* sql<Record<string, unknown>>`INSERT INTO estimates ${sql.insert(row)} RETURNING *`.pipe(
        Effect.catch((error) =>
          DatabaseError.isUniqueViolation(error, estimateNumberConstraint) ? Effect.fail(numberInUse(number)) : Effect.die(error)
        )
      )
      const estimate = EstimateStore.toWire(rows[0]!, request.today)
      return { body: estimate, audit: { targetType: "estimate", targetId: estimate.id, details: { number, total_cents: estimate.total_cents } } }
    })),

  Handler.make(Sales.Estimates.listEstimates, ({ query }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const company = yield* requireCompanyId
      const asOf = yield* asOfOrToday(query.as_of)
      const select = (after: number | null, limitPlusOne: number) =>
        sql<Record<string, unknown>>`SELECT * FROM estimates WHERE company_id = ${company}
        ${query.status === undefined ? sql`` : sql`AND status = ${query.status}`}
        ${query.contact_id === undefined ? sql`` : sql`AND contact_id = ${query.contact_id}`}
        ${query.as_of === undefined ? sql`` : sql`AND estimate_date <= ${asOf}`}
        ${after === null ? sql`` : sql`AND id < ${after}`}
        ORDER BY id DESC LIMIT ${limitPlusOne}`.pipe(Effect.orDie)
      return { body: yield* Pagination.listPage(query, select, (row) => Row.int(row.id), (row) => EstimateStore.toWire(row, asOf)) }
    })),

  Handler.make(Sales.Estimates.getEstimate, ({ path }) =>
    Effect.gen(function*() {
      const request = yield* RequestContext
      const company = yield* requireCompanyId
      return { body: EstimateStore.toWire(yield* EstimateStore.loadRow(company, path.id), request.today) }
    })),

  Handler.make(Sales.Estimates.setEstimateStatus, ({ path, body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const company = yield* requireCompanyId
      const row = yield* EstimateStore.loadRow(company, path.id, true)
      const from = String(row.status) as EstimateStore.Status
      if (!EstimateStore.canMove(from, body.status)) {
        return yield* Effect.fail(ApiError.fail("invalid_transition", `An estimate that is ${from} cannot become ${body.status}.`, {
          from,
          to: body.status,
          allowed: EstimateStore.transitions[from]
        }))
      }
      if (body.status === "void" && body.reason === undefined) {
        return yield* Effect.fail(ApiError.validationFailed("Voiding an estimate needs a reason.", [{ path: ["body", "reason"], message: "Required to void" }]))
      }
      const rows = yield* sql<Record<string, unknown>>`UPDATE estimates SET status = ${body.status}, status_reason = ${body.reason ?? null},
        updated_at = ${request.now} WHERE company_id = ${company} AND id = ${path.id} RETURNING *`.pipe(Effect.orDie)
      return {
        body: EstimateStore.toWire(rows[0]!, request.today),
        audit: { targetType: "estimate", targetId: path.id, reason: body.reason ?? null, details: { from, to: body.status } }
      }
    })),

  Handler.make(Sales.Estimates.convertEstimate, ({ path, body }) =>
    Effect.gen(function*() {
      const request = yield* RequestContext
      const company = yield* requireCompanyId
      const estimate = EstimateStore.toWire(yield* EstimateStore.loadRow(company, path.id, body.dry_run !== true), request.today)
      if (!EstimateStore.canConvert(estimate.status)) {
        return yield* Effect.fail(ApiError.fail("invalid_transition", `An estimate that is ${estimate.status} cannot be converted.`))
      }
      const document = yield* DocumentResolution.resolve(company, "invoice", EstimateStore.invoiceRequest(estimate, body, request.today), {
        estimateId: estimate.id
      })
      return yield* postDocument(document, body)
    })),

  Handler.make(Sales.Estimates.getEstimatePdf, ({ path }) =>
    Effect.gen(function*() {
      const request = yield* RequestContext
      const company = yield* requireCompanyId
      const estimate = EstimateStore.toWire(yield* EstimateStore.loadRow(company, path.id), request.today)
      return { body: DocumentPdf.toWire(yield* DocumentPdf.forEstimate(company, estimate, request.now)) }
    }))
]

import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Sales } from "@ledger/api"
import * as Handler from "../../kernel/Handler.ts"
import { proposalKind } from "../../kernel/Registry.ts"
import { Governed, JournalEntryRules, JournalEntryStore } from "../../ledger/index.ts"
import * as Outbox from "../../pipeline/Outbox.ts"
import * as Pagination from "../../kernel/Pagination.ts"
import { RequestContext } from "../../kernel/RequestContext.ts"
import { requireCompanyId } from "../../kernel/CompanyContext.ts"
import * as Row from "../../kernel/Row.ts"
import * as Applications from "./Applications.ts"
import { asOfOrToday } from "../common/Common.ts"
import * as DocumentPdf from "./DocumentPdf.ts"
import type { PostingKind } from "./DocumentPosting.ts"
import * as DocumentResolution from "./DocumentResolution.ts"
import * as DocumentStore from "./DocumentStore.ts"
import * as DocumentWire from "./DocumentWire.ts"
import * as DocumentProposals from "./DocumentProposals.ts"
import { isCredit } from "./DocumentStatus.ts"

type GovernedBody = {
  readonly dry_run?: boolean | undefined
  readonly confidence?: number | undefined
  readonly soft_lock_override_reason?: string | undefined
}

/**
 * Posts a resolved document on the governed path: a dry run shows it with the number it would
 * take, a person or an agent within policy posts it (201), an agent over policy queues it (202).
 */
export const postDocument = (
  document: DocumentResolution.ResolvedDocument,
  body: GovernedBody,
  onProposed?: (proposal: Governed.Proposal) => Effect.Effect<void, ApiError.LedgerError, Handler.Services>
) =>
  Effect.gen(function*() {
    const company = yield* requireCompanyId
    const dryRun = body.dry_run === true
    const number = dryRun ? yield* DocumentResolution.previewNumber(company, document) : null
    return yield* Governed.write({
      kind: document.kind,
      summary: DocumentResolution.summaryOf(document),
      entry: DocumentResolution.entryOf(document),
      request: { document },
      dryRun,
      softLockOverrideReason: body.soft_lock_override_reason,
      confidence: body.confidence,
      linesPath: ["entry", "lines"],
      reserveSourceId: true,
      ...(number === null ? {} : { preview: { document: DocumentWire.preview(document, number), number } }),
      onPosted: (entry) => persistAndLoad(document, entry),
      onProposed
    })
  })

/**
 * Writes the document linked to its entry and answers with it as the API shows it. The document
 * takes the id its entry names as `source.id` (reserved before posting), so the entry leads to it.
 */
export const persistAndLoad = (document: DocumentResolution.ResolvedDocument, entry: Governed.PostedEntry) =>
  Effect.gen(function*() {
    const request = yield* RequestContext
    const reserved = entry.source.id ?? (yield* Governed.reserveId())
    const id = yield* DocumentStore.persist(document, entry.id, reserved)
    return yield* DocumentStore.load((yield* requireCompanyId), id, request.today)
  })

/**
 * A document kind's proposal (registered once per kind in the sales area). Documents made from
 * estimates and recurring templates are documents of these same kinds: what they need at approval
 * travels in the stored request.
 */
export const documentProposalKind = proposalKind({
  request: DocumentProposals.DocumentProposal,
  // The document's id is taken at approval, when it is certain to be written.
  sourceId: () => Governed.reserveId(),
  approved: ({ entry, request }) => persistAndLoad(request.document, entry),
  rejected: ({ request }) =>
    Effect.gen(function*() {
      const { recurring } = request.document
      if (recurring === null) return
      // The occurrence stays generated (never offered again) and says why it has no document.
      const sql = yield* SqlClient.SqlClient
      yield* sql`UPDATE recurring_occurrences SET status = 'rejected' WHERE company_id = ${(yield* requireCompanyId)}
        AND template_id = ${recurring.templateId} AND occurrence_date = ${recurring.occurrenceDate}`.pipe(Effect.orDie)
    })
})

const create = <B extends DocumentResolution.DocumentRequest & GovernedBody>(kind: PostingKind) => ({ body }: { body: B }) =>
  Effect.gen(function*() {
    const company = yield* requireCompanyId
    const document = yield* DocumentResolution.resolve(company, kind, body)
    return yield* postDocument(document, body)
  })

const statusFilter = (sql: SqlClient.SqlClient, status: string | undefined, asOf: string) => {
  switch (status) {
    case undefined:
      return sql``
    case "void":
      return sql`AND voided`
    case "open":
      return sql`AND NOT voided AND kind NOT IN ('sales_receipt', 'refund', 'vendor_refund') AND applied_cents = 0`
    case "partial":
      return sql`AND NOT voided AND applied_cents > 0 AND applied_cents < total_cents`
    case "paid":
      return sql`AND NOT voided AND (kind IN ('sales_receipt', 'refund', 'vendor_refund')
        OR (kind IN ('invoice', 'bill') AND applied_cents >= total_cents))`
    case "applied":
      return sql`AND NOT voided AND kind IN ('credit_memo', 'vendor_credit') AND applied_cents >= total_cents`
    case "unpaid":
      return sql`AND NOT voided AND kind IN ('invoice', 'bill') AND applied_cents < total_cents`
    default:
      return sql`AND NOT voided AND kind IN ('invoice', 'bill') AND applied_cents < total_cents
        AND coalesce(due_date, doc_date) < ${asOf}`
  }
}

const voidDocument = ({ path, body }: { path: { id: number }; body: Sales.Documents.VoidBody }) =>
  Effect.gen(function*() {
    const request = yield* RequestContext
    const company = yield* requireCompanyId
    const document = yield* DocumentStore.load(company, path.id, request.today)
    yield* refuseVoid(document)
    const voidDate = body.void_date ?? request.today
    if (voidDate < document.doc_date) {
      return yield* Effect.fail(ApiError.validationFailed("A void is dated on or after the document.", [{ path: ["body", "void_date"], message: `Before ${document.doc_date}` }]))
    }
    const original = yield* JournalEntryStore.load(document.entry_id!)
    const title = DocumentResolution.titles[document.kind as PostingKind]
    // The void is the linked reversal of the document's entry (issue 19 item 3): reports and the
    // audit show the pair, and nothing can match or reverse the cancelled entry again.
    const written = yield* Governed.write({
      kind: "document_void",
      summary: `Void ${title} ${document.number}: ${body.reason}`,
      entry: {
        date: voidDate,
        memo: `Void of ${title} ${document.number}: ${body.reason}`.slice(0, 1000),
        lines: JournalEntryRules.reversal(original!.lines).map(JournalEntryRules.toDraftLine)
      },
      reverses: document.entry_id!,
      // The reversal leads to the document it voids, as the original entry does.
      sourceId: document.id,
      request: { document_id: document.id, reason: body.reason, void_date: voidDate },
      dryRun: body.dry_run === true,
      softLockOverrideReason: body.soft_lock_override_reason,
      onPosted: (entry) => markVoid(document.id, entry.id, voidDate, body.reason)
    })
    return { ...written, status: written.status === 201 ? 200 : written.status ?? 200 }
  })

const refuseVoid = (document: Sales.Documents.Document) => {
  if (document.status === "void") return Effect.fail(ApiError.fail("already_void", "The document is already void."))
  if ((document.kind === "invoice" || document.kind === "bill") && document.applications.length > 0) {
    return Effect.fail(ApiError.fail("document_has_applications", "Void its payments and credits first.", {
      applications: document.applications.map((application) => ({
        application_id: application.application_id,
        payment_id: application.payment_id,
        credit_document_id: application.credit_document_id,
        amount_cents: application.amount_cents
      }))
    }))
  }
  return Effect.void
}

/** The void's reversal has posted: the document is void, a credit's applications end. */
const markVoid = (documentId: number, entryId: number, voidDate: string, reason: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const request = yield* RequestContext
    const company = yield* requireCompanyId
    // Checked again under lock: a proposal approved later may find the document changed.
    yield* sql`SELECT 1 FROM documents WHERE company_id = ${company} AND id = ${documentId} FOR UPDATE`.pipe(Effect.orDie)
    const document = yield* DocumentStore.load(company, documentId, request.today)
    yield* refuseVoid(document)
    yield* sql`UPDATE documents SET voided = true, void_entry_id = ${entryId}, void_reason = ${reason}, void_date = ${voidDate},
      voided_at = ${request.now} WHERE company_id = ${company} AND id = ${documentId}`.pipe(Effect.orDie)
    if (isCredit(document.kind)) yield* Applications.voidAll(company, { creditDocumentId: documentId }, voidDate)
    if (document.kind === "invoice" || document.kind === "bill") {
      yield* Outbox.emit(document.kind === "invoice" ? "invoice.voided" : "bill.voided", {
        document_id: documentId,
        number: document.number,
        contact_id: document.contact_id,
        total_cents: document.total_cents,
        reason,
        void_date: voidDate,
        void_entry_id: entryId
      }).pipe(Effect.orDie)
    }
    return yield* DocumentStore.load(company, documentId, request.today)
  })

/** A void's proposal: the reversal has posted, the document becomes void. */
export const voidProposalKind = proposalKind({
  request: DocumentProposals.DocumentVoidProposal,
  sourceId: ({ request }) => Effect.succeed(request.document_id),
  approved: ({ entry, request }) => markVoid(request.document_id, entry.id, request.void_date, request.reason),
  rejected: () => Effect.void
})

export const handlers = [
  Handler.make(Sales.Documents.createInvoice, create("invoice")),
  Handler.make(Sales.Documents.createCreditMemo, create("credit_memo")),
  Handler.make(Sales.Documents.createBill, create("bill")),
  Handler.make(Sales.Documents.createVendorCredit, create("vendor_credit")),
  Handler.make(Sales.Documents.createSalesReceipt, create("sales_receipt")),
  Handler.make(Sales.Documents.createRefund, create("refund")),
  Handler.make(Sales.Documents.createVendorRefund, create("vendor_refund")),

  Handler.make(Sales.Documents.listDocuments, ({ query }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const company = yield* requireCompanyId
      const asOf = yield* asOfOrToday(query.as_of)
      const select = (after: number | null, limitPlusOne: number) =>
        sql<{ id: unknown }>`SELECT id FROM (
          SELECT d.*, coalesce((SELECT sum(a.amount_cents) FROM applications a WHERE a.company_id = d.company_id
            AND (a.document_id = d.id OR a.credit_document_id = d.id) AND a.applied_on <= ${asOf}
            AND (a.voided_on IS NULL OR a.voided_on > ${asOf})), 0) AS applied_cents
          FROM documents d WHERE d.company_id = ${company}
          ${query.kind === undefined ? sql`` : sql`AND d.kind = ${query.kind}`}
          ${query.side === undefined ? sql`` : sql`AND d.side = ${query.side}`}
          ${query.contact_id === undefined ? sql`` : sql`AND d.contact_id = ${query.contact_id}`}
          ${query.from === undefined ? sql`` : sql`AND d.doc_date >= ${query.from}`}
          ${query.to === undefined ? sql`` : sql`AND d.doc_date <= ${query.to}`}
          ${query.as_of === undefined ? sql`` : sql`AND d.doc_date <= ${asOf}`}
          ${after === null ? sql`` : sql`AND d.id < ${after}`}
        ) listed WHERE true ${statusFilter(sql, query.status, asOf)}
        ORDER BY id DESC LIMIT ${limitPlusOne}`.pipe(Effect.orDie)
      const load = (shown: ReadonlyArray<{ id: unknown }>) =>
        Effect.map(DocumentStore.loadMany(company, shown.map((row) => Row.int(row.id)), asOf), (documents) =>
          shown.map((row) => documents.get(Row.int(row.id))!))
      return { body: yield* Pagination.listPageLoaded(query, select, (row) => Row.int(row.id), load) }
    })),

  Handler.make(Sales.Documents.getDocument, ({ path, query }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      return { body: yield* DocumentStore.load(company, path.id, yield* asOfOrToday(query.as_of)) }
    })),

  Handler.make(Sales.Documents.voidDocument, voidDocument),

  Handler.make(Sales.Documents.applyCredit, ({ path, body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const company = yield* requireCompanyId
      const dryRun = body.dry_run === true
      if (!dryRun) yield* sql`SELECT 1 FROM documents WHERE company_id = ${company} AND id = ${path.id} FOR UPDATE`.pipe(Effect.orDie)
      const credit = yield* DocumentStore.load(company, path.id, request.today)
      if (!isCredit(credit.kind)) {
        return yield* Effect.fail(ApiError.validationFailed("Only credit memos and vendor credits are applied this way; payments use /v1/payments/{id}/apply.", [{
          path: ["path", "id"],
          message: `A ${credit.kind}`
        }]))
      }
      if (credit.status === "void") return yield* Effect.fail(ApiError.fail("already_void", "The credit is void."))
      const appliedOn = body.applied_on ?? request.today
      const source: Applications.Source = {
        paymentId: null,
        creditDocumentId: credit.id,
        contactId: credit.contact_id,
        side: credit.side === "purchases" ? "purchases" : "sales",
        controlAccount: credit.control_account!,
        date: credit.doc_date,
        availableCents: credit.total_cents - (yield* Applications.appliedFrom(company, { creditDocumentId: credit.id }))
      }
      if (dryRun) {
        yield* Applications.check(company, source, body.applications, appliedOn)
        const applying = body.applications.reduce((sum, application) => sum + application.amount_cents, 0)
        const applied = credit.applied_cents + applying
        return {
          status: 200,
          body: {
            ...credit,
            applied_cents: applied,
            open_balance_cents: credit.total_cents - applied,
            status: applied >= credit.total_cents ? "applied" : applied > 0 ? "partial" : "open"
          }
        }
      }
      yield* Applications.apply(company, source, body.applications, appliedOn)
      return {
        body: yield* DocumentStore.load(company, credit.id, request.today),
        audit: { targetType: "document", targetId: credit.id, details: { applications: body.applications } }
      }
    })),

  Handler.make(Sales.Documents.getDocumentPdf, ({ path }) =>
    Effect.gen(function*() {
      const request = yield* RequestContext
      const company = yield* requireCompanyId
      const document = yield* DocumentStore.load(company, path.id, request.today)
      return { body: DocumentPdf.toWire(yield* DocumentPdf.forDocument(company, document, request.now)) }
    }))
]

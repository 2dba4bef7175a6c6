import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Limits, type Sales } from "@ledger/api"
import * as Outbox from "../Outbox.ts"
import { RequestContext } from "../RequestContext.ts"
import * as Row from "../Row.ts"
import * as Accounts from "./Accounts.ts"
import { addDays, isCalendarDate } from "./Calendar.ts"
import { actorReference, type ContactRow, isUniqueViolation, loadContact, rowsToInsert } from "./Common.ts"
import { controlIsDebited, documentEntry, type Entry, type PostingKind, side, subtotal, taxTotal } from "./DocumentPosting.ts"
import { isCashDocument, isCredit, isOverdue, openBalance, status } from "./DocumentStatus.ts"
import { lineAmount } from "./LineAmounts.ts"
import * as Numbers from "./Numbers.ts"
import type { TaxLine } from "./TaxMath.ts"
import { taxLines } from "./TaxMath.ts"
import * as TaxRates from "./TaxRates.ts"

/**
 * Sales and purchase documents: resolving a request into the exact document (lines, accounts,
 * tax per jurisdiction, totals, due date), writing it once its entry has posted, and reading it
 * back with its applications and status.
 */

export interface ResolvedLine {
  readonly lineNo: number
  readonly itemId: number | null
  readonly description: string | null
  readonly account: string
  readonly quantity: string | null
  readonly unitPriceCents: number | null
  readonly amountCents: number
  readonly class: string | null
  readonly taxable: boolean
}

/** Everything a document is, decided before it posts; stored with a proposal and written as is on approval. */
export interface ResolvedDocument {
  readonly kind: PostingKind
  readonly contactId: number
  readonly contactName: string
  /** Given by the caller; otherwise the kind's next number is taken when the document is written. */
  readonly number: string | null
  readonly docDate: string
  readonly dueDate: string | null
  readonly termsDays: number | null
  readonly reference: string | null
  readonly memo: string | null
  /** AR or AP; for receipts and refunds, the bank or cash account. */
  readonly controlAccount: string
  readonly taxRateId: number | null
  readonly lines: ReadonlyArray<ResolvedLine>
  readonly taxLines: ReadonlyArray<TaxLine>
  readonly subtotalCents: number
  readonly taxCents: number
  readonly totalCents: number
  readonly estimateId: number | null
  readonly recurring: { readonly templateId: number; readonly occurrenceDate: string } | null
}

export interface DocumentRequest {
  readonly contact_id: number
  readonly number?: string | undefined
  readonly doc_date: string
  readonly due_date?: string | undefined
  readonly terms_days?: number | undefined
  readonly reference?: string | undefined
  readonly memo?: string | undefined
  readonly control_account?: string | undefined
  readonly account?: string | undefined
  readonly tax_rate_id?: number | undefined
  readonly lines: ReadonlyArray<Sales.Shared.DocumentLineInput>
}

const contactKindOf = (kind: PostingKind): "customer" | "vendor" => side(kind) === "sales" ? "customer" : "vendor"

/** Refuses a number the kind already uses (per vendor for purchases). */
export const requireFreeNumber = Effect.fn("Documents.requireFreeNumber")(function*(
  company: string,
  kind: PostingKind,
  contactId: number,
  number: string
) {
  const sql = yield* SqlClient.SqlClient
  const rows = side(kind) === "sales"
    ? yield* sql`SELECT 1 FROM documents WHERE company_id = ${company} AND kind = ${kind} AND number = ${number}`.pipe(Effect.orDie)
    : yield* sql`SELECT 1 FROM documents WHERE company_id = ${company} AND kind = ${kind} AND contact_id = ${contactId}
        AND number = ${number}`.pipe(Effect.orDie)
  if (rows.length > 0) {
    return yield* Effect.fail(ApiError.fail("number_in_use", `Number ${number} is already used.`, {
      issues: [{ path: ["body", "number"], message: "Already used" }]
    }))
  }
})

/** The lines of a document or estimate: items, accounts, amounts and taxability resolved. */
export const resolveLines = Effect.fn("Documents.resolveLines")(function*(
  company: string,
  documentSide: "sales" | "purchases",
  lines: ReadonlyArray<Sales.Shared.DocumentLineInput>,
  taxed: boolean
) {
  const sql = yield* SqlClient.SqlClient
  const itemIds = Array.from(new Set(lines.flatMap((line) => line.item_id === undefined ? [] : [line.item_id])))
  const itemRows = itemIds.length === 0
    ? []
    : yield* sql<Record<string, unknown>>`SELECT * FROM items WHERE company_id = ${company} AND id IN ${sql.in(itemIds)}`.pipe(Effect.orDie)
  const items = new Map(itemRows.map((row) => [Row.int(row.id), row]))
  const defaults = yield* Accounts.defaults(company)
  const issues: Array<ApiError.Issue> = []
  const resolved: Array<ResolvedLine> = []
  lines.forEach((line, index) => {
    const item = line.item_id === undefined ? undefined : items.get(line.item_id)
    if (line.item_id !== undefined && (item === undefined || item.active !== true)) {
      issues.push({ path: ["body", "lines", index, "item_id"], message: item === undefined ? "Unknown item" : "Inactive item" })
      return
    }
    const itemAccount = item === undefined
      ? null
      : (documentSide === "sales" ? item.income_account : item.expense_account) as string | null
    const account = line.account ?? itemAccount ?? (documentSide === "sales" ? defaults.income : defaults.expense)
    if (account === null) {
      issues.push({ path: ["body", "lines", index, "account"], message: "No account: name one, use an item with one, or set a default" })
      return
    }
    const itemPrice = item === undefined ? null : Row.intOrNull(documentSide === "sales" ? item.sales_price_cents : item.purchase_cost_cents)
    const amount = lineAmount(index, line, itemPrice)
    if (amount._tag === "Refused") {
      issues.push(amount.issue)
      return
    }
    if (Math.abs(amount.amountCents) > Limits.amountCentsMax) {
      issues.push({ path: ["body", "lines", index], message: `A line is at most ${Limits.amountCentsMax} cents` })
      return
    }
    const unitPrice = line.unit_price_cents ?? (line.quantity !== undefined ? itemPrice : null)
    resolved.push({
      lineNo: index + 1,
      itemId: line.item_id ?? null,
      description: line.description ?? ((item?.description as string | null | undefined) ?? (item === undefined ? null : String(item.name))),
      account,
      quantity: line.quantity ?? null,
      unitPriceCents: unitPrice ?? null,
      amountCents: amount.amountCents,
      class: line.class ?? null,
      taxable: line.taxable ?? (item === undefined ? taxed : item.taxable === true)
    })
  })
  if (issues.length > 0) return yield* Effect.fail(ApiError.validationFailed("Some lines cannot be used.", issues))
  yield* Accounts.requireUsable(company, resolved.map((line) => ({ code: line.account, path: ["body", "lines", line.lineNo - 1, "account"] })))
  return resolved
})

/** Tax per jurisdiction on the taxable lines, each rounded on its own. */
export const resolveTax = Effect.fn("Documents.resolveTax")(function*(
  company: string,
  taxRateId: number | undefined,
  lines: ReadonlyArray<ResolvedLine>
) {
  if (taxRateId === undefined) return { taxRateId: null, taxLines: [] as ReadonlyArray<TaxLine> }
  const rate = yield* TaxRates.requireActive(company, taxRateId)
  const taxable = lines.filter((line) => line.taxable).reduce((sum, line) => sum + line.amountCents, 0)
  return { taxRateId, taxLines: taxLines(taxable, TaxRates.jurisdictions(rate)) }
})

const controlFor = Effect.fn("Documents.controlFor")(function*(company: string, kind: PostingKind, request: DocumentRequest) {
  if (isCashDocument(kind)) {
    const code = request.account!
    const facts = yield* Accounts.requireUsable(company, [{ code, path: ["body", "account"] }])
    const account = facts.get(code)!
    if (account.control !== null || !["asset", "liability"].includes(account.type)) {
      return yield* Effect.fail(ApiError.validationFailed("Receipts and refunds go through a bank, cash or card account.", [{
        path: ["body", "account"],
        message: "Not a bank, cash or card account"
      }]))
    }
    return code
  }
  const control = side(kind) === "sales" ? "ar" : "ap"
  const code = request.control_account ?? (yield* Accounts.defaultControl(company, control))
  const facts = yield* Accounts.requireUsable(company, [{ code, path: ["body", "control_account"] }])
  if (facts.get(code)!.control !== control) {
    return yield* Effect.fail(ApiError.validationFailed(`The control account must be an ${control.toUpperCase()} account.`, [{
      path: ["body", "control_account"],
      message: `Not an ${control.toUpperCase()} control account`
    }]))
  }
  return code
})

/** Checks and resolves a document request into the exact document it posts. Writes nothing. */
export const resolve = Effect.fn("Documents.resolve")(function*(
  company: string,
  kind: PostingKind,
  request: DocumentRequest,
  extras: { readonly estimateId?: number | null; readonly recurring?: ResolvedDocument["recurring"] } = {}
) {
  const contact: ContactRow = yield* loadContact(company, request.contact_id, contactKindOf(kind))
  if (request.number !== undefined) yield* requireFreeNumber(company, kind, contact.id, request.number)
  const lines = yield* resolveLines(company, side(kind), request.lines, request.tax_rate_id !== undefined)
  const tax = yield* resolveTax(company, request.tax_rate_id, lines)
  const controlAccount = yield* controlFor(company, kind, request)
  const subtotalCents = subtotal(lines)
  const taxCents = taxTotal(tax.taxLines)
  const totalCents = subtotalCents + taxCents
  if (subtotalCents > Limits.amountCentsMax || totalCents > Limits.amountCentsMax) {
    return yield* Effect.fail(ApiError.validationFailed(`A document's total is at most ${Limits.amountCentsMax} cents.`, [{ path: ["body", "lines"], message: "Too large" }]))
  }
  if (totalCents <= 0) {
    return yield* Effect.fail(ApiError.validationFailed("A document's total must be positive.", [{ path: ["body", "lines"], message: `Total is ${totalCents}` }]))
  }
  const receivable = kind === "invoice" || kind === "bill"
  const termsDays = receivable ? request.terms_days ?? contact.terms_days ?? 0 : null
  const dueDate = receivable ? request.due_date ?? addDays(request.doc_date, termsDays ?? 0) : null
  if (dueDate !== null && !isCalendarDate(dueDate)) {
    return yield* Effect.fail(ApiError.validationFailed("The due date would fall after 9999-12-31.", [{ path: ["body", "terms_days"], message: "Too far" }]))
  }
  if (dueDate !== null && dueDate < request.doc_date) {
    return yield* Effect.fail(ApiError.validationFailed("The due date is before the document date.", [{ path: ["body", "due_date"], message: "Before doc_date" }]))
  }
  return {
    kind,
    contactId: contact.id,
    contactName: contact.name,
    number: request.number ?? null,
    docDate: request.doc_date,
    dueDate,
    termsDays: request.terms_days === undefined && request.due_date !== undefined ? null : termsDays,
    reference: request.reference ?? null,
    memo: request.memo ?? null,
    controlAccount,
    taxRateId: tax.taxRateId,
    lines,
    taxLines: tax.taxLines,
    subtotalCents,
    taxCents,
    totalCents,
    estimateId: extras.estimateId ?? null,
    recurring: extras.recurring ?? null
  } satisfies ResolvedDocument
})

export const entryOf = (document: ResolvedDocument): Entry =>
  documentEntry({
    kind: document.kind,
    contactId: document.contactId,
    date: document.docDate,
    memo: document.memo ?? `${titles[document.kind]} ${document.number ?? ""} ${document.contactName}`.replace(/\s+/g, " ").trim(),
    controlAccount: document.controlAccount,
    lines: document.lines.map((line) => ({ account: line.account, amountCents: line.amountCents, description: line.description, class: line.class })),
    taxLines: document.taxLines
  })

export const titles: Record<PostingKind, string> = {
  invoice: "Invoice",
  credit_memo: "Credit memo",
  bill: "Bill",
  vendor_credit: "Vendor credit",
  sales_receipt: "Sales receipt",
  refund: "Refund",
  vendor_refund: "Vendor refund"
}

export const summaryOf = (document: ResolvedDocument): string =>
  `${titles[document.kind]}${document.number === null ? "" : ` ${document.number}`} ${side(document.kind) === "sales" ? "to" : "from"} ${document.contactName}, ` +
  `${document.lines.length} line${document.lines.length === 1 ? "" : "s"}, ${document.totalCents} cents`

/** The document as the API shows it, before it exists (a dry run's preview). */
export const preview = (document: ResolvedDocument, number: string): Record<string, unknown> => ({
  kind: document.kind,
  side: side(document.kind),
  contact_id: document.contactId,
  number,
  doc_date: document.docDate,
  due_date: document.dueDate,
  terms_days: document.termsDays,
  reference: document.reference,
  memo: document.memo,
  control_account: isCashDocument(document.kind) ? null : document.controlAccount,
  account: isCashDocument(document.kind) ? document.controlAccount : null,
  tax_rate_id: document.taxRateId,
  lines: document.lines.map(lineToWire),
  tax_lines: document.taxLines.map(taxLineToWire),
  subtotal_cents: document.subtotalCents,
  tax_cents: document.taxCents,
  total_cents: document.totalCents,
  status: status(document.kind, document.totalCents, 0, false),
  open_balance_cents: openBalance(document.kind, document.totalCents, 0, false)
})

const lineToWire = (line: ResolvedLine) => ({
  line_no: line.lineNo,
  item_id: line.itemId,
  description: line.description,
  account: line.account,
  quantity: line.quantity,
  unit_price_cents: line.unitPriceCents,
  amount_cents: line.amountCents,
  class: line.class,
  taxable: line.taxable
})

const taxLineToWire = (tax: TaxLine) => ({
  tax_rate_id: tax.taxRateId,
  name: tax.name,
  agency_id: tax.agencyId,
  rate_percent: tax.ratePercent,
  payable_account: tax.payableAccount,
  taxable_subtotal_cents: tax.taxableSubtotalCents,
  tax_cents: tax.taxCents
})

/** The number a write would take now, for a dry run (nothing consumed). */
export const previewNumber = (company: string, document: ResolvedDocument) =>
  document.number === null ? Numbers.next(company, document.kind, false) : Effect.succeed(document.number)

/**
 * Writes a document whose entry has just posted (from `onPosted`, or from a proposal's approval):
 * takes its number, stores it with its lines and tax lines linked to the entry, emits its event.
 */
export const persist = Effect.fn("Documents.persist")(function*(document: ResolvedDocument, entryId: number) {
  const sql = yield* SqlClient.SqlClient
  const request = yield* RequestContext
  const company = request.companyId!
  const number = document.number ?? (yield* Numbers.next(company, document.kind, true))
  const createdBy = yield* actorReference
  const rows = yield* sql<{ id: unknown }>`INSERT INTO documents ${sql.insert({
    company_id: company,
    kind: document.kind,
    side: side(document.kind),
    contact_id: document.contactId,
    number,
    doc_date: document.docDate,
    due_date: document.dueDate,
    terms_days: document.termsDays,
    reference: document.reference,
    memo: document.memo,
    control_account: document.controlAccount,
    tax_rate_id: document.taxRateId,
    subtotal_cents: document.subtotalCents,
    tax_cents: document.taxCents,
    total_cents: document.totalCents,
    entry_id: entryId,
    estimate_id: document.estimateId,
    recurring_template_id: document.recurring?.templateId ?? null,
    created_by: createdBy,
    created_at: request.now
  })} RETURNING id`.pipe(
    Effect.catch((error) =>
      isUniqueViolation(error)
        ? Effect.fail(ApiError.fail("number_in_use", `Number ${number} is already used.`, { issues: [{ path: ["body", "number"], message: "Already used" }] }))
        : Effect.die(error)
    )
  )
  const id = Row.int(rows[0]!.id)
  yield* sql`INSERT INTO document_lines ${sql.insert(rowsToInsert(document.lines.map((line) => ({
    company_id: company,
    document_id: id,
    line_no: line.lineNo,
    item_id: line.itemId,
    description: line.description,
    account: line.account,
    quantity: line.quantity,
    unit_price_cents: line.unitPriceCents,
    amount_cents: line.amountCents,
    class: line.class,
    taxable: line.taxable
  }))))}`.pipe(Effect.orDie)
  if (document.taxLines.length > 0) {
    yield* sql`INSERT INTO document_tax_lines ${sql.insert(rowsToInsert(document.taxLines.map((tax, index) => ({
      company_id: company,
      document_id: id,
      position: index + 1,
      tax_rate_id: tax.taxRateId,
      name: tax.name,
      agency_id: tax.agencyId,
      rate_percent: tax.ratePercent,
      payable_account: tax.payableAccount,
      taxable_subtotal_cents: tax.taxableSubtotalCents,
      tax_cents: tax.taxCents
    }))))}`.pipe(Effect.orDie)
  }
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
const applicationsOf = Effect.fn("Documents.applicationsOf")(function*(company: string, ids: ReadonlyArray<number>) {
  const sql = yield* SqlClient.SqlClient
  if (ids.length === 0) return []
  return yield* sql<Record<string, unknown>>`SELECT * FROM applications WHERE company_id = ${company}
    AND (document_id IN ${sql.in(ids)} OR credit_document_id IN ${sql.in(ids)}) ORDER BY id`.pipe(Effect.orDie)
})

const activeOn = (application: Record<string, unknown>, asOf: string): boolean =>
  Row.date(application.applied_on) <= asOf && (application.voided_on === null || Row.date(application.voided_on) > asOf)

/** Reads documents as the API shows them, balances as of `asOf`. */
export const loadMany = Effect.fn("Documents.loadMany")(function*(company: string, ids: ReadonlyArray<number>, asOf: string) {
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
    const kind = String(row.kind) as PostingKind
    const voided = row.voided === true
    const total = Row.int(row.total_cents)
    const mine = applications.filter((application) =>
      Row.intOrNull(application.document_id) === id || Row.intOrNull(application.credit_document_id) === id
    )
    const applied = mine.filter((application) => activeOn(application, asOf)).reduce((sum, application) => sum + Row.int(application.amount_cents), 0)
    const open = openBalance(kind, total, applied, voided)
    const dueDate = row.due_date === null ? null : Row.date(row.due_date)
    result.set(id, {
      id,
      kind,
      side: String(row.side) as "sales" | "purchases",
      contact_id: Row.int(row.contact_id),
      number: String(row.number),
      doc_date: Row.date(row.doc_date),
      due_date: dueDate,
      terms_days: Row.intOrNull(row.terms_days),
      reference: (row.reference as string | null) ?? null,
      memo: (row.memo as string | null) ?? null,
      control_account: isCashDocument(kind) ? null : String(row.control_account),
      account: isCashDocument(kind) ? String(row.control_account) : null,
      tax_rate_id: Row.intOrNull(row.tax_rate_id),
      lines: lines.filter((line) => Row.int(line.document_id) === id).map((line) => ({
        line_no: Row.int(line.line_no),
        item_id: Row.intOrNull(line.item_id),
        description: (line.description as string | null) ?? null,
        account: String(line.account),
        quantity: (line.quantity as string | null) ?? null,
        unit_price_cents: Row.intOrNull(line.unit_price_cents),
        amount_cents: Row.int(line.amount_cents),
        class: (line.class as string | null) ?? null,
        taxable: line.taxable === true
      })),
      tax_lines: taxes.filter((tax) => Row.int(tax.document_id) === id).map((tax) => ({
        tax_rate_id: Row.int(tax.tax_rate_id),
        name: String(tax.name),
        agency_id: Row.int(tax.agency_id),
        rate_percent: String(tax.rate_percent),
        payable_account: String(tax.payable_account),
        taxable_subtotal_cents: Row.int(tax.taxable_subtotal_cents),
        tax_cents: Row.int(tax.tax_cents)
      })),
      subtotal_cents: Row.int(row.subtotal_cents),
      tax_cents: Row.int(row.tax_cents),
      total_cents: total,
      applied_cents: applied,
      open_balance_cents: open,
      status: status(kind, total, applied, voided),
      overdue: !voided && isOverdue(kind, dueDate, open, asOf),
      entry_id: Row.intOrNull(row.entry_id),
      void_entry_id: Row.intOrNull(row.void_entry_id),
      void_reason: (row.void_reason as string | null) ?? null,
      voided_at: Row.isoOrNull(row.voided_at),
      estimate_id: Row.intOrNull(row.estimate_id),
      recurring_template_id: Row.intOrNull(row.recurring_template_id),
      applications: mine.filter((application) => application.voided_on === null).map((application) => ({
        application_id: Row.int(application.id),
        source: application.payment_id === null ? "credit" as const : "payment" as const,
        payment_id: Row.intOrNull(application.payment_id),
        credit_document_id: Row.intOrNull(application.credit_document_id),
        document_id: Row.int(application.document_id),
        amount_cents: Row.int(application.amount_cents),
        applied_on: Row.date(application.applied_on)
      })),
      created_at: Row.iso(row.created_at)
    })
  }
  return result
})

export const load = Effect.fn("Documents.load")(function*(company: string, id: number, asOf: string) {
  const document = (yield* loadMany(company, [id], asOf)).get(id)
  if (document === undefined) return yield* Effect.fail(ApiError.notFound("document"))
  return document
})

export { controlIsDebited, isCredit }

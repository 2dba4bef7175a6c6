import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Limits, type Sales } from "@ledger/api"
import * as AccountStore from "../common/AccountStore.ts"
import { addDays, isCalendarDate } from "../../kernel/values/Calendar.ts"
import { type ContactRow, loadContact } from "../common/Common.ts"
import type { TaxLine } from "../tax/SalesTaxRules.ts"
import { type ResolvedLine, resolveLines, resolveTax } from "./DocumentLines.ts"
import { documentEntry, type Entry, type PostingKind, side, subtotal, taxTotal } from "./DocumentPosting.ts"
import { isCashDocument } from "./DocumentStatus.ts"
import * as NumberingStore from "./NumberingStore.ts"

/**
 * Sales and purchase documents before they exist: resolving a request into the exact document
 * (lines, accounts, tax per jurisdiction, totals, due date), its entry, its summary for a person
 * deciding a proposal. Its lines are DocumentLines.ts, its columns and wire shape DocumentWire.ts;
 * writing and reading documents is DocumentStore.ts.
 */

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
export const requireFreeNumber = Effect.fn("DocumentResolution.requireFreeNumber")(function*(
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

const controlFor = Effect.fn("DocumentResolution.controlFor")(function*(company: string, kind: PostingKind, request: DocumentRequest) {
  if (isCashDocument(kind)) {
    const code = request.account!
    const facts = yield* AccountStore.requireUsable(company, [{ code, path: ["body", "account"] }])
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
  const code = request.control_account ?? (yield* AccountStore.defaultControl(company, control))
  const facts = yield* AccountStore.requireUsable(company, [{ code, path: ["body", "control_account"] }])
  if (facts.get(code)!.control !== control) {
    return yield* Effect.fail(ApiError.validationFailed(`The control account must be an ${control.toUpperCase()} account.`, [{
      path: ["body", "control_account"],
      message: `Not an ${control.toUpperCase()} control account`
    }]))
  }
  return code
})

/** Checks and resolves a document request into the exact document it posts. Writes nothing. */
export const resolve = Effect.fn("DocumentResolution.resolve")(function*(
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

/** The number a write would take now, for a dry run (nothing consumed). */
export const previewNumber = (company: string, document: ResolvedDocument) =>
  document.number === null ? NumberingStore.next(company, document.kind, false) : Effect.succeed(document.number)


import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError } from "@ledger/api"
import * as Outbox from "../../pipeline/Outbox.ts"
import { RequestContext } from "../../kernel/RequestContext.ts"
import * as Row from "../../kernel/Row.ts"
import { actorReference, rowsToInsert } from "../common/Common.ts"

/**
 * Setting payments and credits against invoices and bills (spec 3.3, DECISIONS.md applications).
 * A payment received or a credit memo applies to the same customer's open invoices; a payment
 * made or a vendor credit to the same vendor's open bills, through the same control account.
 * Target rows are locked FOR UPDATE so two concurrent applications cannot both take the last cent.
 */
export interface ApplicationInput {
  readonly document_id: number
  readonly amount_cents: number
}

export interface Source {
  readonly paymentId: number | null
  readonly creditDocumentId: number | null
  readonly contactId: number
  readonly side: "sales" | "purchases"
  readonly controlAccount: string
  /** The source's own date: an application is never dated before it. */
  readonly date: string
  /** What the source still has to give. */
  readonly availableCents: number
}

interface Target {
  readonly id: number
  readonly number: string
  readonly kind: string
  readonly docDate: string
  readonly openCents: number
  readonly totalCents: number
}

/**
 * Each application against its target document as read: the same contact, kind and control
 * account, not void, and no more than is open. Pure; `check` fails with the issues it finds.
 */
const targetsOf = (
  source: Source,
  applications: ReadonlyArray<ApplicationInput>,
  byId: ReadonlyMap<number, Record<string, unknown>>,
  applied: ReadonlyMap<number, number>,
  path: ReadonlyArray<string | number>
) => {
  const targetKind = source.side === "sales" ? "invoice" : "bill"
  const issues: Array<ApiError.Issue> = []
  const targets = new Map<number, Target>()
  const seen = new Set<number>()
  let sum = 0
  applications.forEach((application, index) => {
    const row = byId.get(application.document_id)
    const at = [...path, index, "document_id"]
    if (seen.has(application.document_id)) return issues.push({ path: at, message: "The same document twice" })
    seen.add(application.document_id)
    if (row === undefined) return issues.push({ path: at, message: "Unknown document" })
    if (row.kind !== targetKind) return issues.push({ path: at, message: `Applies to ${targetKind}s only` })
    if (Row.int(row.contact_id) !== source.contactId) return issues.push({ path: at, message: "Another contact's document" })
    if (row.voided === true) return issues.push({ path: at, message: "Void document" })
    if (String(row.control_account) !== source.controlAccount) {
      return issues.push({ path: at, message: `Posted to ${String(row.control_account)}, not ${source.controlAccount}` })
    }
    const total = Row.int(row.total_cents)
    const open = total - (applied.get(application.document_id) ?? 0)
    if (application.amount_cents > open) {
      return issues.push({ path: [...path, index, "amount_cents"], message: `Only ${open} cents are open` })
    }
    sum += application.amount_cents
    targets.set(application.document_id, {
      id: application.document_id,
      number: String(row.number),
      kind: String(row.kind),
      docDate: Row.date(row.doc_date),
      openCents: open,
      totalCents: total
    })
  })
  return { issues, targets, sum }
}

/** Checks applications against the targets' current open balances; writes nothing. */
export const check = Effect.fn("Applications.check")(function*(
  company: string,
  source: Source,
  applications: ReadonlyArray<ApplicationInput>,
  appliedOn: string,
  options: { readonly lock: boolean; readonly path?: ReadonlyArray<string | number> } = { lock: false }
) {
  const sql = yield* SqlClient.SqlClient
  const path = options.path ?? ["body", "applications"]
  if (applications.length === 0) return new Map<number, Target>()
  const ids = applications.map((application) => application.document_id)
  const rows = yield* sql<Record<string, unknown>>`SELECT d.id, d.number, d.kind, d.contact_id, d.control_account, d.voided,
      d.doc_date, d.total_cents FROM documents d
    WHERE d.company_id = ${company} AND d.id IN ${sql.in(ids)} ORDER BY d.id
    ${options.lock ? sql`FOR UPDATE` : sql``}`.pipe(Effect.orDie)
  const appliedRows = yield* sql<{ document_id: unknown; applied: unknown }>`SELECT document_id, sum(amount_cents) AS applied
    FROM applications WHERE company_id = ${company} AND document_id IN ${sql.in(ids)} AND voided_on IS NULL
    GROUP BY document_id`.pipe(Effect.orDie)
  const applied = new Map(appliedRows.map((row) => [Row.int(row.document_id), Row.int(row.applied)]))
  const { issues, targets, sum } = targetsOf(source, applications, new Map(rows.map((row) => [Row.int(row.id), row])), applied, path)
  const overApplied = issues.some((issue) => issue.message.startsWith("Only "))
  if (issues.length > 0) {
    return yield* Effect.fail(
      overApplied
        ? ApiError.fail("over_application", "An application is larger than what is open.", { issues })
        : ApiError.validationFailed("Some applications cannot be made.", issues)
    )
  }
  if (sum > source.availableCents) {
    return yield* Effect.fail(ApiError.fail("over_application", `Applications total ${sum} cents; only ${source.availableCents} are available.`, {
      issues: [{ path, message: `At most ${source.availableCents} cents` }]
    }))
  }
  const early = [...targets.values()].filter((target) => appliedOn < target.docDate || appliedOn < source.date)
  if (early.length > 0) {
    return yield* Effect.fail(ApiError.validationFailed("An application cannot be dated before the documents it joins.", [{
      path: ["body", "applied_on"],
      message: `Before ${early.map((target) => target.number).join(", ")} or the source`
    }]))
  }
  return targets
})

/** Checks again under lock, writes the applications and tells who is now paid in full. */
export const apply = Effect.fn("Applications.apply")(function*(
  company: string,
  source: Source,
  applications: ReadonlyArray<ApplicationInput>,
  appliedOn: string
) {
  const sql = yield* SqlClient.SqlClient
  const request = yield* RequestContext
  if (applications.length === 0) return
  const targets = yield* check(company, source, applications, appliedOn, { lock: true })
  const createdBy = yield* actorReference
  yield* sql`INSERT INTO applications ${sql.insert(rowsToInsert(applications.map((application) => ({
    company_id: company,
    payment_id: source.paymentId,
    credit_document_id: source.creditDocumentId,
    document_id: application.document_id,
    amount_cents: application.amount_cents,
    applied_on: appliedOn,
    created_by: createdBy,
    created_at: request.now
  }))))}`.pipe(Effect.orDie)
  for (const application of applications) {
    const target = targets.get(application.document_id)!
    if (application.amount_cents === target.openCents) {
      yield* Outbox.emit(target.kind === "invoice" ? "invoice.paid" : "bill.paid", {
        document_id: target.id,
        number: target.number,
        contact_id: source.contactId,
        total_cents: target.totalCents,
        paid_on: appliedOn,
        ...(source.paymentId === null ? { credit_document_id: source.creditDocumentId } : { payment_id: source.paymentId })
      }).pipe(Effect.orDie)
    }
  }
})

/** Ends every live application of a payment or credit that is being voided. */
export const voidAll = Effect.fn("Applications.voidAll")(function*(
  company: string,
  source: { readonly paymentId?: number; readonly creditDocumentId?: number },
  voidedOn: string
) {
  const sql = yield* SqlClient.SqlClient
  const request = yield* RequestContext
  const filter = source.paymentId !== undefined
    ? sql`payment_id = ${source.paymentId}`
    : sql`credit_document_id = ${source.creditDocumentId!}`
  yield* sql`UPDATE applications SET voided_on = ${voidedOn}, voided_at = ${request.now}
    WHERE company_id = ${company} AND ${filter} AND voided_on IS NULL`.pipe(Effect.orDie)
})

/** What a payment or credit has applied now (live applications). */
export const appliedFrom = Effect.fn("Applications.appliedFrom")(function*(
  company: string,
  source: { readonly paymentId?: number; readonly creditDocumentId?: number }
) {
  const sql = yield* SqlClient.SqlClient
  const filter = source.paymentId !== undefined
    ? sql`payment_id = ${source.paymentId}`
    : sql`credit_document_id = ${source.creditDocumentId!}`
  const rows = yield* sql<{ applied: unknown }>`SELECT coalesce(sum(amount_cents), 0) AS applied FROM applications
    WHERE company_id = ${company} AND ${filter} AND voided_on IS NULL`.pipe(Effect.orDie)
  return Row.int(rows[0]?.applied ?? 0)
})

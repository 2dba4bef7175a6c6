import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import * as Row from "../../kernel/Row.ts"

/**
 * Open balances as of a date, from documents, payments and applications alone (no journal scan):
 * a document counts from its date until its void date; an application from the day it was
 * applied until the day it was voided. The aging reports and contact balances read these, so
 * they agree by construction.
 */
export interface OpenDocument {
  readonly id: number
  readonly kind: string
  readonly contactId: number
  readonly number: string
  readonly docDate: string
  readonly dueDate: string
  readonly totalCents: number
  readonly openCents: number
}

export interface Credit {
  readonly contactId: number
  readonly source: "credit" | "payment"
  readonly id: number
  readonly unappliedCents: number
}

/** Invoices or bills with money still owed on `asOf`. */
export const openDocuments = Effect.fn("OpenBalanceStore.openDocuments")(function*(options: {
  readonly companyId: string
  readonly asOf: string
  readonly kinds: ReadonlyArray<"invoice" | "bill">
  readonly contactIds?: ReadonlyArray<number>
}) {
  const sql = yield* SqlClient.SqlClient
  const { asOf, companyId } = options
  const rows = yield* sql<Record<string, unknown>>`
    SELECT d.id, d.kind, d.contact_id, d.number, d.doc_date, coalesce(d.due_date, d.doc_date) AS due_date, d.total_cents,
      d.total_cents - coalesce((SELECT sum(a.amount_cents) FROM applications a
        WHERE a.company_id = d.company_id AND a.document_id = d.id AND a.applied_on <= ${asOf}
          AND (a.voided_on IS NULL OR a.voided_on > ${asOf})), 0) AS open_cents
    FROM documents d
    WHERE d.company_id = ${companyId} AND d.kind IN ${sql.in(options.kinds)} AND d.doc_date <= ${asOf}
      AND (NOT d.voided OR d.void_date > ${asOf})
      ${options.contactIds === undefined ? sql`` : sql`AND d.contact_id IN ${sql.in(options.contactIds.length === 0 ? [0] : options.contactIds)}`}
    ORDER BY d.contact_id, d.doc_date, d.id`.pipe(Effect.orDie)
  return rows
    .map((row): OpenDocument => ({
      id: Row.int(row.id),
      kind: String(row.kind),
      contactId: Row.int(row.contact_id),
      number: String(row.number),
      docDate: Row.date(row.doc_date),
      dueDate: Row.date(row.due_date),
      totalCents: Row.int(row.total_cents),
      openCents: Row.int(row.open_cents)
    }))
    .filter((document) => document.openCents !== 0)
})

/** Credits (credit memos or vendor credits) and payments with an unapplied remainder on `asOf`. */
export const unappliedCredits = Effect.fn("OpenBalanceStore.unappliedCredits")(function*(options: {
  readonly companyId: string
  readonly asOf: string
  readonly side: "sales" | "purchases"
  readonly contactIds?: ReadonlyArray<number>
}) {
  const sql = yield* SqlClient.SqlClient
  const { asOf, companyId } = options
  const creditKind = options.side === "sales" ? "credit_memo" : "vendor_credit"
  const direction = options.side === "sales" ? "received" : "made"
  const contactIds = options.contactIds
  const contactFilter = (column: "d" | "p") =>
    contactIds === undefined
      ? sql``
      : column === "d"
      ? sql`AND d.contact_id IN ${sql.in(contactIds.length === 0 ? [0] : contactIds)}`
      : sql`AND p.contact_id IN ${sql.in(contactIds.length === 0 ? [0] : contactIds)}`
  const active = sql`a.applied_on <= ${asOf} AND (a.voided_on IS NULL OR a.voided_on > ${asOf})`
  const credits = yield* sql<Record<string, unknown>>`
    SELECT d.id, d.contact_id, d.total_cents - coalesce((SELECT sum(a.amount_cents) FROM applications a
      WHERE a.company_id = d.company_id AND a.credit_document_id = d.id AND ${active}), 0) AS unapplied
    FROM documents d
    WHERE d.company_id = ${companyId} AND d.kind = ${creditKind} AND d.doc_date <= ${asOf}
      AND (NOT d.voided OR d.void_date > ${asOf}) ${contactFilter("d")}`.pipe(Effect.orDie)
  const payments = yield* sql<Record<string, unknown>>`
    SELECT p.id, p.contact_id, p.amount_cents - coalesce((SELECT sum(a.amount_cents) FROM applications a
      WHERE a.company_id = p.company_id AND a.payment_id = p.id AND ${active}), 0) AS unapplied
    FROM payments p
    WHERE p.company_id = ${companyId} AND p.direction = ${direction} AND p.payment_date <= ${asOf}
      AND (NOT p.voided OR p.void_date > ${asOf}) ${contactFilter("p")}`.pipe(Effect.orDie)
  const toCredit = (source: "credit" | "payment") => (row: Record<string, unknown>): Credit => ({
    contactId: Row.int(row.contact_id),
    source,
    id: Row.int(row.id),
    unappliedCents: Row.int(row.unapplied)
  })
  return [...credits.map(toCredit("credit")), ...payments.map(toCredit("payment"))].filter((credit) => credit.unappliedCents !== 0)
})

export interface ContactBalance {
  readonly openCents: number
  readonly overdueCents: number
  readonly unappliedCents: number
}

/** Per contact: what is owed (documents less unapplied credits), what is overdue, credit on account. */
export const byContact = Effect.fn("OpenBalanceStore.byContact")(function*(companyId: string, asOf: string, contactIds: ReadonlyArray<number>) {
  const balances = new Map<number, { openCents: number; overdueCents: number; unappliedCents: number }>()
  const entry = (id: number) => {
    let balance = balances.get(id)
    if (balance === undefined) {
      balance = { openCents: 0, overdueCents: 0, unappliedCents: 0 }
      balances.set(id, balance)
    }
    return balance
  }
  if (contactIds.length === 0) return balances as Map<number, ContactBalance>
  for (const document of yield* openDocuments({ companyId, asOf, kinds: ["invoice", "bill"], contactIds })) {
    const balance = entry(document.contactId)
    balance.openCents += document.openCents
    if (document.dueDate < asOf) balance.overdueCents += document.openCents
  }
  for (const side of ["sales", "purchases"] as const) {
    for (const credit of yield* unappliedCredits({ companyId, asOf, side, contactIds })) {
      const balance = entry(credit.contactId)
      balance.unappliedCents += credit.unappliedCents
      balance.openCents -= credit.unappliedCents
    }
  }
  return balances as Map<number, ContactBalance>
})

import { Effect } from "effect"
import { requireCompanyId } from "../../kernel/CompanyContext.ts"
import { SqlClient } from "effect/sql"
import { ApiError, Sales } from "@ledger/api"
import * as Handler from "../../kernel/Handler.ts"
import * as Pagination from "../../kernel/Pagination.ts"
import { RequestContext } from "../../kernel/RequestContext.ts"
import * as Row from "../../kernel/Row.ts"
import * as OpenBalanceStore from "../common/OpenBalanceStore.ts"
import { asOfOrToday } from "../common/Common.ts"
import { openBalance, status } from "../documents/DocumentStatus.ts"

/** Only the last four digits of a tax id are ever kept (spec 2). */
export const lastFour = (taxId: string): string => taxId.replace(/-/g, "").slice(-4)

const contact = (row: Record<string, unknown>, asOf: string, balance: OpenBalanceStore.ContactBalance | undefined): Sales.Contacts.Contact => ({
  id: Row.int(row.id),
  kind: row.kind as "customer" | "vendor",
  name: String(row.name),
  email: (row.email as string | null) ?? null,
  terms_days: Row.intOrNull(row.terms_days),
  active: row.active === true,
  is_1099: row.is_1099 === true,
  has_tax_id: row.tax_id_last4 !== null && row.tax_id_last4 !== undefined,
  as_of: asOf,
  open_balance_cents: balance?.openCents ?? 0,
  overdue_balance_cents: balance?.overdueCents ?? 0,
  unapplied_credit_cents: balance?.unappliedCents ?? 0,
  created_at: Row.iso(row.created_at)
})

const loadRow = Effect.fn("Contacts.loadRow")(function*(company: string, id: number) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM contacts WHERE company_id = ${company} AND id = ${id}`.pipe(Effect.orDie)
  if (rows[0] === undefined) return yield* Effect.fail(ApiError.notFound("contact"))
  return rows[0]
})

const refuse1099ForCustomers = (kind: string, is1099: boolean | undefined) =>
  kind === "customer" && is1099 === true
    ? Effect.fail(ApiError.validationFailed("Only vendors receive 1099s.", [{ path: ["body", "is_1099"], message: "Vendors only" }]))
    : Effect.void

/** A new contact's row (the create operation's, and a migration's lists: `active` false for an inactive one). */
export const insert = Effect.fn("Contacts.insert")(function*(company: string, body: {
  readonly kind: "customer" | "vendor"
  readonly name: string
  readonly email?: string | null | undefined
  readonly terms_days?: number | null | undefined
  readonly is_1099?: boolean | undefined
  readonly tax_id?: string | undefined
  readonly active?: boolean | undefined
}, now: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`INSERT INTO contacts ${sql.insert({
    company_id: company,
    kind: body.kind,
    name: body.name,
    email: body.email ?? null,
    terms_days: body.terms_days ?? null,
    active: body.active ?? true,
    is_1099: body.is_1099 ?? false,
    tax_id_last4: body.tax_id === undefined ? null : lastFour(body.tax_id),
    created_at: now,
    updated_at: now
  })} RETURNING *`.pipe(Effect.orDie)
  return rows[0]!
})

export const handlers = [
  Handler.make(Sales.Contacts.createContact, ({ body }) =>
    Effect.gen(function*() {
      const request = yield* RequestContext
      const company = yield* requireCompanyId
      yield* refuse1099ForCustomers(body.kind, body.is_1099)
      const created = contact(yield* insert(company, body, request.now), request.today, undefined)
      return { body: created, audit: { targetType: "contact", targetId: created.id, details: { kind: body.kind } } }
    })),

  Handler.make(Sales.Contacts.listContacts, ({ query }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const company = yield* requireCompanyId
      const asOf = yield* asOfOrToday(query.as_of)
      const select = (after: number | null, limitPlusOne: number) =>
        sql<Record<string, unknown>>`SELECT * FROM contacts WHERE company_id = ${company}
        ${query.kind === undefined ? sql`` : sql`AND kind = ${query.kind}`}
        ${query.include_inactive === true ? sql`` : sql`AND active`}
        ${after === null ? sql`` : sql`AND id < ${after}`}
        ORDER BY id DESC LIMIT ${limitPlusOne}`.pipe(Effect.orDie)
      const load = (shown: ReadonlyArray<Record<string, unknown>>) =>
        Effect.map(OpenBalanceStore.byContact(company, asOf, shown.map((row) => Row.int(row.id))), (balances) =>
          shown.map((row) => contact(row, asOf, balances.get(Row.int(row.id)))))
      return { body: yield* Pagination.listPageLoaded(query, select, (row) => Row.int(row.id), load) }
    })),

  Handler.make(Sales.Contacts.getContact, ({ path, query }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const company = yield* requireCompanyId
      const asOf = yield* asOfOrToday(query.as_of)
      const row = yield* loadRow(company, path.id)
      const balances = yield* OpenBalanceStore.byContact(company, asOf, [path.id])
      const documents = yield* sql<Record<string, unknown>>`
        SELECT d.id, d.kind, d.number, d.doc_date, d.total_cents, d.voided,
          coalesce((SELECT sum(a.amount_cents) FROM applications a WHERE a.company_id = d.company_id
            AND (a.document_id = d.id OR a.credit_document_id = d.id) AND a.voided_on IS NULL), 0) AS applied
        FROM documents d WHERE d.company_id = ${company} AND d.contact_id = ${path.id}
        ORDER BY d.doc_date DESC, d.id DESC LIMIT 200`.pipe(Effect.orDie)
      const payments = yield* sql<Record<string, unknown>>`
        SELECT p.id, p.direction, p.number, p.payment_date, p.amount_cents, p.voided,
          coalesce((SELECT sum(a.amount_cents) FROM applications a WHERE a.company_id = p.company_id
            AND a.payment_id = p.id AND a.voided_on IS NULL), 0) AS applied
        FROM payments p WHERE p.company_id = ${company} AND p.contact_id = ${path.id}
        ORDER BY p.payment_date DESC, p.id DESC LIMIT 200`.pipe(Effect.orDie)
      return {
        body: {
          ...contact(row, asOf, balances.get(path.id)),
          documents: documents.map((document) => {
            const kind = String(document.kind)
            const total = Row.int(document.total_cents)
            const applied = Row.int(document.applied)
            const voided = document.voided === true
            return {
              id: Row.int(document.id),
              type: kind,
              number: String(document.number),
              date: Row.date(document.doc_date),
              total_cents: total,
              open_cents: openBalance(kind, total, applied, voided),
              status: status(kind, total, applied, voided)
            }
          }),
          payments: payments.map((payment) => {
            const amount = Row.int(payment.amount_cents)
            return {
              id: Row.int(payment.id),
              type: `payment_${String(payment.direction)}`,
              number: (payment.number as string | null) ?? null,
              date: Row.date(payment.payment_date),
              total_cents: amount,
              open_cents: payment.voided === true ? 0 : amount - Row.int(payment.applied),
              status: payment.voided === true ? "void" : "posted"
            }
          })
        }
      }
    })),

  Handler.make(Sales.Contacts.updateContact, ({ path, body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const company = yield* requireCompanyId
      const row = yield* loadRow(company, path.id)
      yield* refuse1099ForCustomers(String(row.kind), body.is_1099)
      const changes: Record<string, unknown> = { updated_at: request.now }
      if (body.name !== undefined) changes.name = body.name
      if (body.email !== undefined) changes.email = body.email
      if (body.terms_days !== undefined) changes.terms_days = body.terms_days
      if (body.active !== undefined) changes.active = body.active
      if (body.is_1099 !== undefined) changes.is_1099 = body.is_1099
      if (body.tax_id !== undefined) changes.tax_id_last4 = body.tax_id === null ? null : lastFour(body.tax_id)
      const rows = yield* sql<Record<string, unknown>>`UPDATE contacts SET ${sql.update(changes)}
        WHERE company_id = ${company} AND id = ${path.id} RETURNING *`.pipe(Effect.orDie)
      const balances = yield* OpenBalanceStore.byContact(company, request.today, [path.id])
      // The audit event names the fields changed, never a tax id's value.
      const changed = Object.keys(body)
      return {
        body: contact(rows[0]!, request.today, balances.get(path.id)),
        audit: { targetType: "contact", targetId: path.id, details: { changed } }
      }
    }))
]

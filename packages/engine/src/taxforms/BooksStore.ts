import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError } from "@ledger/api"
import * as Row from "../kernel/Row.ts"
import type { Payment } from "./AmountRules.ts"

/**
 * What the 1099s read of the books, read only: vendors (the sales area's contacts), the payments
 * made to them with the bill lines they paid, and whether an account exists. The sales area's
 * index.ts offers no reader of these yet, so the queries are here, in one file, touching nothing.
 */

export interface Vendor {
  readonly id: number
  readonly name: string
  readonly email: string | null
  readonly is1099: boolean
}

const vendorOf = (row: Record<string, unknown>): Vendor => ({
  id: Row.int(row.id),
  name: String(row.name),
  email: (row.email as string | null) ?? null,
  is1099: row.is_1099 === true
})

/** The vendor, or 404 for a contact of another company or none; 422 `not_a_vendor` for a customer. */
export const vendor = Effect.fn("BooksStore.vendor")(function*(company: string, id: number) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT id, name, email, kind, is_1099 FROM contacts
    WHERE company_id = ${company} AND id = ${id}`.pipe(Effect.orDie)
  const row = rows[0]
  if (row === undefined) return yield* Effect.fail(ApiError.notFound("vendor"))
  if (row.kind !== "vendor") return yield* Effect.fail(ApiError.fail("not_a_vendor", `Contact ${id} is a customer, not a vendor.`))
  return vendorOf(row)
})

export const vendors = Effect.fn("BooksStore.vendors")(function*(company: string, ids: ReadonlyArray<number>) {
  const sql = yield* SqlClient.SqlClient
  if (ids.length === 0) return new Map<number, Vendor>()
  const rows = yield* sql<Record<string, unknown>>`SELECT id, name, email, is_1099 FROM contacts
    WHERE company_id = ${company} AND kind = 'vendor' AND id IN ${sql.in(ids)}`.pipe(Effect.orDie)
  return new Map(rows.map((row) => [Row.int(row.id), vendorOf(row)]))
})

export const accountExists = Effect.fn("BooksStore.accountExists")(function*(company: string, code: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql`SELECT 1 FROM accounts WHERE company_id = ${company} AND code = ${code}`.pipe(Effect.orDie)
  return rows.length > 0
})

/**
 * Payments made in `year` to vendors marked for 1099s, not voided, each with the bill lines its
 * live applications paid. `byCard`: paid from a credit card account (reported on 1099-K instead).
 */
export const payments = Effect.fn("BooksStore.payments")(function*(company: string, year: number) {
  const sql = yield* SqlClient.SqlClient
  const from = `${year}-01-01`
  const to = `${year}-12-31`
  const rows = yield* sql<Record<string, unknown>>`SELECT p.id, p.contact_id, p.amount_cents, a.type AS account_type, a.subtype
    FROM payments p
    JOIN contacts c ON c.company_id = p.company_id AND c.id = p.contact_id
    LEFT JOIN accounts a ON a.company_id = p.company_id AND a.code = p.account
    WHERE p.company_id = ${company} AND p.direction = 'made' AND NOT p.voided AND c.is_1099
      AND p.payment_date BETWEEN ${from} AND ${to}
    ORDER BY p.id`.pipe(Effect.orDie)
  if (rows.length === 0) return [] as Array<Payment>
  const ids = rows.map((row) => Row.int(row.id))
  const lines = yield* sql<Record<string, unknown>>`SELECT ap.id AS application_id, ap.payment_id, ap.amount_cents AS applied,
      dl.account, dl.amount_cents AS line_amount
    FROM applications ap
    JOIN document_lines dl ON dl.company_id = ap.company_id AND dl.document_id = ap.document_id
    WHERE ap.company_id = ${company} AND ap.payment_id IN ${sql.in(ids)} AND ap.voided_on IS NULL
    ORDER BY ap.id, dl.line_no`.pipe(Effect.orDie)
  const byPayment = new Map<number, Array<Payment["lines"][number]>>()
  for (const line of lines) {
    const id = Row.int(line.payment_id)
    byPayment.set(id, [...(byPayment.get(id) ?? []), {
      application: Row.int(line.application_id),
      applied: Row.int(line.applied),
      account: String(line.account),
      lineAmount: Row.int(line.line_amount)
    }])
  }
  return rows.map((row): Payment => ({
    id: Row.int(row.id),
    contactId: Row.int(row.contact_id),
    amountCents: Row.int(row.amount_cents),
    byCard: row.subtype === "credit_card",
    lines: byPayment.get(Row.int(row.id)) ?? []
  }))
})

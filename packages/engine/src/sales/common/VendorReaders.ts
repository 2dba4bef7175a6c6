import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError } from "@ledger/api"
import * as Row from "../../kernel/Row.ts"

/**
 * Read-only views of vendors and the payments made to them, for other areas (the 1099 forms read
 * them; they never write sales tables). Queries over contacts, payments, applications and bill
 * lines stay in the area that owns those tables.
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
export const vendor = Effect.fn("VendorReaders.vendor")(function*(company: string, id: number) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT id, name, email, kind, is_1099 FROM contacts
    WHERE company_id = ${company} AND id = ${id}`.pipe(Effect.orDie)
  const row = rows[0]
  if (row === undefined) return yield* Effect.fail(ApiError.notFound("vendor"))
  if (row.kind !== "vendor") return yield* Effect.fail(ApiError.fail("not_a_vendor", `Contact ${id} is a customer, not a vendor.`))
  return vendorOf(row)
})

/** The vendors among `ids` (customers and unknown ids left out). */
export const vendors = Effect.fn("VendorReaders.vendors")(function*(company: string, ids: ReadonlyArray<number>) {
  const sql = yield* SqlClient.SqlClient
  if (ids.length === 0) return new Map<number, Vendor>()
  const rows = yield* sql<Record<string, unknown>>`SELECT id, name, email, is_1099 FROM contacts
    WHERE company_id = ${company} AND kind = 'vendor' AND id IN ${sql.in(ids)}`.pipe(Effect.orDie)
  return new Map(rows.map((row) => [Row.int(row.id), vendorOf(row)]))
})

export interface PaymentMade {
  readonly id: number
  readonly contactId: number
  readonly amountCents: number
  /** The account paid from and its subtype (`bank`, `cash`, `credit_card`, `clearing`, ...). */
  readonly account: string
  readonly accountSubtype: string | null
  /** The bill lines each live application of the payment paid, with the application's amount. */
  readonly lines: ReadonlyArray<{ readonly application: number; readonly applied: number; readonly account: string; readonly lineAmount: number }>
}

/**
 * Payments made between `from` and `to` (inclusive, by payment date), not voided, to vendors
 * marked for 1099s, each with the bill lines its live applications paid.
 */
export const paymentsMadeTo1099Vendors = Effect.fn("VendorReaders.paymentsMadeTo1099Vendors")(function*(company: string, from: string, to: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT p.id, p.contact_id, p.amount_cents, p.account, a.subtype
    FROM payments p
    JOIN contacts c ON c.company_id = p.company_id AND c.id = p.contact_id
    LEFT JOIN accounts a ON a.company_id = p.company_id AND a.code = p.account
    WHERE p.company_id = ${company} AND p.direction = 'made' AND NOT p.voided AND c.is_1099
      AND p.payment_date BETWEEN ${from} AND ${to}
    ORDER BY p.id`.pipe(Effect.orDie)
  if (rows.length === 0) return [] as Array<PaymentMade>
  const ids = rows.map((row) => Row.int(row.id))
  const lines = yield* sql<Record<string, unknown>>`SELECT ap.id AS application_id, ap.payment_id, ap.amount_cents AS applied,
      dl.account, dl.amount_cents AS line_amount
    FROM applications ap
    JOIN document_lines dl ON dl.company_id = ap.company_id AND dl.document_id = ap.document_id
    WHERE ap.company_id = ${company} AND ap.payment_id IN ${sql.in(ids)} AND ap.voided_on IS NULL
    ORDER BY ap.id, dl.line_no`.pipe(Effect.orDie)
  const byPayment = new Map<number, Array<PaymentMade["lines"][number]>>()
  for (const line of lines) {
    const id = Row.int(line.payment_id)
    byPayment.set(id, [...(byPayment.get(id) ?? []), {
      application: Row.int(line.application_id),
      applied: Row.int(line.applied),
      account: String(line.account),
      lineAmount: Row.int(line.line_amount)
    }])
  }
  return rows.map((row): PaymentMade => ({
    id: Row.int(row.id),
    contactId: Row.int(row.contact_id),
    amountCents: Row.int(row.amount_cents),
    account: String(row.account),
    accountSubtype: (row.subtype as string | null) ?? null,
    lines: byPayment.get(Row.int(row.id)) ?? []
  }))
})

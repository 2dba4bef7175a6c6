import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, type EstimatedTaxes } from "@ledger/api"
import * as Row from "../kernel/Row.ts"
import { LedgerReaders } from "../ledger/index.ts"
import * as Outbox from "../pipeline/Outbox.ts"

type Payment = EstimatedTaxes.EstimatedTaxes.Payment
type PlanInputs = EstimatedTaxes.EstimatedTaxes.PlanInputs

export const payment = (row: Record<string, unknown>): Payment => ({
  id: Row.int(row.id),
  tax_year: Row.int(row.tax_year),
  quarter: Row.int(row.quarter),
  paid_on: Row.date(row.paid_on),
  amount_cents: Row.int(row.amount_cents),
  method: row.method as Payment["method"],
  confirmation: (row.confirmation as string | null) ?? null,
  note: (row.note as string | null) ?? null,
  payment_account: (row.payment_account as string | null) ?? null,
  pay_from_account: (row.pay_from_account as string | null) ?? null,
  outside_books: row.outside_books === true,
  entry_id: Row.intOrNull(row.entry_id),
  status: row.status as "recorded" | "void",
  void_entry_id: Row.intOrNull(row.void_entry_id),
  void_reason: (row.void_reason as string | null) ?? null,
  created_by: String(row.created_by),
  created_at: Row.iso(row.created_at),
  voided_at: Row.isoOrNull(row.voided_at)
})

export const plan = Effect.fn("EstimateStore.plan")(function*(company: string, year: number) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM estimated_tax_plans WHERE company_id = ${company} AND tax_year = ${year}`.pipe(Effect.orDie)
  return rows[0] === undefined ? null : { inputs: Row.json<PlanInputs>(rows[0].inputs), savedAt: Row.iso(rows[0].saved_at) }
})

export const savePlan = Effect.fn("EstimateStore.savePlan")(function*(company: string, year: number, inputs: PlanInputs, by: string, now: string) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`INSERT INTO estimated_tax_plans ${sql.insert({ company_id: company, tax_year: year, inputs: JSON.stringify(inputs), saved_by: by, saved_at: now })}
    ON CONFLICT (company_id, tax_year) DO UPDATE SET inputs = EXCLUDED.inputs, saved_by = EXCLUDED.saved_by, saved_at = EXCLUDED.saved_at`.pipe(Effect.orDie)
})

export const payments = Effect.fn("EstimateStore.payments")(function*(company: string, year: number) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM estimated_tax_payments WHERE company_id = ${company} AND tax_year = ${year}
    ORDER BY paid_on, id`.pipe(Effect.orDie)
  return rows.map(payment)
})

export interface NewPayment {
  readonly tax_year: number
  readonly quarter: number
  readonly paid_on: string
  readonly amount_cents: number
  readonly method: Payment["method"]
  readonly confirmation: string | null
  readonly note: string | null
  readonly payment_account: string | null
  readonly pay_from_account: string | null
  readonly outside_books: boolean
  readonly created_by: string
}

/** A payment's row; `id` is the one its entry names as `source.id` (reserved before posting), null for one outside the books. */
export const insertPayment = Effect.fn("EstimateStore.insertPayment")(function*(company: string, input: NewPayment, entryId: number | null, now: string, id: number | null = null) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`INSERT INTO estimated_tax_payments ${sql.insert({
    ...(id === null ? {} : { id }), company_id: company, ...input, entry_id: entryId, created_at: now
  })} RETURNING *`.pipe(Effect.orDie)
  const created = payment(rows[0]!)
  yield* Outbox.emit("estimated_tax.payment_recorded", { payment_id: created.id, tax_year: created.tax_year, quarter: created.quarter, amount_cents: created.amount_cents, entry_id: entryId }).pipe(Effect.orDie)
  return created
})

export const loadPayment = Effect.fn("EstimateStore.loadPayment")(function*(company: string, id: number, lock = false) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM estimated_tax_payments WHERE company_id = ${company} AND id = ${id}
    ${lock ? sql`FOR UPDATE` : sql``}`.pipe(Effect.orDie)
  if (rows[0] === undefined) return yield* Effect.fail(ApiError.notFound("estimated-tax payment"))
  return payment(rows[0])
})

export const markVoid = Effect.fn("EstimateStore.markVoid")(function*(company: string, id: number, reason: string, entryId: number | null, now: string) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`UPDATE estimated_tax_payments SET status = 'void', void_reason = ${reason}, void_entry_id = ${entryId}, voided_at = ${now}
    WHERE company_id = ${company} AND id = ${id}`.pipe(Effect.orDie)
  yield* Outbox.emit("estimated_tax.payment_voided", { payment_id: id, void_entry_id: entryId, reason }).pipe(Effect.orDie)
  return yield* loadPayment(company, id)
})

/** The return type of the company's tax profile (the tax area's `POST /v1/tax/profile`), if set. */
export const profileReturnType = Effect.fn("EstimateStore.profileReturnType")(function*(company: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ return_type: string }>`SELECT return_type FROM tax_profiles WHERE company_id = ${company}`.pipe(Effect.orDie)
  return (rows[0]?.return_type ?? null) as PlanInputs["return_type"] | null
})

/** Net income of the books (income less expenses) from January 1 through `through` (the ledger's reader). */
export const netIncome = Effect.fn("EstimateStore.netIncome")(function*(company: string, year: number, through: string) {
  // 0 - x, not -x: no negative zero when the books are empty.
  return 0 - (yield* LedgerReaders.netDebits(company, { types: ["income", "expense"], from: `${year}-01-01`, to: through }))
})

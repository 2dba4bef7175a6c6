import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, type Mileage } from "@ledger/api"
import * as Row from "../kernel/Row.ts"
import * as Outbox from "../pipeline/Outbox.ts"
import * as Rules from "./MileageRules.ts"

export const record = (row: Record<string, unknown>): Mileage.Reimbursements.Reimbursement => ({
  id: Row.int(row.id),
  vehicle_id: Row.int(row.vehicle_id),
  payee: String(row.payee),
  period_start: Row.date(row.period_start),
  period_end: Row.date(row.period_end),
  business_miles: Rules.toMiles(Row.int(row.business_tenths)),
  business_tenths: Row.int(row.business_tenths),
  amount_cents: Row.int(row.amount_cents),
  rates: Row.json(row.rates),
  expense_account: String(row.expense_account),
  pay_from_account: String(row.pay_from_account),
  entry_date: Row.date(row.entry_date),
  entry_id: Row.int(row.entry_id),
  status: row.status as "posted" | "void",
  void_entry_id: Row.intOrNull(row.void_entry_id),
  void_reason: (row.void_reason as string | null) ?? null,
  voided_at: Row.isoOrNull(row.voided_at),
  created_at: Row.iso(row.created_at)
})

/** What a reimbursement posts, as computed before posting (also the stored proposal's request). */
export interface Resolved {
  readonly vehicle_id: number
  readonly payee: string
  readonly period_start: string
  readonly period_end: string
  readonly business_tenths: number
  readonly amount_cents: number
  readonly rates: ReadonlyArray<Mileage.Deduction.RateUsed>
  readonly expense_account: string
  readonly pay_from_account: string
  readonly entry_date: string
}

/** A reimbursement's row under `id`, the one its entry names as `source.id` (reserved before posting). */
export const insert = Effect.fn("ReimbursementStore.insert")(function*(company: string, resolved: Resolved, entryId: number, now: string, id: number) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`INSERT INTO mileage_reimbursements ${sql.insert({
    id,
    company_id: company,
    ...resolved,
    rates: JSON.stringify(resolved.rates),
    entry_id: entryId,
    created_at: now
  })} RETURNING *`.pipe(Effect.orDie)
  const created = record(rows[0]!)
  yield* Outbox.emit("mileage.reimbursement_posted", { reimbursement_id: created.id, vehicle_id: created.vehicle_id, payee: created.payee, amount_cents: created.amount_cents, entry_id: entryId }).pipe(Effect.orDie)
  return created
})

export const load = Effect.fn("ReimbursementStore.load")(function*(company: string, id: number, lock = false) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM mileage_reimbursements WHERE company_id = ${company} AND id = ${id}
    ${lock ? sql`FOR UPDATE` : sql``}`.pipe(Effect.orDie)
  if (rows[0] === undefined) return yield* Effect.fail(ApiError.notFound("reimbursement"))
  return record(rows[0])
})

/** Posted reimbursements of the vehicle whose period overlaps this one. */
export const overlapping = Effect.fn("ReimbursementStore.overlapping")(function*(company: string, vehicleId: number, start: string, end: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ id: unknown }>`SELECT id FROM mileage_reimbursements WHERE company_id = ${company} AND vehicle_id = ${vehicleId}
    AND status = 'posted' AND period_start <= ${end} AND period_end >= ${start}`.pipe(Effect.orDie)
  return rows.map((row) => Row.int(row.id))
})

export const markVoid = Effect.fn("ReimbursementStore.markVoid")(function*(company: string, id: number, reason: string, entryId: number, now: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ status: string }>`SELECT status FROM mileage_reimbursements WHERE company_id = ${company} AND id = ${id} FOR UPDATE`.pipe(Effect.orDie)
  if (rows[0]?.status === "void") return yield* Effect.fail(ApiError.fail("already_void", "The reimbursement is already void."))
  yield* sql`UPDATE mileage_reimbursements SET status = 'void', void_reason = ${reason}, void_entry_id = ${entryId}, voided_at = ${now}
    WHERE company_id = ${company} AND id = ${id}`.pipe(Effect.orDie)
  yield* Outbox.emit("mileage.reimbursement_voided", { reimbursement_id: id, void_entry_id: entryId, reason }).pipe(Effect.orDie)
  return yield* load(company, id)
})

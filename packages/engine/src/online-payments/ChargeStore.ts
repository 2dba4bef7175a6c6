import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, type OnlinePayments } from "@ledger/api"
import * as Row from "../kernel/Row.ts"

type Charge = OnlinePayments.Charges.Charge

const refundOf = (row: Record<string, unknown>) => ({
  id: Row.int(row.id),
  amount_cents: Row.int(row.amount_cents),
  reason: String(row.reason),
  status: row.status as "pending" | "succeeded" | "failed",
  entry_id: Row.intOrNull(row.entry_id),
  created_at: Row.iso(row.created_at)
})

const disputeOf = (row: Record<string, unknown>) => ({
  id: Row.int(row.id),
  amount_cents: Row.int(row.amount_cents),
  fee_cents: Row.int(row.fee_cents),
  status: row.status as "open" | "won" | "lost",
  entry_id: Row.intOrNull(row.entry_id),
  close_entry_id: Row.intOrNull(row.close_entry_id)
})

/** Charges with their refunds and disputes, in the order of `rows`. */
export const assemble = Effect.fn("ChargeStore.assemble")(function*(company: string, rows: ReadonlyArray<Record<string, unknown>>) {
  const sql = yield* SqlClient.SqlClient
  if (rows.length === 0) return [] as Array<Charge>
  const ids = rows.map((row) => Row.int(row.id))
  const documentIds = Array.from(new Set(rows.map((row) => Row.int(row.document_id))))
  const refunds = yield* sql<Record<string, unknown>>`SELECT * FROM online_refunds WHERE company_id = ${company} AND charge_id IN ${sql.in(ids)} ORDER BY id`.pipe(Effect.orDie)
  const disputes = yield* sql<Record<string, unknown>>`SELECT * FROM online_disputes WHERE company_id = ${company} AND charge_id IN ${sql.in(ids)} ORDER BY id`.pipe(Effect.orDie)
  const numbers = yield* sql<{ id: unknown; number: string }>`SELECT id, number FROM documents WHERE company_id = ${company} AND id IN ${sql.in(documentIds)}`.pipe(Effect.orDie)
  const numberOf = new Map(numbers.map((row) => [Row.int(row.id), String(row.number)]))
  return rows.map((row): Charge => {
    const own = refunds.filter((refund) => Row.int(refund.charge_id) === Row.int(row.id)).map(refundOf)
    const fee = Row.intOrNull(row.fee_cents)
    return {
      id: Row.int(row.id),
      document_id: Row.int(row.document_id),
      document_number: numberOf.get(Row.int(row.document_id)) ?? "",
      contact_id: Row.int(row.contact_id),
      method: row.method as Charge["method"],
      status: row.status as Charge["status"],
      amount_cents: Row.int(row.amount_cents),
      fee_cents: fee,
      net_cents: fee === null ? null : Row.int(row.amount_cents) - fee,
      refunded_cents: own.filter((refund) => refund.status === "succeeded").reduce((sum, refund) => sum + refund.amount_cents, 0),
      paid_on: row.paid_on == null ? null : Row.date(row.paid_on),
      payment_id: Row.intOrNull(row.payment_id),
      fee_entry_id: Row.intOrNull(row.fee_entry_id),
      processor_payment_id: String(row.processor_payment_id),
      refunds: own,
      disputes: disputes.filter((dispute) => Row.int(dispute.charge_id) === Row.int(row.id)).map(disputeOf),
      created_at: Row.iso(row.created_at)
    }
  })
})

export const loadRow = Effect.fn("ChargeStore.loadRow")(function*(company: string, id: number, lock = false) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM online_charges WHERE company_id = ${company} AND id = ${id}
    ${lock ? sql`FOR UPDATE` : sql``}`.pipe(Effect.orDie)
  if (rows[0] === undefined) return yield* Effect.fail(ApiError.notFound("charge"))
  return rows[0]
})

export const load = Effect.fn("ChargeStore.load")(function*(company: string, id: number) {
  return (yield* assemble(company, [yield* loadRow(company, id)]))[0]!
})

/** A charge by the processor's payment id, locked: events find their charge this way. */
export const byProcessorId = Effect.fn("ChargeStore.byProcessorId")(function*(company: string, processorId: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM online_charges WHERE company_id = ${company} AND processor_payment_id = ${processorId} FOR UPDATE`
    .pipe(Effect.orDie)
  return rows[0]
})

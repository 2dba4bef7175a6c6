import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, OnlinePayments } from "@ledger/api"
import { BankLineLinks } from "../banking/index.ts"
import { requireCompanyId } from "../kernel/CompanyContext.ts"
import * as Handler from "../kernel/Handler.ts"
import * as Pagination from "../kernel/Pagination.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Row from "../kernel/Row.ts"
import type { Payout as ProcessorPayout } from "../ports/PaymentProcessor.ts"
import { processor, settingsOf } from "./Common.ts"
import * as PaymentRules from "./PaymentRules.ts"
import * as Posting from "./Posting.ts"

type Payout = OnlinePayments.Payouts.Payout

export const payoutOf = (row: Record<string, unknown>): Payout => ({
  id: Row.int(row.id),
  processor_payout_id: String(row.processor_payout_id),
  amount_cents: Row.int(row.amount_cents),
  arrival_date: Row.date(row.arrival_date),
  status: row.status as "paid" | "failed",
  entry_id: Row.intOrNull(row.entry_id),
  bank_line_id: Row.intOrNull(row.bank_line_id),
  reconciled: row.bank_line_id != null,
  lines: Row.json<Array<PaymentRules.PayoutLine>>(row.lines),
  created_at: Row.iso(row.created_at)
})

/** Days around the arrival date a bank line may carry the payout (banks post a day or two late). */
const windowDays = { before: 2, after: 5 }

/** Links the payout's entry to the bank line that carries it, once that line has arrived; true when it did. */
export const reconcile = Effect.fn("Payouts.reconcile")(function*(company: string, row: Record<string, unknown>, bankAccountId: number | null) {
  const sql = yield* SqlClient.SqlClient
  if (row.bank_line_id != null || row.entry_id == null || bankAccountId === null) return false
  const amount = Row.int(row.amount_cents)
  const candidates = yield* sql<{ id: unknown }>`SELECT id FROM bank_lines WHERE company_id = ${company} AND bank_account_id = ${bankAccountId}
    AND status = 'unmatched' AND NOT pending AND withdrawn_at IS NULL AND amount_cents = ${amount}
    AND line_date BETWEEN ${Row.date(row.arrival_date)}::date - ${windowDays.before}::int AND ${Row.date(row.arrival_date)}::date + ${windowDays.after}::int
    ORDER BY abs(line_date - ${Row.date(row.arrival_date)}::date), id LIMIT 1`.pipe(Effect.orDie)
  if (candidates[0] === undefined) return false
  const lineId = Row.int(candidates[0].id)
  yield* BankLineLinks.claim({ bankLineId: lineId, direction: "received", amountCents: amount })
  yield* BankLineLinks.linkPosted(lineId, Row.int(row.entry_id))
  yield* sql`UPDATE online_payouts SET bank_line_id = ${lineId} WHERE company_id = ${company} AND id = ${Row.int(row.id)}`.pipe(Effect.orDie)
  return true
})

/** Records a payout the processor made (once by its id): its lines, Dr bank Cr clearing, and its bank line when there. */
export const record = Effect.fn("Payouts.record")(function*(company: string, settingsRow: Record<string, unknown>, payout: ProcessorPayout) {
  const sql = yield* SqlClient.SqlClient
  const request = yield* RequestContext
  const seen = yield* sql`SELECT 1 FROM online_payouts WHERE company_id = ${company} AND processor_payout_id = ${payout.id}`.pipe(Effect.orDie)
  if (seen.length > 0 || payout.status !== "paid") return false
  const accountId = String(settingsRow.processor_account_id)
  const lines = (yield* processor((port) => port.payoutLines({ accountId, payoutId: payout.id }))).map((line): PaymentRules.PayoutLine => ({
    type: line.type, source: line.source, amount_cents: line.amountCents, fee_cents: line.feeCents, net_cents: line.netCents
  }))
  // The payout's id, reserved so that its entry names it (`source.id`).
  const payoutId = yield* Posting.reserveId()
  const entryId = yield* Posting.payout(company, settingsRow, payout.amountCents, payout.id, payoutId)
  const rows = yield* sql<Record<string, unknown>>`INSERT INTO online_payouts ${sql.insert({
    id: payoutId, company_id: company, processor_payout_id: payout.id, amount_cents: payout.amountCents, arrival_date: payout.arrivalDate,
    status: "paid", entry_id: entryId, lines: JSON.stringify(lines), created_at: request.now
  })} RETURNING *`.pipe(Effect.orDie)
  yield* reconcile(company, rows[0]!, settingsOf(settingsRow).payout_bank_account_id)
  return true
})

export const handlers = [
  Handler.make(OnlinePayments.Payouts.listOnlinePayouts, ({ query }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const company = yield* requireCompanyId
      const select = (after: number | null, limitPlusOne: number) =>
        sql<Record<string, unknown>>`SELECT * FROM online_payouts WHERE company_id = ${company}
        ${after === null ? sql`` : sql`AND id < ${after}`} ORDER BY id DESC LIMIT ${limitPlusOne}`.pipe(Effect.orDie)
      return { body: yield* Pagination.listPage(query, select, (row) => Row.int(row.id), payoutOf) }
    })),

  Handler.make(OnlinePayments.Payouts.getOnlinePayout, ({ path, query }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const company = yield* requireCompanyId
      const rows = yield* sql<Record<string, unknown>>`SELECT * FROM online_payouts WHERE company_id = ${company} AND id = ${path.id}`.pipe(Effect.orDie)
      if (rows[0] === undefined) return yield* Effect.fail(ApiError.notFound("payout"))
      const payout = payoutOf(rows[0])
      if (query.format !== "csv") return { body: payout }
      return { body: { format: "csv" as const, filename: `payout-${payout.id}.csv`, content: PaymentRules.payoutCsv(payout.lines) } }
    }))
]

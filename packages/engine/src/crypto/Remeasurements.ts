import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Crypto } from "@ledger/api"
import * as Actor from "../kernel/Actor.ts"
import { requireCompanyId } from "../kernel/CompanyContext.ts"
import * as Handler from "../kernel/Handler.ts"
import * as Pagination from "../kernel/Pagination.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Row from "../kernel/Row.ts"
import { addDays } from "../kernel/values/Calendar.ts"
import { Governed } from "../ledger/index.ts"
import * as Outbox from "../pipeline/Outbox.ts"
import * as Access from "./Access.ts"
import * as Posting from "./Posting.ts"
import { big } from "./core/Rows.ts"
import { type Asset, fromUnits, valueCents } from "./core/UnitRules.ts"
import * as Prices from "./core/Prices.ts"

/**
 * Month-end remeasurement at fair value (ASU 2023-08), for companies that turn `remeasure` on:
 * what is held of each asset at the end of `period_end` (lots acquired by then, less what
 * disposals by then relieved; transfers between own wallets change neither), its fair value at
 * that moment's price, less its cost. The difference posts on `period_end` between the fair value
 * adjustment account and unrealized gain or loss, and is reversed the next day, so the books carry
 * cost between month ends and every disposal relieves cost.
 */

type Line = typeof Crypto.Valuations.RemeasurementLine.Type

const nextDay = (date: string): string => addDays(date, 1)

const holdings = Effect.fn("Remeasurements.holdings")(function*(company: string, end: string) {
  const sql = yield* SqlClient.SqlClient
  return yield* sql<{ asset: string; units: unknown; cost: unknown }>`SELECT asset, sum(units) AS units, sum(cost) AS cost FROM (
      SELECT asset, units, cost_cents AS cost FROM crypto_lots WHERE company_id = ${company} AND source <> 'transfer' AND acquired_at <= ${end}
      UNION ALL
      SELECT d.asset, -r.units, -r.cost_cents FROM crypto_reliefs r JOIN crypto_disposals d ON d.company_id = r.company_id AND d.id = r.disposal_id
        WHERE r.company_id = ${company} AND d.kind <> 'transfer' AND d.disposed_at <= ${end}
    ) moves GROUP BY asset ORDER BY asset`.pipe(Effect.orDie)
})

const linesOf = Effect.fn("Remeasurements.linesOf")(function*(company: string, end: string, record: boolean) {
  const lines: Array<Line> = []
  for (const held of yield* holdings(company, end)) {
    const units = big(held.units)
    if (units <= 0n) continue
    const asset = held.asset as Asset
    const priced = yield* Prices.priceAt(asset, end, record)
    const carrying = yield* Row.summedCents(held.cost)
    const fairValue = valueCents(units, priced.price, asset)
    lines.push({ asset, quantity: fromUnits(units, asset), price: priced.price, price_source: priced.source, carrying_cents: carrying,
      fair_value_cents: fairValue, adjustment_cents: fairValue - carrying })
  }
  return lines
})

const show = (row: Record<string, unknown>): Crypto.Valuations.Remeasurement => ({
  id: Row.int(row.id),
  period_end: Row.date(row.period_end),
  adjustment_cents: Row.int(row.adjustment_cents),
  entry_id: Row.intOrNull(row.entry_id),
  reversal_entry_id: Row.intOrNull(row.reversal_entry_id),
  reversal_date: nextDay(Row.date(row.period_end)),
  lines: Row.json<Array<Line>>(row.lines),
  created_at: Row.iso(row.created_at)
})

const create = Handler.make(Crypto.Valuations.createCryptoRemeasurement, ({ body }) =>
  Effect.gen(function*() {
    yield* Access.requireOwnerOrCpa
    const { company, settings } = yield* Access.requireEnabled
    if (!settings.remeasure) return yield* Effect.fail(ApiError.fail("crypto_remeasure_off", "Fair-value remeasurement is off: turn remeasure on in the crypto settings."))
    const sql = yield* SqlClient.SqlClient
    const request = yield* RequestContext
    const done = yield* sql`SELECT id FROM crypto_remeasurements WHERE company_id = ${company} AND period_end = ${body.period_end}`.pipe(Effect.orDie)
    if (done.length > 0) return yield* Effect.fail(ApiError.fail("crypto_remeasurement_exists", `${body.period_end} is already remeasured.`, { remeasurement_id: Row.int(done[0]!.id) }))
    const end = `${body.period_end}T23:59:59.999Z`
    if (end > request.now) return yield* Effect.fail(ApiError.validationFailed("The period has not ended.", [{ path: ["body", "period_end"], message: "Not yet past." }]))
    const lines = yield* linesOf(company, end, body.dry_run !== true)
    const total = lines.reduce((sum, line) => sum + line.adjustment_cents, 0)
    const memo = `Fair-value remeasurement of digital assets at ${body.period_end}`
    const row = { company_id: company, period_end: body.period_end, adjustment_cents: total, lines: JSON.stringify(lines), created_by: Actor.reference(request.actor), created_at: request.now }
    return yield* Posting.post({
      kind: "crypto_remeasurement",
      summary: memo,
      date: body.period_end,
      memo,
      lines: total >= 0
        ? [{ account: settings.fairValueAccount, debit_cents: total }, { account: settings.unrealizedAccount, credit_cents: total }]
        : [{ account: settings.unrealizedAccount, debit_cents: -total }, { account: settings.fairValueAccount, credit_cents: -total }],
      request: body,
      dryRun: body.dry_run === true,
      softLockOverrideReason: body.soft_lock_override_reason,
      document: { id: null, period_end: body.period_end, adjustment_cents: total, entry_id: null, reversal_entry_id: null, reversal_date: nextDay(body.period_end), lines, created_at: null },
      // The remeasurement takes the id its entry names as `source.id`; its reversal names it too.
      reserveSourceId: true,
      onPosted: (entryId, id) =>
        Effect.gen(function*() {
          const reversal = entryId === null ? null : yield* Governed.write({
            kind: "crypto_remeasurement", summary: `Reversal: ${memo}`, entry: { date: nextDay(body.period_end), memo: `Reversal: ${memo}`, lines: [] },
            request: body, dryRun: false, reverses: entryId, sourceId: id, softLockOverrideReason: body.soft_lock_override_reason ?? null,
            onPosted: (entry) => Effect.succeed(entry.id)
          })
          const reversalId = reversal !== null && reversal.outcome._tag === "Posted" ? reversal.outcome.entry.id : null
          const rows = yield* sql<Record<string, unknown>>`INSERT INTO crypto_remeasurements ${sql.insert({ ...row, ...(id === null ? {} : { id }), entry_id: entryId, reversal_entry_id: reversalId })} RETURNING *`
            .pipe(Effect.orDie)
          yield* Outbox.emit("crypto.remeasured", { period_end: body.period_end, adjustment_cents: total, entry_id: entryId, reversal_entry_id: reversalId }).pipe(Effect.orDie)
          return show(rows[0]!)
        })
    })
  }))

export const handlers = [
  create,
  Handler.make(Crypto.Valuations.listCryptoRemeasurements, ({ query }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const company = yield* requireCompanyId
      const select = (after: number | null, limitPlusOne: number) =>
        sql<Record<string, unknown>>`SELECT * FROM crypto_remeasurements WHERE company_id = ${company}
        ${after === null ? sql`` : sql`AND id < ${after}`} ORDER BY id DESC LIMIT ${limitPlusOne}`.pipe(Effect.orDie)
      return { body: yield* Pagination.listPage(query, select, (row) => Row.int(row.id), show) }
    }))
]

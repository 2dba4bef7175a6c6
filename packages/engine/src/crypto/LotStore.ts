import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import * as Row from "../kernel/Row.ts"
import type * as LotRules from "./core/LotRules.ts"
import { big } from "./core/Rows.ts"

/** The SQL of lots, disposals and their reliefs. */

export const openLots = Effect.fn("LotStore.openLots")(function*(company: string, walletId: number, asOf: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM crypto_lots WHERE company_id = ${company} AND wallet_id = ${walletId}
    AND remaining_units > 0 AND acquired_at <= ${asOf} ORDER BY acquired_at, id FOR UPDATE`.pipe(Effect.orDie)
  return rows.map((row): LotRules.OpenLot => ({
    id: Row.int(row.id),
    acquiredAt: Row.iso(row.acquired_at),
    remainingUnits: big(row.remaining_units),
    remainingCostCents: Row.int(row.remaining_cost_cents)
  }))
})

export interface NewLot {
  readonly walletId: number
  readonly asset: string
  readonly source: "acquisition" | "receipt" | "transfer"
  readonly acquiredAt: string
  readonly units: bigint
  readonly costCents: number
  readonly entryId: number | null
  readonly now: string
  /** The id its entry names as `source.id` (reserved before posting); none: the table's default. */
  readonly id?: number | null | undefined
}

export const insertLot = Effect.fn("LotStore.insertLot")(function*(company: string, lot: NewLot) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`INSERT INTO crypto_lots ${sql.insert({
    ...(lot.id == null ? {} : { id: lot.id }),
    company_id: company,
    wallet_id: lot.walletId,
    asset: lot.asset,
    source: lot.source,
    acquired_at: lot.acquiredAt,
    units: lot.units.toString(),
    remaining_units: lot.units.toString(),
    cost_cents: lot.costCents,
    remaining_cost_cents: lot.costCents,
    entry_id: lot.entryId,
    created_at: lot.now
  })} RETURNING *`.pipe(Effect.orDie)
  return rows[0]!
})

export const relieveLots = Effect.fn("LotStore.relieveLots")(function*(company: string, parts: ReadonlyArray<LotRules.Part>) {
  const sql = yield* SqlClient.SqlClient
  for (const part of parts) {
    yield* sql`UPDATE crypto_lots SET remaining_units = remaining_units - ${part.units.toString()}::numeric,
      remaining_cost_cents = remaining_cost_cents - ${part.costCents}
      WHERE company_id = ${company} AND id = ${part.lotId}`.pipe(Effect.orDie)
  }
})

export const reliefsOf = Effect.fn("LotStore.reliefsOf")(function*(company: string, disposalIds: ReadonlyArray<number>) {
  const sql = yield* SqlClient.SqlClient
  if (disposalIds.length === 0) return [] as Array<Record<string, unknown>>
  return yield* sql<Record<string, unknown>>`SELECT r.*, l.acquired_at, l.asset FROM crypto_reliefs r
    JOIN crypto_lots l ON l.company_id = r.company_id AND l.id = r.lot_id
    WHERE r.company_id = ${company} AND r.disposal_id IN ${sql.in(disposalIds)} ORDER BY r.disposal_id, l.acquired_at, l.id`.pipe(Effect.orDie)
})

import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError } from "@ledger/api"
import { TokenSealer } from "../ports/TokenSealer.ts"
import * as Row from "../kernel/Row.ts"
import * as Keys from "./keys/Keys.ts"
import { big } from "./core/Rows.ts"
import * as Rows from "./core/Rows.ts"

/** The SQL of wallets: rows, balances (open lots), the sealed key and the next receive address. */

export const boundTo = (company: string, id: number): string => `crypto_wallet:${company}:${id}`

export const loadRow = Effect.fn("WalletStore.loadRow")(function*(company: string, id: number, lock = false) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM crypto_wallets WHERE company_id = ${company} AND id = ${id}
    ${lock ? sql`FOR UPDATE` : sql``}`.pipe(Effect.orDie)
  if (rows[0] === undefined) return yield* Effect.fail(ApiError.notFound("wallet"))
  return rows[0]
})

export const requireActive = (row: Record<string, unknown>) =>
  row.archived === true
    ? Effect.fail(ApiError.fail("crypto_wallet_archived", "The wallet is archived.", { wallet_id: Row.int(row.id) }))
    : Effect.succeed(row)

export const balances = Effect.fn("WalletStore.balances")(function*(company: string, ids: ReadonlyArray<number>) {
  const sql = yield* SqlClient.SqlClient
  if (ids.length === 0) return new Map<number, bigint>()
  const rows = yield* sql<{ wallet_id: unknown; units: unknown }>`SELECT wallet_id, sum(remaining_units) AS units FROM crypto_lots
    WHERE company_id = ${company} AND wallet_id IN ${sql.in(ids)} GROUP BY wallet_id`.pipe(Effect.orDie)
  return new Map(rows.map((row) => [Row.int(row.wallet_id), big(row.units)]))
})

export const show = Effect.fn("WalletStore.show")(function*(company: string, row: Record<string, unknown>) {
  const balance = (yield* balances(company, [Row.int(row.id)])).get(Row.int(row.id)) ?? 0n
  return Rows.wallet(row, balance)
})

/** The wallet's material, opened from its seal (only to derive an address or watch). */
export const material = Effect.fn("WalletStore.material")(function*(company: string, row: Record<string, unknown>) {
  const sealer = yield* TokenSealer
  if (!sealer.configured) {
    return yield* Effect.fail(ApiError.fail("crypto_sealer_not_configured", "No master key is configured (LEDGER_MASTER_KEY): wallet keys cannot be sealed or opened."))
  }
  const plain = yield* sealer.open(String(row.sealed_key), boundTo(company, Row.int(row.id)))
  return JSON.parse(plain) as Keys.Material
})

/**
 * The next receive address of a wallet (locked by the caller): a fresh one per quote, refusing to
 * run more than `gap_limit` unpaid addresses past the last paid one (a wallet app restoring from
 * the key would not look further). Single-address wallets always give their address.
 */
export const nextAddress = Effect.fn("WalletStore.nextAddress")(function*(company: string, row: Record<string, unknown>) {
  const sql = yield* SqlClient.SqlClient
  if (row.key_kind === "address") return { address: String(row.address), index: null }
  const index = Row.int(row.next_index)
  const unpaid = index - (Row.int(row.last_paid_index) + 1)
  if (unpaid >= Row.int(row.gap_limit)) {
    return yield* Effect.fail(ApiError.fail("crypto_gap_limit_reached", "The wallet has handed out gap_limit addresses that were never paid; raise gap_limit or wait for payments.", {
      gap_limit: Row.int(row.gap_limit),
      unpaid
    }))
  }
  const address = Keys.addressAt(String(row.rail), yield* material(company, row), index)
  yield* sql`UPDATE crypto_wallets SET next_index = ${index + 1} WHERE company_id = ${company} AND id = ${Row.int(row.id)}`.pipe(Effect.orDie)
  return { address, index }
})

import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError } from "@ledger/api"
import { requireCompanyId } from "../../kernel/CompanyContext.ts"
import { RequestContext } from "../../kernel/RequestContext.ts"
import { CryptoPrices } from "../../ports/CryptoRails.ts"
import type { Asset } from "./UnitRules.ts"

/**
 * The price of an asset at a moment. A person's confirmed manual valuation on that UTC day (at or
 * before the moment) wins; otherwise the price port is asked, and its answer is kept as a
 * non-manual confirmed valuation, so every price the books used can be listed and checked later.
 * Neither: 503 `crypto_price_unavailable`.
 */

export interface Priced {
  readonly price: string
  readonly source: "valuation" | "price_port"
}

export const manualOn = Effect.fn("Prices.manualOn")(function*(company: string, asset: Asset, at: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ price: string }>`SELECT price FROM crypto_valuations WHERE company_id = ${company} AND asset = ${asset}
    AND status = 'confirmed' AND manual AND at <= ${at} AND at >= ${`${at.slice(0, 10)}T00:00:00.000Z`}
    ORDER BY at DESC, id DESC LIMIT 1`.pipe(Effect.orDie)
  return rows[0]?.price ?? null
})

export const priceAt = Effect.fn("Prices.priceAt")(function*(asset: Asset, at: string, record = true) {
  const company = yield* requireCompanyId
  const manual = yield* manualOn(company, asset, at)
  if (manual !== null) return { price: manual, source: "valuation" } satisfies Priced
  const prices = yield* CryptoPrices
  const price = yield* prices.price(asset, at).pipe(Effect.mapError((failure) =>
    ApiError.fail("crypto_price_unavailable", `No price of ${asset} at ${at}: ${failure.message} Give a price, or record a valuation.`, {
      asset,
      at,
      cause: failure.code
    })))
  const sql = yield* SqlClient.SqlClient
  const request = yield* RequestContext
  if (!record) return { price, source: "price_port" } satisfies Priced
  yield* sql`INSERT INTO crypto_valuations ${sql.insert({
    company_id: company,
    asset,
    at,
    price,
    reason: "price port",
    status: "confirmed",
    manual: false,
    proposed_by: "price_port",
    created_at: request.now
  })}`.pipe(Effect.orDie)
  return { price, source: "price_port" } satisfies Priced
})

import { Effect, Layer } from "effect"
import type { CryptoAsset, CryptoPrices } from "@ledger/engine/ports"
import { CryptoPorts } from "@ledger/server"
import { json, loopback } from "./Loopback.ts"

export interface FakePrices {
  readonly layer: Layer.Layer<CryptoPrices>
  readonly start: () => Promise<string>
  readonly close: () => Promise<void>
  /** The price of `asset` (US dollars per whole unit, a decimal string), from `from` on (default: always). */
  readonly set: (asset: CryptoAsset, price: string, from?: string) => void
  readonly failNext: () => void
  /** Every request as received (path with query) and the answer given, for the contract test. */
  readonly requests: ReadonlyArray<{ readonly method: string; readonly url: string; readonly status: number; readonly answer: string }>
}

/** A price service on loopback (`GET /price?asset&at` -> `{"price"}`), read through the server's real adapter. Starts with BTC 50000, XMR 150, USDC and USDT 1. */
export const makePrices = (): FakePrices => {
  const prices: Array<{ asset: CryptoAsset; price: string; from: number }> = [
    { asset: "BTC", price: "50000", from: 0 },
    { asset: "XMR", price: "150", from: 0 },
    { asset: "USDC", price: "1", from: 0 },
    { asset: "USDT", price: "1", from: 0 }
  ]
  let failing = false
  const requests: Array<{ method: string; url: string; status: number; answer: string }> = []
  const server = loopback(async (request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1")
    const answer = (status: number, body: object) => {
      requests.push({ method: request.method ?? "GET", url: request.url ?? "/", status, answer: JSON.stringify(body) })
      return json(response, status, body)
    }
    if (failing) {
      failing = false
      return answer(503, { error: "The fake price source is down for this call." })
    }
    if (url.pathname !== "/price" || request.method !== "GET") return answer(404, { error: "not found" })
    const asset = url.searchParams.get("asset")
    const moment = Date.parse(url.searchParams.get("at") ?? "")
    // What the price API's description refuses (test/fixtures/providers/prices): an asset it does not price, a moment that is not a date-time.
    if (!["BTC", "XMR", "USDC", "USDT"].includes(asset ?? "") || Number.isNaN(moment)) return answer(400, { error: "asset (BTC, XMR, USDC, USDT) and at (an ISO date-time) are required." })
    const found = prices.filter((entry) => entry.asset === asset && entry.from <= moment).sort((a, b) => b.from - a.from || prices.indexOf(b) - prices.indexOf(a))[0]
    return found === undefined ? answer(404, { error: `No price of ${asset}.` }) : answer(200, { price: found.price, asset, at: url.searchParams.get("at") })
  })
  return {
    layer: Layer.unwrap(Effect.promise(server.start).pipe(Effect.map((base) => CryptoPorts.httpPrices(base)))),
    start: server.start,
    close: server.close,
    set: (asset, price, from) => {
      prices.push({ asset, price, from: from === undefined ? 0 : Date.parse(from) })
    },
    failNext: () => {
      failing = true
    },
    requests
  }
}

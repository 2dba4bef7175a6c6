import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect, Layer } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ChainWatcher, CryptoPrices } from "@ledger/engine/ports"
import * as CryptoPorts from "../../packages/server/src/adapters/CryptoPorts.ts"

/**
 * The server's real adapters against a loopback server speaking the same HTTP API: Esplora's
 * `/blocks/tip/height` and `/address/{address}/txs`, and the price service's `/price`.
 */

const address = "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu"
let server: Server
let base = ""
let pricesUp = true

beforeAll(async () => {
  server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://loopback")
    const json = (body: unknown, status = 200) => {
      response.writeHead(status, { "content-type": "application/json" })
      response.end(JSON.stringify(body))
    }
    if (url.pathname === "/blocks/tip/height") return response.end("840010")
    if (url.pathname === `/address/${address}/txs`) {
      return json([
        { txid: "aa".repeat(32), status: { confirmed: true, block_height: 840_008 }, vout: [{ scriptpubkey_address: "bc1qother", value: 5 }, { scriptpubkey_address: address, value: 500_000 }] },
        { txid: "bb".repeat(32), status: { confirmed: false }, vout: [{ scriptpubkey_address: address, value: 1_000 }] }
      ])
    }
    if (url.pathname === "/price") return pricesUp ? json({ price: url.searchParams.get("asset") === "BTC" ? "64250.12" : "1" }) : json({ error: "down" }, 503)
    json({ error: "not found" }, 404)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const run = <A, E>(effect: Effect.Effect<A, E, ChainWatcher | CryptoPrices>) =>
  Effect.runPromise(Effect.provide(effect, Layer.mergeAll(CryptoPorts.esplora(base), CryptoPorts.httpPrices(base))))

const watch = (rail: "btc" | "xmr", addresses: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const chain = yield* ChainWatcher
    return yield* chain.payments({ rail, addresses })
  })

const price = Effect.gen(function*() {
  const prices = yield* CryptoPrices
  return yield* prices.price("BTC", "2026-01-01T00:00:00Z")
})

describe("the Esplora adapter", () => {
  it("reports the outputs paying the address with their confirmations", async () => {
    const payments = await run(watch("btc", [address]))
    expect(payments).toEqual([
      { txid: "aa".repeat(32), outputIndex: 1, address, units: "500000", confirmations: 3 },
      { txid: "bb".repeat(32), outputIndex: 0, address, units: "1000", confirmations: 0 }
    ])
  })
  it("watches only Bitcoin", async () => {
    const other = await run(Effect.flip(watch("xmr", ["x"])))
    expect(other.code).toBe("not_configured")
  })
})

describe("the price adapter", () => {
  it("reads a decimal string price, and fails as unavailable when the service is down", async () => {
    expect(await run(price)).toBe("64250.12")
    pricesUp = false
    const down = await run(Effect.flip(price))
    expect(down.code).toBe("unavailable")
    pricesUp = true
  })
})

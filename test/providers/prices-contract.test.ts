import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CryptoPrices } from "@ledger/engine/ports"
import { FakeChain } from "@ledger/testkit"
import { description, requestProblems, responseProblems } from "../support/providers/prices.ts"

/**
 * The crypto price source's contract (issue 39): every request the real adapter
 * (adapters/crypto/Prices.ts) sends, and every answer of the testkit's fake, checked against the
 * price API's description (test/fixtures/providers/prices). The API is Ledger's own (no outside
 * provider's is spoken: a deployment puts its source behind it), so the description is the
 * project's, kept beside the providers' so the adapter and the fake are held to one text.
 */
const prices = FakeChain.makePrices()
let base = ""
beforeAll(async () => {
  base = await prices.start()
})
afterAll(() => prices.close())

const price = (asset: "BTC" | "XMR" | "USDC" | "USDT", at: string) =>
  Effect.runPromise(Effect.provide(Effect.gen(function*() {
    return yield* (yield* CryptoPrices).price(asset, at)
  }), prices.layer).pipe(Effect.result))

describe(`the price source against the price API's description (${description.info.version})`, () => {
  it("every request the adapter sends and every answer match it, a refusal included", async () => {
    const before = prices.requests.length
    prices.set("XMR", "162.5", "2026-03-01T00:00:00Z")
    expect(await price("XMR", "2026-03-02T10:00:00.000Z")).toMatchObject({ _tag: "Success", success: "162.5" })
    expect(await price("BTC", "2026-01-01T00:00:00Z")).toMatchObject({ _tag: "Success", success: "50000" })
    expect(await price("USDC", "2026-01-01T00:00:00+02:00")).toMatchObject({ _tag: "Success", success: "1" })
    prices.failNext()
    expect(await price("USDT", "2026-01-01T00:00:00Z")).toMatchObject({ _tag: "Failure", failure: { code: "unavailable" } })
    const exchanges = prices.requests.slice(before)
    expect(exchanges.map((exchange) => exchange.status)).toEqual([200, 200, 200, 503])
    expect(exchanges.flatMap(requestProblems)).toEqual([])
    expect(exchanges.flatMap(responseProblems)).toEqual([])
  })

  it("the fake refuses what the description refuses, in its error shape", async () => {
    const before = prices.requests.length
    expect((await fetch(`${base}/price?asset=btc&at=2026-01-01T00:00:00Z`)).status).toBe(400)
    expect((await fetch(`${base}/price?asset=BTC`)).status).toBe(400)
    expect((await fetch(`${base}/price?asset=BTC&at=1999-01-01T00:00:00Z`)).status).toBe(200)
    const exchanges = prices.requests.slice(before)
    expect(exchanges.map((exchange) => requestProblems(exchange).length > 0)).toEqual([true, true, false])
    expect(exchanges.flatMap(responseProblems)).toEqual([])
  })

  it("a request the description does not have is reported", () => {
    expect(requestProblems({ method: "GET", url: "/price?asset=ETH&at=yesterday&currency=EUR" })).toEqual([
      "GET /price: currency is not a parameter",
      "GET /price asset: \"ETH\" is not one of BTC, XMR, USDC, USDT",
      "GET /price at: \"yesterday\" is not a date-time"
    ])
    expect(requestProblems({ method: "GET", url: "/prices?asset=BTC" })).toEqual(["GET /prices: no such operation"])
    expect(requestProblems({ method: "GET", url: "/price?asset=BTC&asset=XMR" })).toEqual(["GET /price: asset given more than once", "GET /price: at is required"])
    expect(responseProblems({ method: "GET", url: "/price?asset=BTC&at=2026-01-01T00:00:00Z", status: 200, answer: JSON.stringify({ price: 50000 }) })).toEqual([
      "GET /price answer 200.price: a string expected, not 50000"
    ])
    expect(responseProblems({ method: "GET", url: "/price", status: 200, answer: JSON.stringify({ price: "1.0000000000001" }) })).toEqual([
      "GET /price answer 200.price: \"1.0000000000001\" does not match ^\\d{1,15}(\\.\\d{1,12})?$"
    ])
  })
})

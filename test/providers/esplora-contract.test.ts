import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ChainWatcher } from "@ledger/engine/ports"
import { FakeChain } from "@ledger/testkit"
import { requestProblems, responseProblems } from "../support/providers/esplora.ts"

/**
 * The Bitcoin rail's contract (issue 39): every request the real adapter (adapters/crypto/Esplora.ts)
 * sends while watching, and every answer of the fake chain's Esplora, checked against Esplora's
 * published API reference (test/fixtures/providers/esplora, from API.md: prose made JSON).
 */
const chain = FakeChain.make()
beforeAll(() => chain.start())
afterAll(() => chain.close())

const esploraSince = (from: number) => chain.requests.slice(from).filter((request) => request.path.startsWith("/esplora/"))

describe("the Bitcoin rail against Esplora's API reference", () => {
  it("every request of a watch, paging included, and every answer match it", async () => {
    const before = chain.requests.length
    const address = "bc1qcontractaddress"
    for (let index = 0; index < 30; index++) chain.pay({ address, units: String(1_000 + index), confirmations: 1 + (index % 4) })
    chain.pay({ address, units: "77" })
    const payments = await Effect.runPromise(Effect.provide(Effect.gen(function*() {
      return yield* (yield* ChainWatcher).payments({ rail: "btc", addresses: [address] })
    }), chain.layer))
    expect(payments).toHaveLength(31)
    const requests = esploraSince(before)
    expect(requests.map((request) => request.path.replace(/[0-9a-f]{64}$/u, "<txid>"))).toEqual([
      "/esplora/blocks/tip/height", `/esplora/address/${address}/txs`, `/esplora/address/${address}/txs/chain/<txid>`
    ])
    expect(requests.flatMap((request) => requestProblems(request, "/esplora"))).toEqual([])
    expect(requests.flatMap((request) => responseProblems(request, "/esplora"))).toEqual([])
  })

  it("a request or an answer the reference does not have is reported", () => {
    expect(requestProblems({ method: "GET", path: "/esplora/address/bc1q/transactions", body: "" }, "/esplora")).toEqual(["GET /address/bc1q/transactions: not a documented endpoint"])
    expect(requestProblems({ method: "POST", path: "/blocks/tip/height", body: "{}" })).toEqual(["POST /blocks/tip/height: not a GET", "POST /blocks/tip/height: a body"])
    const tx = { txid: "t", version: 2, locktime: 0, size: 1, weight: 4, fee: 0, vin: [], status: { confirmed: true, block_height: 5 }, vout: [{ scriptpubkey_address: "bc1q", value: 5, asset: "x" }] }
    expect(responseProblems({ method: "GET", path: "/address/bc1q/txs", body: "", status: 200, answer: JSON.stringify([tx]) })).toEqual([
      "GET /address/bc1q/txs answer[0].status.block_hash: missing on a confirmed transaction",
      "GET /address/bc1q/txs answer[0].status.block_time: missing on a confirmed transaction",
      "GET /address/bc1q/txs answer[0].vout[0].scriptpubkey: missing",
      "GET /address/bc1q/txs answer[0].vout[0].scriptpubkey_asm: missing",
      "GET /address/bc1q/txs answer[0].vout[0].scriptpubkey_type: missing",
      "GET /address/bc1q/txs answer[0].vout[0].asset: not in the transaction format"
    ])
  })
})

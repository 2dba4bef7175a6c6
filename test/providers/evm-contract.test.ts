import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ChainWatcher, type WatchRequest } from "@ledger/engine/ports"
import { FakeChain } from "@ledger/testkit"
import { answerProblems, callProblems, description, exchangeProblems } from "../support/providers/evm.ts"

/**
 * The token rails' EVM JSON-RPC contract (issue 39): every call the real adapter
 * (adapters/crypto/Evm.ts) makes while watching, and every answer the testkit's fake chain gives,
 * checked against the Ethereum execution APIs' OpenRPC description (test/fixtures/providers/evm);
 * the description's own conformance exchanges pass the same check, and the fake refuses what
 * they show a node refusing, with the node's error.
 */
const chain = FakeChain.make()
let base = ""
beforeAll(async () => {
  base = await chain.start()
})
afterAll(() => chain.close())

const watch = (request: WatchRequest) =>
  Effect.runPromise(Effect.provide(Effect.gen(function*() {
    return yield* (yield* ChainWatcher).payments(request)
  }), chain.layer))
const evmCalls = (from: number) => chain.requests.slice(from).filter((request) => request.path.startsWith("/evm/"))

const rpc = async (rail: string, call: object) => {
  const response = await fetch(`${base}/evm/${rail}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(call) })
  return response.json() as Promise<any>
}
const hex = (value: number) => `0x${value.toString(16)}`

describe("the EVM token rails against the execution APIs' OpenRPC description", () => {
  it("the description's own conformance exchanges pass the check (the check reads it right)", () => {
    expect(description.examples.length).toBeGreaterThanOrEqual(10)
    for (const example of description.examples) {
      expect(answerProblems(example.request, example.response), example.name).toEqual([])
      // One of them is a request nodes refuse: a block hash and a range at once.
      if (example.name.includes("invalid-blockHash-and-range")) expect(callProblems(example.request)).not.toEqual([])
      else expect(callProblems(example.request), example.name).toEqual([])
    }
  })

  it("every call of a watch on each EVM rail and every answer match it", async () => {
    const before = chain.requests.length
    const address = "0x52908400098527886e0f7030069857d2e4169ee7"
    const paid = chain.pay({ address, units: "2500000", confirmations: 3 })
    const payments = await watch({ rail: "usdc_base", addresses: [address] })
    expect(payments.map((payment) => payment.txid)).toContain(paid)
    await watch({ rail: "usdt_ethereum", addresses: [address], restoreHeight: 95_000 })
    await watch({ rail: "usdt_tron", addresses: ["TJRabPrwbZy45sbavfcjinPJC18kjpRTv8"] })
    const calls = evmCalls(before)
    expect(calls.map((call) => call.rpc)).toEqual(expect.arrayContaining(["eth_blockNumber", "eth_getLogs"]))
    expect(calls.flatMap((call) => exchangeProblems(call))).toEqual([])
  })

  it("the fake refuses a reversed range and a range past the head as a node does (the description's exchanges)", async () => {
    const tip = Number.parseInt((await rpc("usdc_base", { jsonrpc: "2.0", id: 1, method: "eth_blockNumber" })).result, 16)
    const published = (name: string) => description.examples.find((example) => example.name.endsWith(name))!.response.error
    expect((await rpc("usdc_base", { jsonrpc: "2.0", id: 1, method: "eth_getLogs", params: [{ fromBlock: hex(tip), toBlock: hex(tip - 3) }] })).error)
      .toEqual(published("filter-error-reversed-block-range.io"))
    expect((await rpc("usdc_base", { jsonrpc: "2.0", id: 1, method: "eth_getLogs", params: [{ fromBlock: hex(tip), toBlock: hex(tip + 6) }] })).error)
      .toEqual(published("filter-error-future-block-range.io"))
    expect(await rpc("usdc_base", { jsonrpc: "2.0", id: 7, method: "eth_getLogz", params: [] })).toEqual({ jsonrpc: "2.0", id: 7, error: { code: -32601, message: "the method eth_getLogz does not exist/is not available" } })
    expect(evmCalls(0).slice(-4).flatMap((call) => answerProblems(JSON.parse(call.body), JSON.parse(call.answer)))).toEqual([])
  })

  it("a call the description does not have is reported", () => {
    const topic = `0x${"0".repeat(24)}52908400098527886e0f7030069857d2e4169ee7`
    expect(callProblems({ jsonrpc: "2.0", id: 1, method: "eth_getLogs", params: [{ fromBlock: "0x0a", toBlock: "latest", address: "0x52908400098527886e0f7030069857d2e4169ee7", topics: [topic] }] })).toEqual([
      "eth_getLogs Filter.fromBlock: \"0x0a\" does not match ^0x(0|[1-9a-f][0-9a-f]*)$"
    ])
    expect(callProblems({ jsonrpc: "2.0", id: 1, method: "eth_getLogs", params: [{ fromBlock: "0x1", recipient: topic }] })).toEqual([
      "eth_getLogs Filter.recipient: not in the description"
    ])
    expect(callProblems({ jsonrpc: "2.0", id: 1, method: "eth_getLogs", params: [{ fromBlock: "0x1", topics: ["0x52908400098527886e0f7030069857d2e4169ee7"] }] })).toEqual([
      "eth_getLogs Filter.topics[0]: \"0x52908400098527886e0f7030069857d2e4169ee7\" does not match ^0x[0-9a-f]{64}$"
    ])
    expect(callProblems({ method: "eth_blockNumber", params: [] })).toEqual(["eth_blockNumber: jsonrpc is not \"2.0\"", "eth_blockNumber: no id (a string or a number)"])
    expect(callProblems({ jsonrpc: "2.0", id: 1, method: "eth_getLogs", params: [] })).toEqual(["eth_getLogs: param Filter is required"])
    expect(answerProblems({ jsonrpc: "2.0", id: 1, method: "eth_getLogs" }, { jsonrpc: "2.0", id: 1, result: [{ transactionHash: "0x1", amount: 5 }] })).toEqual([
      "eth_getLogs answer result[0].transactionHash: \"0x1\" does not match ^0x[0-9a-f]{64}$",
      "eth_getLogs answer result[0].amount: not in the description"
    ])
  })
})

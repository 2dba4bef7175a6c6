import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ChainWatcher } from "@ledger/engine/ports"
import { FakeChain } from "@ledger/testkit"
import { answerProblems } from "../support/providers/evm.ts"

/**
 * The USDC-on-Solana rail (issue 39). Solana publishes its RPC reference as prose pages only
 * (solana.com/docs/rpc/http), so no description is kept; what is checked: every call the adapter
 * makes is a JSON-RPC 2.0 call, every answer of the fake a JSON-RPC 2.0 answer to it, and the fake
 * refuses what Solana's RPC refuses, with its codes and messages, so an adapter that forgot
 * `maxSupportedTransactionVersion` (the most common first-day failure) would fail here.
 */
const chain = FakeChain.make()
let base = ""
beforeAll(async () => {
  base = await chain.start()
})
afterAll(() => chain.close())

const rpc = async (method: string, params: Array<unknown>) => {
  const response = await fetch(`${base}/solana`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 3, method, params }) })
  return (await response.json() as { error?: { code: number; message: string } }).error
}

describe("the Solana rail against Solana's JSON-RPC", () => {
  const owner = "4paJKMiSHnKjde4TVzXNBXbanhjA7ddA9vRuJnVayBiH"

  it("every call of a watch is JSON-RPC 2.0 over a JSON POST, and every answer one to it", async () => {
    chain.pay({ address: owner, units: "15000000", confirmations: 40 })
    const before = chain.requests.length
    const payments = await Effect.runPromise(Effect.provide(Effect.gen(function*() {
      return yield* (yield* ChainWatcher).payments({ rail: "usdc_solana", addresses: [owner] })
    }), chain.layer))
    expect(payments).toHaveLength(1)
    const calls = chain.requests.slice(before).filter((request) => request.path === "/solana")
    expect(calls.map((call) => call.rpc)).toEqual(["getSlot", "getTokenAccountsByOwner", "getSignaturesForAddress", "getTransaction"])
    expect(calls.filter((call) => call.method !== "POST" || !call.contentType.startsWith("application/json"))).toEqual([])
    expect(calls.flatMap((call) => answerProblems(JSON.parse(call.body), JSON.parse(call.answer)))).toEqual([])
    expect(calls.map((call) => JSON.parse(call.answer).error)).toEqual([undefined, undefined, undefined, undefined])
  })

  it("the fake refuses what Solana refuses: a version-0 transaction unasked, history below confirmed, over 1,000 signatures", async () => {
    const signature = chain.pay({ address: owner, units: "1000000", confirmations: 5 })
    expect(await rpc("getTransaction", [signature, { encoding: "jsonParsed" }])).toEqual({
      code: -32015,
      message: "Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: \"maxSupportedTransactionVersion\": 0"
    })
    expect(await rpc("getTransaction", [signature, { encoding: "jsonParsed", maxSupportedTransactionVersion: 0, commitment: "processed" }])).toMatchObject({ code: -32602 })
    expect(await rpc("getSignaturesForAddress", [`ata-${owner}`, { limit: 1001 }])).toEqual({ code: -32602, message: "Invalid limit; max 1000" })
    expect(await rpc("getTransaction", [signature, { encoding: "jsonParsed", maxSupportedTransactionVersion: 0 }])).toBeUndefined()
  })
})

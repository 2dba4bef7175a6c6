import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ChainWatcher } from "@ledger/engine/ports"
import { FakeChain } from "@ledger/testkit"
import { harness, load } from "../support/providers/json-rpc.ts"

/**
 * The USDC-on-Solana rail's contract (issue 39): every call the real adapter
 * (adapters/crypto/Solana.ts) makes while watching, and every answer of the testkit's fake node,
 * checked against a description of Solana's JSON-RPC written in this repository from Solana's
 * published reference (test/fixtures/providers/solana: solana.com/docs/rpc/http, which is prose
 * only, and Agave's error codes); the fake refuses what Solana's RPC refuses, with its codes, so an
 * adapter that forgot `maxSupportedTransactionVersion` (the most common first-day failure) fails here.
 */
const { description, callProblems, answerProblems, exchangeProblems } = harness(load("solana", "solana-rpc-subset.json"))
const chain = FakeChain.make()
let base = ""
beforeAll(async () => {
  base = await chain.start()
})
afterAll(() => chain.close())

const rpc = async (method: string, params: unknown) => {
  const response = await fetch(`${base}/solana`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 3, method, params }) })
  return (await response.json() as { error?: { code: number; message: string } }).error
}
const solanaCalls = (from: number) => chain.requests.slice(from).filter((request) => request.path === "/solana")

describe(`the Solana rail against Solana's JSON-RPC (${description.info.title})`, () => {
  const owner = "4paJKMiSHnKjde4TVzXNBXbanhjA7ddA9vRuJnVayBiH"

  it("every call of a watch and every answer match the description", async () => {
    chain.pay({ address: owner, units: "15000000", confirmations: 40 })
    chain.pay({ address: owner, units: "2500000", confirmations: 3 })
    const before = chain.requests.length
    const payments = await Effect.runPromise(Effect.provide(Effect.gen(function*() {
      return yield* (yield* ChainWatcher).payments({ rail: "usdc_solana", addresses: [owner] })
    }), chain.layer))
    expect(payments.map((payment) => payment.units).sort()).toEqual(["15000000", "2500000"])
    const calls = solanaCalls(before)
    expect(calls.map((call) => call.rpc)).toEqual(["getSlot", "getTokenAccountsByOwner", "getSignaturesForAddress", "getTransaction", "getTransaction"])
    expect(calls.map((call) => JSON.parse(call.answer).error)).toEqual([undefined, undefined, undefined, undefined, undefined])
    expect(calls.flatMap((call) => exchangeProblems(call))).toEqual([])
  })

  it("the fake refuses what Solana refuses: a version-0 transaction unasked, history below confirmed, over 1,000 signatures", async () => {
    const signature = chain.pay({ address: owner, units: "1000000", confirmations: 5 })
    const before = chain.requests.length
    expect(await rpc("getTransaction", [signature, { encoding: "jsonParsed" }])).toEqual({
      code: -32015,
      message: "Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: \"maxSupportedTransactionVersion\": 0"
    })
    expect(await rpc("getTransaction", [signature, { encoding: "jsonParsed", maxSupportedTransactionVersion: 0, commitment: "processed" }])).toMatchObject({ code: -32602 })
    expect(await rpc("getSignaturesForAddress", [owner, { limit: 1001 }])).toEqual({ code: -32602, message: "Invalid limit; max 1000" })
    expect(await rpc("getSlot", { commitment: "confirmed" })).toMatchObject({ code: -32602 })
    expect(await rpc("getTransaction", [signature, { encoding: "jsonParsed", maxSupportedTransactionVersion: 0 }])).toBeUndefined()
    // Each refusal was a request the description refuses too, and each answer has Solana's shape.
    const calls = solanaCalls(before)
    expect(calls.map((call) => callProblems(JSON.parse(call.body)).length > 0)).toEqual([false, true, true, true, false])
    expect(calls.flatMap((call) => answerProblems(JSON.parse(call.body), JSON.parse(call.answer)))).toEqual([])
  })

  it("a call the description does not have is reported", () => {
    const call = (method: string, params: unknown) => ({ jsonrpc: "2.0", id: 1, method, params })
    expect(callProblems(call("getSignaturesForAddress", [owner, { limit: 0, commitment: "processed" }]))).toEqual([
      "getSignaturesForAddress config.limit: 0 is under the minimum 1",
      "getSignaturesForAddress config.commitment: \"processed\" is not one of confirmed, finalized"
    ])
    expect(callProblems(call("getTransaction", [signature0x, { encoding: "jsonParsed", maxSupportedTransactionVersion: 0, maxVersion: 0 }]))).toEqual([
      `getTransaction signature: "${signature0x}" does not match ^[1-9A-HJ-NP-Za-km-z]+$`,
      "getTransaction config.maxVersion: not in the description"
    ])
    expect(callProblems(call("getTokenAccountsByOwner", [owner, { encoding: "jsonParsed" }]))).toEqual([
      "getTokenAccountsByOwner filter.encoding: not in the description",
      "getTokenAccountsByOwner filter.mint: required"
    ])
    expect(callProblems(call("getBalances", [owner]))).toEqual(["getBalances: no such method"])
    expect(answerProblems(call("getSignaturesForAddress", []), { jsonrpc: "2.0", id: 1, result: [{ signature: "5h6x", slot: 114, err: null }] })).toEqual([
      "getSignaturesForAddress answer result[0].signature: shorter than 64",
      "getSignaturesForAddress answer result[0].memo: required",
      "getSignaturesForAddress answer result[0].blockTime: required",
      "getSignaturesForAddress answer result[0].confirmationStatus: required"
    ])
  })
})

const signature0x = `0x${"ab".repeat(32)}`

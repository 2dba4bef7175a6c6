import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ChainWatcher, type WatchRequest } from "@ledger/engine/ports"
import { FakeChain } from "@ledger/testkit"
import { harness, load } from "../support/providers/json-rpc.ts"

/**
 * The `xmr` rail's contract (issue 39): every call the real adapter (adapters/crypto/MoneroWalletRpc.ts)
 * makes while watching, and every answer of the testkit's fake wallet RPC, checked against the
 * wallet RPC's description made from the Monero sources (test/fixtures/providers/monero-wallet-rpc:
 * the commands' request and response fields as `wallet_rpc_server_commands_defs.h` serializes
 * them, and the wallet's error codes); the fake refuses as the wallet does.
 */
const { description, callProblems, answerProblems, exchangeProblems } = harness(load("monero-wallet-rpc", "wallet-rpc-subset.json"))
const chain = FakeChain.make()
let base = ""
beforeAll(async () => {
  base = await chain.start()
})
afterAll(() => chain.close())

/** The Monero view-key vectors of test/fixtures/bitcoin/monero (their SOURCES.md names them). */
const fixture = (name: string) => JSON.parse(readFileSync(fileURLToPath(new URL(`../fixtures/bitcoin/${name}`, import.meta.url)), "utf8"))
const vector = fixture("monero/monero_viewkey_vectors.json").subaddress_vectors[0]
const grid: Array<Array<string>> = fixture(`monero/${vector.expected_subaddresses_file}`)
const request = (addresses: ReadonlyArray<string>): WatchRequest => ({
  rail: "xmr", addresses, primaryAddress: vector.address, viewKey: vector.secret_view_key, restoreHeight: 3_100_000,
  subaddressIndex: Object.fromEntries(addresses.map((address) => [address, grid[0]!.indexOf(address)]))
})
const watch = (watched: WatchRequest) =>
  Effect.runPromise(Effect.provide(Effect.gen(function*() {
    return yield* (yield* ChainWatcher).payments(watched)
  }), chain.layer))
const rpc = async (call: object) => {
  const response = await fetch(`${base}/monero/json_rpc`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(call) })
  return response.json() as Promise<any>
}

describe(`the Monero rail against the wallet RPC's description (${description.info.version})`, () => {
  it("every call of two watches (the wallet made, then opened) and every answer match it", async () => {
    chain.pay({ address: grid[0]![1]!, units: "12345678901234567891", confirmations: 12, monero: { primary: vector.address, minor: 1 } })
    chain.pay({ address: grid[0]![2]!, units: "2000000000000", monero: { primary: vector.address, minor: 2 } })
    const before = chain.requests.length
    expect(await watch(request([grid[0]![1]!, grid[0]![2]!]))).toHaveLength(2)
    expect(await watch(request([grid[0]![1]!]))).toHaveLength(1)
    const calls = chain.requests.slice(before).filter((call) => call.path === "/monero/json_rpc")
    expect(calls.map((call) => call.rpc)).toEqual(["open_wallet", "generate_from_keys", "refresh", "get_transfers", "open_wallet", "refresh", "get_transfers"])
    // The first open_wallet is refused (no such wallet yet) with the wallet's own code.
    expect(JSON.parse(calls[0]!.answer).error).toEqual({ code: -1, message: "Failed to open wallet" })
    expect(calls.flatMap((call) => exchangeProblems(call))).toEqual([])
  })

  it("the fake refuses what the wallet refuses: params not an object, no wallet open, a wallet that exists, an unknown method", async () => {
    expect((await rpc({ jsonrpc: "2.0", id: "1", method: "get_transfers", params: [true] })).error).toEqual({ code: -32602, message: "Invalid params" })
    expect((await rpc({ jsonrpc: "2.0", id: "1", method: "getTransfers", params: {} })).error).toEqual({ code: -32601, message: "Method not found" })
    const filename = `contract-${Date.now()}`
    const keys = { filename, address: vector.address, viewkey: vector.secret_view_key, password: "" }
    expect((await rpc({ jsonrpc: "2.0", id: "2", method: "generate_from_keys", params: keys })).result).toMatchObject({ address: vector.address })
    expect((await rpc({ jsonrpc: "2.0", id: "3", method: "generate_from_keys", params: keys })).error).toEqual({ code: -1, message: "Wallet already exists." })
    const answers = chain.requests.filter((call) => call.path === "/monero/json_rpc").slice(-4)
    expect(answers.flatMap((call) => answerProblems(JSON.parse(call.body), JSON.parse(call.answer)))).toEqual([])
  })

  it("a call the description does not have is reported", () => {
    expect(callProblems({ jsonrpc: "2.0", id: "0", method: "get_transfers", params: { in: true, account_index: 0, subaddr_index: [1] } })).toEqual([
      "get_transfers params.subaddr_index: not in the description"
    ])
    expect(callProblems({ jsonrpc: "2.0", id: "0", method: "get_transfers", params: { in: "yes", subaddr_indices: [-1] } })).toEqual([
      "get_transfers params.in: a boolean expected, not \"yes\"",
      "get_transfers params.subaddr_indices[0]: -1 is under the minimum 0"
    ])
    expect(callProblems({ jsonrpc: "2.0", id: "0", method: "generate_from_keys", params: [{ filename: "w" }] })).toEqual(["generate_from_keys: params by name (an object) expected"])
    expect(callProblems({ jsonrpc: "2.0", id: "0", method: "create_wallet", params: {} })).toEqual(["create_wallet: no such method"])
    expect(answerProblems({ jsonrpc: "2.0", id: "0", method: "get_transfers" }, { jsonrpc: "2.0", id: "0", result: { in: [{ txid: "ab", amount: "5" }] } })).toEqual([
      "get_transfers answer result.in[0].amount: an integer expected, not \"5\"",
      ...["payment_id", "height", "timestamp", "fee", "change_amount", "note", "type", "unlock_time", "locked", "subaddr_index", "address", "double_spend_seen", "confirmations", "suggested_confirmations_threshold"]
        .map((field) => `get_transfers answer result.in[0].${field}: required`)
    ])
    expect(answerProblems({ jsonrpc: "2.0", id: "0", method: "open_wallet" }, { jsonrpc: "2.0", id: "0", error: { code: -99, message: "?" } })).toEqual([
      "open_wallet answer: error code -99 is not one the service has"
    ])
  })
})

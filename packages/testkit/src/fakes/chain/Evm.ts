import type { ServerResponse } from "node:http"
import { CryptoPorts } from "@ledger/server"
import { type Json, json } from "./Loopback.ts"
import { type ChainState, evmForm, tokenRails } from "./State.ts"

/** EVM JSON-RPC: the tip, and ERC-20 Transfer logs of the rail's contract (10,000 blocks a call at most). */
export const evm = (state: ChainState, response: ServerResponse, rail: string, call: Json) => {
  const reply = (result: unknown) => json(response, 200, { jsonrpc: "2.0", id: call.id, result })
  if (!(tokenRails as ReadonlyArray<string>).includes(rail)) return json(response, 404, "no such chain")
  if (call.method === "eth_blockNumber") {
    state.calls++
    return reply(`0x${state.tip.toString(16)}`)
  }
  const fail = (code: number, message: string) => json(response, 200, { jsonrpc: "2.0", id: call.id, error: { code, message } })
  if (call.method !== "eth_getLogs") return fail(-32601, `the method ${String(call.method)} does not exist/is not available`)
  const filter = (call.params as Array<Json>)[0]!
  const from = Number.parseInt(filter.fromBlock, 16)
  const to = Number.parseInt(filter.toBlock, 16)
  // A node's refusals, as the execution APIs' conformance exchanges show them (tests/eth_getLogs/filter-error-*.io).
  if (from > to) return fail(-32602, "invalid block range params")
  if (to > state.tip) return fail(-32602, "block range extends beyond current head block")
  // Not the specification's: hosted nodes bound a call's range; the adapter asks within 10,000 blocks.
  if (to - from + 1 > 10_000) return fail(-32005, "block range is too wide")
  const contract = evmForm(CryptoPorts.contracts[rail as CryptoPorts.TokenRail])
  const wanted = new Set(((filter.topics?.[2] ?? []) as Array<string>).map((topic) => topic.toLowerCase()))
  const logs = state.outputs.flatMap((output) => {
    const form = output.monero === null ? evmForm(output.address) : null
    if (form === null || output.height === null || output.height < from || output.height > to || String(filter.address).toLowerCase() !== contract) return []
    // TRON addresses are on the Tron chain only; 0x ones on every EVM chain the test pays through.
    if ((rail === "usdt_tron") !== output.address.startsWith("T")) return []
    const topic = `0x${"0".repeat(24)}${form.slice(2)}`
    if (filter.topics?.[0] !== CryptoPorts.transferTopic || !wanted.has(topic)) return []
    return [{
      address: contract, topics: [CryptoPorts.transferTopic, `0x${"0".repeat(64)}`, topic], data: `0x${output.units.toString(16).padStart(64, "0")}`,
      blockNumber: `0x${output.height.toString(16)}`, transactionHash: output.txid, logIndex: `0x${output.outputIndex.toString(16)}`, removed: false
    }]
  })
  return reply(logs)
}

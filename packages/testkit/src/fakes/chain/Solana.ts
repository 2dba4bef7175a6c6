import type { ServerResponse } from "node:http"
import { CryptoPorts } from "@ledger/server"
import { type Json, json } from "./Loopback.ts"
import { type ChainState, isSolana } from "./State.ts"

/** Solana JSON-RPC: one USDC token account an owner, each payment a transaction raising its balance. */
export const solana = (state: ChainState, response: ServerResponse, call: Json) => {
  const reply = (result: unknown) => json(response, 200, { jsonrpc: "2.0", id: call.id, result })
  const params = (call.params ?? []) as Array<any>
  const mint = CryptoPorts.solanaUsdcMint
  const tokenAccount = (owner: string) => `ata-${owner}`
  const mined = state.outputs.filter((output) => isSolana(output) && output.height !== null)
  switch (call.method) {
    case "getSlot":
      state.calls++
      return reply(state.tip)
    case "getTokenAccountsByOwner": {
      if (params[1]?.mint !== mint) return reply({ context: { slot: state.tip }, value: [] })
      const has = mined.some((output) => output.address === params[0])
      return reply({ context: { slot: state.tip }, value: has ? [{ pubkey: tokenAccount(String(params[0])), account: { owner: "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA" } }] : [] })
    }
    case "getSignaturesForAddress": {
      const owner = String(params[0]).replace(/^ata-/u, "")
      const limit = Number(params[1]?.limit ?? 1000)
      const list = mined.filter((output) => output.address === owner).sort((a, b) => b.height! - a.height! || b.sequence - a.sequence).slice(0, limit)
      return reply(list.map((output) => ({ signature: output.txid, slot: output.height, err: null, confirmationStatus: "confirmed" })))
    }
    case "getTransaction": {
      const output = mined.find((candidate) => candidate.txid === params[0])
      if (output === undefined) return reply(null)
      const before = mined.filter((other) => other.address === output.address && (other.height! < output.height! || (other.height === output.height && other.sequence < output.sequence)))
        .reduce((sum, other) => sum + other.units, 0n)
      const balance = (amount: bigint) => [{ accountIndex: 1, mint, owner: output.address, uiTokenAmount: { amount: amount.toString(), decimals: 6 } }]
      return reply({ slot: output.height, meta: { err: null, preTokenBalances: balance(before), postTokenBalances: balance(before + output.units) } })
    }
    default:
      return json(response, 200, { jsonrpc: "2.0", id: call.id, error: { code: -32601, message: "Method not found" } })
  }
}

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
  const fail = (code: number, message: string) => json(response, 200, { jsonrpc: "2.0", id: call.id, error: { code, message } })
  // What Solana's RPC refuses (solana.com/docs/rpc/http): history below `confirmed`, more than 1,000
  // signatures a page, and a versioned transaction to a client that does not say it reads them.
  const history = call.method === "getSignaturesForAddress" || call.method === "getTransaction"
  if (history && params[1]?.commitment === "processed") return fail(-32602, "Method does not support commitment below `confirmed`")
  if (call.method === "getSignaturesForAddress" && Number(params[1]?.limit ?? 1000) > 1000) return fail(-32602, "Invalid limit; max 1000")
  if (call.method === "getTransaction" && params[1]?.maxSupportedTransactionVersion === undefined && mined.some((output) => output.txid === params[0])) {
    return fail(-32015, "Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: \"maxSupportedTransactionVersion\": 0")
  }
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
      // Wallets send version 0 transactions: the reason a client must pass `maxSupportedTransactionVersion`.
      return reply({ slot: output.height, version: 0, meta: { err: null, preTokenBalances: balance(before), postTokenBalances: balance(before + output.units) } })
    }
    default:
      return fail(-32601, "Method not found")
  }
}

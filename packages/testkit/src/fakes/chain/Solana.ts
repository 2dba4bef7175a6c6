import { createHash } from "node:crypto"
import type { ServerResponse } from "node:http"
import { CryptoPorts } from "@ledger/server"
import { type Json, json } from "./Loopback.ts"
import { base58, type ChainState, isSolana, type Output } from "./State.ts"

const tokenProgram = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA"

/** An owner's USDC token account: a 32-byte key of its own, as an associated token account is. */
export const tokenAccountOf = (owner: string): string => base58(createHash("sha256").update(`ata:${owner}`).digest())

/** A token balance as Solana's transaction metadata gives it (its "Token Balances" structure). */
const tokenBalance = (owner: string, amount: bigint) => ({
  accountIndex: 1, mint: CryptoPorts.solanaUsdcMint, owner, programId: tokenProgram,
  uiTokenAmount: { amount: amount.toString(), decimals: 6, uiAmount: Number(amount) / 1e6, uiAmountString: (Number(amount) / 1e6).toString() }
})

/** `getTransaction`'s answer (jsonParsed, version 0): every field solana.com/docs/rpc/http/gettransaction names. */
const transactionOf = (output: Output, before: bigint) => ({
  slot: output.height, blockTime: 1_700_000_000 + Math.floor(output.height! * 0.4), version: 0,
  meta: {
    err: null, fee: 5000, preBalances: [1_000_000_000, 2_039_280], postBalances: [999_995_000, 2_039_280], innerInstructions: [], logMessages: [],
    preTokenBalances: [tokenBalance(output.address, before)], postTokenBalances: [tokenBalance(output.address, before + output.units)],
    rewards: [], status: { Ok: null }, loadedAddresses: { writable: [], readonly: [] }, computeUnitsConsumed: 4_644
  },
  transaction: {
    signatures: [output.txid],
    message: {
      accountKeys: [{ pubkey: tokenAccountOf(output.address), signer: false, writable: true, source: "transaction" }],
      instructions: [{ program: "spl-token", programId: tokenProgram, parsed: { type: "transferChecked", info: { destination: tokenAccountOf(output.address) } } }],
      recentBlockhash: base58(createHash("sha256").update(`block:${output.height}`).digest())
    }
  }
})

/**
 * Solana JSON-RPC (solana.com/docs/rpc/http, test/fixtures/providers/solana): one USDC token account
 * an owner, each payment a transaction raising its balance, every answer with the fields the
 * documentation names. It refuses what Agave's RPC refuses: history below `confirmed`, more than
 * 1,000 signatures a page, a versioned transaction to a client that does not say it reads them.
 */
export const solana = (state: ChainState, response: ServerResponse, call: Json) => {
  const reply = (result: unknown) => json(response, 200, { jsonrpc: "2.0", id: call.id, result })
  const params = (call.params ?? []) as Array<any>
  const mint = CryptoPorts.solanaUsdcMint
  const mined = state.outputs.filter((output) => isSolana(output) && output.height !== null)
  const ownerOf = (account: unknown) => mined.find((output) => tokenAccountOf(output.address) === account)?.address
  const fail = (code: number, message: string) => json(response, 200, { jsonrpc: "2.0", id: call.id, error: { code, message } })
  const context = { slot: state.tip, apiVersion: "2.2.16" }
  const history = call.method === "getSignaturesForAddress" || call.method === "getTransaction"
  if (!Array.isArray(call.params ?? [])) return fail(-32602, "Invalid params: invalid type: map, expected a sequence.")
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
      if (params[1]?.mint !== mint || !mined.some((output) => output.address === params[0])) return reply({ context, value: [] })
      const owner = String(params[0])
      const balance = mined.filter((output) => output.address === owner).reduce((sum, output) => sum + output.units, 0n)
      return reply({ context, value: [{ pubkey: tokenAccountOf(owner), account: {
        lamports: 2_039_280, owner: tokenProgram, executable: false, rentEpoch: Number("18446744073709551615"), space: 165,
        data: { program: "spl-token", space: 165, parsed: { type: "account", info: { isNative: false, mint, owner, state: "initialized", tokenAmount: tokenBalance(owner, balance).uiTokenAmount } } }
      } }] })
    }
    case "getSignaturesForAddress": {
      const owner = ownerOf(params[0])
      const limit = Number(params[1]?.limit ?? 1000)
      const list = mined.filter((output) => output.address === owner).sort((a, b) => b.height! - a.height! || b.sequence - a.sequence).slice(0, limit)
      return reply(list.map((output) => ({ signature: output.txid, slot: output.height, err: null, memo: null, blockTime: transactionOf(output, 0n).blockTime, confirmationStatus: "confirmed" })))
    }
    case "getTransaction": {
      const output = mined.find((candidate) => candidate.txid === params[0])
      if (output === undefined) return reply(null)
      const before = mined.filter((other) => other.address === output.address && (other.height! < output.height! || (other.height === output.height && other.sequence < output.sequence)))
        .reduce((sum, other) => sum + other.units, 0n)
      return reply(transactionOf(output, before))
    }
    default:
      return fail(-32601, "Method not found")
  }
}

import { createHash } from "node:crypto"
import type { ServerResponse } from "node:http"
import { type Json, json } from "./Loopback.ts"
import { type ChainState, confirmationsOf, type Output } from "./State.ts"

const md5 = (value: string) => createHash("md5").update(value).digest("hex")

/** Checks an `Authorization: Digest ...` header against the login (RFC 7616, MD5, qop=auth). */
export const digestValid = (header: string | undefined, login: string, method: string, nonce: string): boolean => {
  if (header === undefined || !/^Digest /iu.test(header)) return false
  const fields = Object.fromEntries([...header.matchAll(/(\w+)=(?:"([^"]*)"|([^,\s]*))/gu)].map((match) => [match[1]!.toLowerCase(), match[2] ?? match[3] ?? ""]))
  const [user, password] = [login.slice(0, login.indexOf(":")), login.slice(login.indexOf(":") + 1)]
  if (fields.username !== user || fields.nonce !== nonce) return false
  const ha1 = md5(`${user}:${fields.realm}:${password}`)
  const ha2 = md5(`${method}:${fields.uri}`)
  return fields.response === md5(`${ha1}:${nonce}:${fields.nc}:${fields.cnonce}:${fields.qop}:${ha2}`)
}

/** Monero wallet RPC: bare integers for amounts, as the wallet writes them (they can pass 2^53). */
export const monero = (state: ChainState, response: ServerResponse, call: Json) => {
  const reply = (result: unknown) => json(response, 200, { jsonrpc: "2.0", id: call.id, result })
  const error = (code: number, message: string) => json(response, 200, { jsonrpc: "2.0", id: call.id, error: { code, message } })
  // The wallet takes its params as one object; anything else does not parse into the command's request.
  if (call.params !== undefined && (typeof call.params !== "object" || call.params === null || Array.isArray(call.params))) return error(-32602, "Invalid params")
  const params = (call.params ?? {}) as Json
  switch (call.method) {
    case "open_wallet":
      if (!state.wallets.has(String(params.filename))) return error(-1, "Failed to open wallet")
      state.open = state.wallets.get(String(params.filename))!
      return reply({})
    case "generate_from_keys":
      if (params.spendkey !== undefined && params.spendkey !== "") return error(-1, "This fake only makes view-only wallets")
      if (typeof params.address !== "string" || !/^[0-9a-f]{64}$/u.test(String(params.viewkey))) return error(-1, "Failed to parse view key secret key")
      if (state.wallets.has(String(params.filename))) return error(-1, "Wallet already exists.")
      state.wallets.set(String(params.filename), params.address)
      state.open = params.address
      return reply({ address: params.address, info: "Wallet has been generated successfully." })
    case "refresh":
      return reply({ blocks_fetched: 0, received_money: false })
    case "get_transfers": {
      state.calls++
      if (state.open === null) return error(-13, "No wallet file")
      const indices = new Set((params.subaddr_indices as Array<number> | undefined) ?? [])
      const mine = state.outputs.filter((output) => output.monero !== null && output.monero.primary === state.open && (indices.size === 0 || indices.has(output.monero.minor)))
      // Every field the wallet writes for a transfer (wallet_rpc_server_commands_defs.h `transfer_entry`).
      const entry = (output: Output) =>
        `{"txid":${JSON.stringify(output.txid)},"payment_id":"0000000000000000","height":${output.height ?? 0},"timestamp":${1_700_000_000 + (output.height ?? 0) * 120},` +
        `"amount":${output.units.toString()},"amounts":[${output.units.toString()}],"fee":30000000,"change_amount":0,"note":"",` +
        `"type":"${output.height === null ? "pool" : "in"}","unlock_time":0,"locked":${confirmationsOf(state, output) < 10},` +
        `"subaddr_index":{"major":0,"minor":${output.monero!.minor}},"subaddr_indices":[{"major":0,"minor":${output.monero!.minor}}],` +
        `"address":${JSON.stringify(output.address)},"double_spend_seen":false,"confirmations":${confirmationsOf(state, output)},"suggested_confirmations_threshold":10}`
      const list = (items: ReadonlyArray<Output>) => `[${items.map(entry).join(",")}]`
      const inList = params.in === true ? mine.filter((output) => output.height !== null) : []
      const pool = params.pool === true ? mine.filter((output) => output.height === null) : []
      return json(response, 200, `{"jsonrpc":"2.0","id":${JSON.stringify(call.id)},"result":{"in":${list(inList)},"pool":${list(pool)}}}`)
    }
    default:
      return error(-32601, "Method not found")
  }
}

import { createHash } from "node:crypto"
import type { IncomingMessage, ServerResponse } from "node:http"
import { Effect, Layer } from "effect"
import type { ChainWatcher } from "@ledger/engine/ports"
import { CryptoPorts } from "@ledger/server"
import { esplora } from "./chain/Esplora.ts"
import { evm } from "./chain/Evm.ts"
import { type Json, json, loopback, readBody } from "./chain/Loopback.ts"
import { digestValid, monero } from "./chain/MoneroWalletRpc.ts"
import { solana } from "./chain/Solana.ts"
import { base58, type ChainRequest, type ChainState, heightFor, isSolanaKey, newState, tokenRails } from "./chain/State.ts"

export { type FakePrices, makePrices } from "./chain/Prices.ts"

/**
 * The crypto rails' fakes: the same HTTP APIs the server's real adapters (`CryptoPorts`) call,
 * served on loopback, so tests run the real adapters against them. One chain, scripted by a test:
 * `pay` an address, let blocks confirm it (`confirm`, `mine`), make the next request fail
 * (`failNext`). It answers as
 *
 * - Esplora (`/esplora`): `/blocks/tip/height`, `/address/{a}/txs` (mempool and the first 25
 *   confirmed), `/address/{a}/txs/chain/{last seen txid}` (25 more), `/tx/{id}/status`;
 * - monero-wallet-rpc (`/monero/json_rpc`): `open_wallet`, `generate_from_keys` (view-only: a spend
 *   key is refused), `refresh`, `get_transfers` by subaddress index, with HTTP digest when a login
 *   is set; amounts are written as bare JSON integers, as the wallet does;
 * - EVM JSON-RPC (`/evm/{rail}`): `eth_blockNumber`, `eth_getLogs` for ERC-20 Transfer logs of
 *   the rail's contract (10,000 blocks a call at most, as providers limit it);
 * - Solana JSON-RPC (`/solana`): `getSlot`, `getTokenAccountsByOwner`, `getSignaturesForAddress`,
 *   `getTransaction` with the USDC token balances before and after;
 *
 * and a price service (`makePrices`, `/price?asset&at`). Which API sees a payment follows the
 * address: `0x...` and TRON `T...` ones are token transfers, 32-byte base58 keys Solana USDC,
 * Monero ones name their wallet and subaddress (`monero`), the rest are Bitcoin outputs.
 *
 * Each API's fake is in `chain/`, as the server's adapters are in its `adapters/crypto/`.
 */

export interface FakeChain {
  /** The real adapters (Esplora, Monero wallet RPC, EVM JSON-RPC, Solana JSON-RPC) pointed at this fake. */
  readonly layer: Layer.Layer<ChainWatcher>
  readonly start: () => Promise<string>
  readonly close: () => Promise<void>
  /** Pays `units` (smallest unit) to `address`; Monero payments name their wallet's primary address and subaddress minor index. Returns the txid. */
  readonly pay: (input: {
    readonly address: string
    readonly units: string | bigint
    readonly confirmations?: number
    readonly txid?: string
    readonly monero?: { readonly primary: string; readonly minor: number }
  }) => string
  /** Sets the confirmations of every output of a transaction (0: back to the mempool). */
  readonly confirm: (txid: string, confirmations: number) => void
  /** New blocks: every transaction gains as many confirmations (mempool ones are mined in the first). */
  readonly mine: (blocks?: number) => void
  readonly failNext: () => void
  /** The number of watch calls answered (Esplora tip, Monero `get_transfers`, EVM `eth_blockNumber`, Solana `getSlot`). */
  readonly calls: () => number
  /** Every request's method and path (with its JSON-RPC method), its body and the answer, for tests to look at. */
  readonly requests: ReadonlyArray<Readonly<ChainRequest>>
  /** Makes the Monero wallet RPC ask for HTTP digest with this `user:password` (null: no login). */
  readonly requireLogin: (login: string | null) => void
}

/** Sends a request to the fake of the API its path names, after the login and `failNext` checks. */
const route = (state: ChainState) => async (request: IncomingMessage, response: ServerResponse) => {
  const url = new URL(request.url ?? "/", "http://127.0.0.1")
  const body = request.method === "POST" ? await readBody(request) : ""
  let call: Json | null = null
  try {
    call = body === "" ? null : JSON.parse(body) as Json
  } catch {
    call = null
  }
  const entry: ChainRequest = {
    path: url.pathname, rpc: call === null ? null : String(call.method), method: request.method ?? "GET",
    contentType: request.headers["content-type"] ?? "", body, status: 0, answer: ""
  }
  state.requests.push(entry)
  // Every answer is recorded as sent (the fakes write it with one `end`).
  const end = response.end.bind(response) as (chunk?: unknown) => ServerResponse
  response.end = ((chunk?: unknown) => {
    entry.status = response.statusCode
    entry.answer = chunk === undefined ? "" : String(chunk)
    return end(chunk)
  }) as typeof response.end
  if (body !== "" && call === null) return json(response, 200, { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } })
  const path = url.pathname.split("/").filter((part) => part !== "").map(decodeURIComponent)
  if (path[0] === "monero" && state.login !== null && !digestValid(request.headers.authorization, state.login, request.method ?? "POST", state.nonce)) {
    response.writeHead(401, { "www-authenticate": `Digest qop="auth", algorithm=MD5, realm="monero-rpc", nonce="${state.nonce}", stale=false` }).end()
    return
  }
  if (state.failing) {
    state.failing = false
    return json(response, 503, { error: "The fake chain is down for this call." })
  }
  if (path[0] === "esplora") return esplora(state, response, path.slice(1))
  if (path[0] === "monero" && path[1] === "json_rpc" && call !== null) return monero(state, response, call)
  if (path[0] === "evm" && call !== null) return evm(state, response, path[1] ?? "", call)
  if (path[0] === "solana" && call !== null) return solana(state, response, call)
  return json(response, 404, "not found")
}

export const make = (): FakeChain => {
  const state = newState()
  const server = loopback(route(state))
  const layer = Layer.unwrap(Effect.promise(server.start).pipe(Effect.map((base) =>
    CryptoPorts.chainOf({
      esploraUrl: `${base}/esplora`,
      moneroWalletRpc: { url: `${base}/monero`, get login() { return state.login ?? undefined } },
      evm: Object.fromEntries(tokenRails.map((rail) => [rail, { url: `${base}/evm/${rail}` }])),
      solana: { url: `${base}/solana` }
    })!
  )))
  const byTx = (txid: string) => state.outputs.filter((output) => output.txid === txid)
  return {
    layer,
    start: server.start,
    close: server.close,
    pay: ({ address, units, confirmations, txid, monero: subaddress }) => {
      // Each chain's own form of a transaction id: 0x and 32 bytes (EVM), a 64-byte base58 signature (Solana), 32 bytes hex (Bitcoin, Monero).
      const seed = `fake-${++state.sequence}`
      const id = txid ?? (address.startsWith("0x") || address.startsWith("T")
        ? `0x${createHash("sha256").update(seed).digest("hex")}`
        : subaddress === undefined && isSolanaKey(address) ? base58(createHash("sha512").update(seed).digest()) : createHash("sha256").update(seed).digest("hex"))
      state.outputs.push({
        txid: id, outputIndex: byTx(id).length, address, units: BigInt(units), height: heightFor(state, confirmations ?? 0), sequence: ++state.sequence,
        monero: subaddress ?? null
      })
      return id
    },
    confirm: (txid, confirmations) => {
      for (const output of byTx(txid)) output.height = heightFor(state, confirmations)
    },
    mine: (blocks = 1) => {
      for (const output of state.outputs) if (output.height === null) output.height = state.tip + 1
      state.tip += blocks
    },
    failNext: () => {
      state.failing = true
    },
    calls: () => state.calls,
    requests: state.requests,
    requireLogin: (value) => {
      state.login = value
    }
  }
}

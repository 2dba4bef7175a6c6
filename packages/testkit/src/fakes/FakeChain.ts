import { createHash, randomBytes } from "node:crypto"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect, Layer } from "effect"
import type { ChainWatcher, CryptoAsset, CryptoPrices } from "@ledger/engine/ports"
import { CryptoPorts } from "@ledger/server"

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
 */

type Json = Record<string, any>

interface Output {
  readonly txid: string
  readonly outputIndex: number
  readonly address: string
  readonly units: bigint
  height: number | null
  readonly sequence: number
  readonly monero: { readonly primary: string; readonly minor: number } | null
}

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
  /** Every request's method and path (with its JSON-RPC method), for tests to look at. */
  readonly requests: ReadonlyArray<{ readonly path: string; readonly rpc: string | null }>
  /** Makes the Monero wallet RPC ask for HTTP digest with this `user:password` (null: no login). */
  readonly requireLogin: (login: string | null) => void
}

const json = (response: ServerResponse, status: number, body: unknown) =>
  response.writeHead(status, { "content-type": "application/json" }).end(typeof body === "string" ? body : JSON.stringify(body))

const readBody = (request: IncomingMessage): Promise<string> =>
  new Promise((resolve) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
  })

/** A loopback HTTP server, started on first use. */
const loopback = (handle: (request: IncomingMessage, response: ServerResponse) => Promise<unknown>) => {
  let server: Server | null = null
  let started: Promise<string> | null = null
  return {
    start: () =>
      started ??= new Promise<string>((resolve) => {
        server = createServer((request, response) => {
          handle(request, response).catch((error: unknown) => json(response, 500, { error: String(error) }))
        })
        server.unref()
        server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server!.address() as AddressInfo).port}`))
      }),
    close: () => new Promise<void>((resolve) => server === null ? resolve() : server.close(() => resolve()))
  }
}

const md5 = (value: string) => createHash("md5").update(value).digest("hex")

/** Checks an `Authorization: Digest ...` header against the login (RFC 7616, MD5, qop=auth). */
const digestValid = (header: string | undefined, login: string, method: string, nonce: string): boolean => {
  if (header === undefined || !/^Digest /iu.test(header)) return false
  const fields = Object.fromEntries([...header.matchAll(/(\w+)=(?:"([^"]*)"|([^,\s]*))/gu)].map((match) => [match[1]!.toLowerCase(), match[2] ?? match[3] ?? ""]))
  const [user, password] = [login.slice(0, login.indexOf(":")), login.slice(login.indexOf(":") + 1)]
  if (fields.username !== user || fields.nonce !== nonce) return false
  const ha1 = md5(`${user}:${fields.realm}:${password}`)
  const ha2 = md5(`${method}:${fields.uri}`)
  return fields.response === md5(`${ha1}:${nonce}:${fields.nc}:${fields.cnonce}:${fields.qop}:${ha2}`)
}

const tokenRails = ["usdc_base", "usdc_ethereum", "usdt_ethereum", "usdt_tron"] as const

const base58Alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

/** A Solana address: base58 of a 32-byte public key. */
const isSolanaKey = (address: string): boolean => {
  if (!/^[1-9A-HJ-NP-Za-km-z]{32,44}$/u.test(address)) return false
  let value = 0n
  for (const char of address) value = value * 58n + BigInt(base58Alphabet.indexOf(char))
  const leadingZeros = address.length - address.replace(/^1+/u, "").length
  const bytes = value === 0n ? 0 : Math.ceil(value.toString(16).length / 2)
  return leadingZeros + bytes === 32
}

export const make = (): FakeChain => {
  const outputs: Array<Output> = []
  const requests: Array<{ path: string; rpc: string | null }> = []
  const wallets = new Map<string, string>()
  let open: string | null = null
  let tip = 100_000
  let sequence = 0
  let failing = false
  let calls = 0
  let login: string | null = null
  const nonce = randomBytes(12).toString("hex")

  const confirmationsOf = (output: Output) => output.height === null ? 0 : tip - output.height + 1
  const heightFor = (confirmations: number) => confirmations > 0 ? tip - confirmations + 1 : null
  const evmForm = (address: string) => address.startsWith("0x") ? address.toLowerCase() : address.startsWith("T") ? CryptoPorts.tronToHex(address) : null
  const isSolana = (output: Output) => output.monero === null && evmForm(output.address) === null && isSolanaKey(output.address)
  const isBitcoin = (output: Output) => output.monero === null && evmForm(output.address) === null && !isSolanaKey(output.address)

  const esplora = (response: ServerResponse, path: ReadonlyArray<string>) => {
    if (path[0] === "blocks" && path[1] === "tip" && path[2] === "height") {
      calls++
      return response.writeHead(200, { "content-type": "text/plain" }).end(String(tip))
    }
    const txOf = (txid: string) => {
      const parts = outputs.filter((output) => output.txid === txid && isBitcoin(output)).sort((a, b) => a.outputIndex - b.outputIndex)
      const height = parts[0]?.height ?? null
      return {
        txid,
        status: height === null ? { confirmed: false } : { confirmed: true, block_height: height, block_hash: `fake-block-${height}` },
        vout: parts.map((part) => ({ scriptpubkey_address: part.address, value: Number(part.units) }))
      }
    }
    if (path[0] === "tx" && path[2] === "status") return json(response, 200, txOf(path[1]!).status)
    if (path[0] === "address" && path[2] === "txs") {
      const mine = outputs.filter((output) => output.address === path[1] && isBitcoin(output))
      const txids = (list: ReadonlyArray<Output>) => [...new Set(list.map((output) => output.txid))]
      const confirmed = txids(mine.filter((output) => output.height !== null).sort((a, b) => b.height! - a.height! || b.sequence - a.sequence))
      const pending = txids(mine.filter((output) => output.height === null).sort((a, b) => b.sequence - a.sequence))
      if (path[3] === "chain") {
        const after = path[4] === undefined ? 0 : confirmed.indexOf(path[4]) + 1
        if (path[4] !== undefined && after === 0) return json(response, 400, "unknown last seen txid")
        return json(response, 200, confirmed.slice(after, after + CryptoPorts.esploraPageSize).map(txOf))
      }
      return json(response, 200, [...pending.slice(0, 50), ...confirmed.slice(0, CryptoPorts.esploraPageSize)].map(txOf))
    }
    return json(response, 404, "not found")
  }

  /** Monero wallet RPC: bare integers for amounts, as the wallet writes them (they can pass 2^53). */
  const monero = (response: ServerResponse, call: Json) => {
    const reply = (result: unknown) => json(response, 200, { jsonrpc: "2.0", id: call.id, result })
    const error = (code: number, message: string) => json(response, 200, { jsonrpc: "2.0", id: call.id, error: { code, message } })
    const params = (call.params ?? {}) as Json
    switch (call.method) {
      case "open_wallet":
        if (!wallets.has(String(params.filename))) return error(-1, "Failed to open wallet")
        open = wallets.get(String(params.filename))!
        return reply({})
      case "generate_from_keys":
        if (params.spendkey !== undefined && params.spendkey !== "") return error(-1, "This fake only makes view-only wallets")
        if (typeof params.address !== "string" || !/^[0-9a-f]{64}$/u.test(String(params.viewkey))) return error(-1, "Failed to parse keys")
        wallets.set(String(params.filename), params.address)
        open = params.address
        return reply({ address: params.address, info: "Wallet has been generated successfully." })
      case "refresh":
        return reply({ blocks_fetched: 0, received_money: false })
      case "get_transfers": {
        calls++
        if (open === null) return error(-13, "No wallet file")
        const indices = new Set((params.subaddr_indices as Array<number> | undefined) ?? [])
        const mine = outputs.filter((output) => output.monero !== null && output.monero.primary === open && (indices.size === 0 || indices.has(output.monero.minor)))
        const entry = (output: Output) =>
          `{"txid":${JSON.stringify(output.txid)},"amount":${output.units.toString()},"confirmations":${confirmationsOf(output)},` +
          `"height":${output.height ?? 0},"type":"${output.height === null ? "pool" : "in"}","subaddr_index":{"major":0,"minor":${output.monero!.minor}},` +
          `"address":${JSON.stringify(output.address)}}`
        const list = (items: ReadonlyArray<Output>) => `[${items.map(entry).join(",")}]`
        const inList = params.in === true ? mine.filter((output) => output.height !== null) : []
        const pool = params.pool === true ? mine.filter((output) => output.height === null) : []
        return json(response, 200, `{"jsonrpc":"2.0","id":${JSON.stringify(call.id)},"result":{"in":${list(inList)},"pool":${list(pool)}}}`)
      }
      default:
        return error(-32601, "Method not found")
    }
  }

  const evm = (response: ServerResponse, rail: string, call: Json) => {
    const reply = (result: unknown) => json(response, 200, { jsonrpc: "2.0", id: call.id, result })
    if (!(tokenRails as ReadonlyArray<string>).includes(rail)) return json(response, 404, "no such chain")
    if (call.method === "eth_blockNumber") {
      calls++
      return reply(`0x${tip.toString(16)}`)
    }
    if (call.method !== "eth_getLogs") return json(response, 200, { jsonrpc: "2.0", id: call.id, error: { code: -32601, message: "Method not found" } })
    const filter = (call.params as Array<Json>)[0]!
    const from = Number.parseInt(filter.fromBlock, 16)
    const to = Number.parseInt(filter.toBlock, 16)
    if (to - from + 1 > 10_000) return json(response, 200, { jsonrpc: "2.0", id: call.id, error: { code: -32005, message: "block range is too wide" } })
    const contract = evmForm(CryptoPorts.contracts[rail as CryptoPorts.TokenRail])
    const wanted = new Set(((filter.topics?.[2] ?? []) as Array<string>).map((topic) => topic.toLowerCase()))
    const logs = outputs.flatMap((output) => {
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

  /** Solana JSON-RPC: one USDC token account an owner, each payment a transaction raising its balance. */
  const solana = (response: ServerResponse, call: Json) => {
    const reply = (result: unknown) => json(response, 200, { jsonrpc: "2.0", id: call.id, result })
    const params = (call.params ?? []) as Array<any>
    const mint = CryptoPorts.solanaUsdcMint
    const tokenAccount = (owner: string) => `ata-${owner}`
    const mined = outputs.filter((output) => isSolana(output) && output.height !== null)
    switch (call.method) {
      case "getSlot":
        calls++
        return reply(tip)
      case "getTokenAccountsByOwner": {
        if (params[1]?.mint !== mint) return reply({ context: { slot: tip }, value: [] })
        const has = mined.some((output) => output.address === params[0])
        return reply({ context: { slot: tip }, value: has ? [{ pubkey: tokenAccount(String(params[0])), account: { owner: "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA" } }] : [] })
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

  const server = loopback(async (request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1")
    const body = request.method === "POST" ? await readBody(request) : ""
    const call = body === "" ? null : JSON.parse(body) as Json
    requests.push({ path: url.pathname, rpc: call === null ? null : String(call.method) })
    const path = url.pathname.split("/").filter((part) => part !== "").map(decodeURIComponent)
    if (path[0] === "monero" && login !== null && !digestValid(request.headers.authorization, login, request.method ?? "POST", nonce)) {
      response.writeHead(401, { "www-authenticate": `Digest qop="auth", algorithm=MD5, realm="monero-rpc", nonce="${nonce}", stale=false` }).end()
      return
    }
    if (failing) {
      failing = false
      return json(response, 503, { error: "The fake chain is down for this call." })
    }
    if (path[0] === "esplora") return esplora(response, path.slice(1))
    if (path[0] === "monero" && path[1] === "json_rpc" && call !== null) return monero(response, call)
    if (path[0] === "evm" && call !== null) return evm(response, path[1] ?? "", call)
    if (path[0] === "solana" && call !== null) return solana(response, call)
    return json(response, 404, "not found")
  })

  const layer = Layer.unwrap(Effect.promise(server.start).pipe(Effect.map((base) =>
    CryptoPorts.chainOf({
      esploraUrl: `${base}/esplora`,
      moneroWalletRpc: { url: `${base}/monero`, get login() { return login ?? undefined } },
      evm: Object.fromEntries(tokenRails.map((rail) => [rail, { url: `${base}/evm/${rail}` }])),
      solana: { url: `${base}/solana` }
    })!
  )))

  const byTx = (txid: string) => outputs.filter((output) => output.txid === txid)
  return {
    layer,
    start: server.start,
    close: server.close,
    pay: ({ address, units, confirmations, txid, monero: subaddress }) => {
      const id = txid ?? (address.startsWith("0x") || address.startsWith("T")
        ? `0x${createHash("sha256").update(`fake-${++sequence}`).digest("hex")}`
        : createHash("sha256").update(`fake-${++sequence}`).digest("hex"))
      outputs.push({
        txid: id, outputIndex: byTx(id).length, address, units: BigInt(units), height: heightFor(confirmations ?? 0), sequence: ++sequence,
        monero: subaddress ?? null
      })
      return id
    },
    confirm: (txid, confirmations) => {
      for (const output of byTx(txid)) output.height = heightFor(confirmations)
    },
    mine: (blocks = 1) => {
      for (const output of outputs) if (output.height === null) output.height = tip + 1
      tip += blocks
    },
    failNext: () => {
      failing = true
    },
    calls: () => calls,
    requests,
    requireLogin: (value) => {
      login = value
    }
  }
}

export interface FakePrices {
  readonly layer: Layer.Layer<CryptoPrices>
  readonly start: () => Promise<string>
  readonly close: () => Promise<void>
  /** The price of `asset` (US dollars per whole unit, a decimal string), from `from` on (default: always). */
  readonly set: (asset: CryptoAsset, price: string, from?: string) => void
  readonly failNext: () => void
}

/** A price service on loopback (`GET /price?asset&at` -> `{"price"}`), read through the server's real adapter. Starts with BTC 50000, XMR 150, USDC and USDT 1. */
export const makePrices = (): FakePrices => {
  const prices: Array<{ asset: CryptoAsset; price: string; from: number }> = [
    { asset: "BTC", price: "50000", from: 0 },
    { asset: "XMR", price: "150", from: 0 },
    { asset: "USDC", price: "1", from: 0 },
    { asset: "USDT", price: "1", from: 0 }
  ]
  let failing = false
  const server = loopback(async (request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1")
    if (failing) {
      failing = false
      return json(response, 503, { error: "The fake price source is down for this call." })
    }
    if (url.pathname !== "/price") return json(response, 404, { error: "not found" })
    const asset = url.searchParams.get("asset")
    const moment = Date.parse(url.searchParams.get("at") ?? "")
    const found = prices.filter((entry) => entry.asset === asset && entry.from <= moment).sort((a, b) => b.from - a.from || prices.indexOf(b) - prices.indexOf(a))[0]
    return found === undefined ? json(response, 404, { error: `No price of ${asset}.` }) : json(response, 200, { price: found.price, asset, at: url.searchParams.get("at") })
  })
  return {
    layer: Layer.unwrap(Effect.promise(server.start).pipe(Effect.map((base) => CryptoPorts.httpPrices(base)))),
    start: server.start,
    close: server.close,
    set: (asset, price, from) => {
      prices.push({ asset, price, from: from === undefined ? 0 : Date.parse(from) })
    },
    failNext: () => {
      failing = true
    }
  }
}

import { createHash, randomBytes } from "node:crypto"
import { Effect, Layer, Semaphore } from "effect"
import { ChainFailure, ChainWatcher, type ChainPayment, CryptoPrices, PriceFailure, type WatchRequest } from "@ledger/engine/ports"

/**
 * The crypto rails' real adapters and their wiring (docs/crypto.md, ADR 1506):
 *
 * - Bitcoin: an Esplora HTTP API (`LEDGER_ESPLORA_URL`, e.g. a self-hosted electrs/esplora), every
 *   page of an address's transactions up to a bound.
 * - Monero: a `monero-wallet-rpc` (`LEDGER_MONERO_WALLET_RPC_URL`, HTTP digest login
 *   `LEDGER_MONERO_WALLET_RPC_LOGIN=user:password` when it runs with `--rpc-login`): a view-only
 *   wallet made from the primary address and view key, its incoming transfers by subaddress index.
 * - Tokens: ERC-20 `Transfer` logs over EVM JSON-RPC (`eth_getLogs`, `eth_blockNumber`), for
 *   `usdc_ethereum`/`usdt_ethereum` (`LEDGER_ETHEREUM_RPC_URL`), `usdc_base` (`LEDGER_BASE_RPC_URL`)
 *   and `usdt_tron` (`LEDGER_TRON_RPC_URL`, TRON's Ethereum-compatible JSON-RPC, TRC-20 being
 *   ERC-20 logs); `usdc_solana` through Solana's JSON-RPC token balances (`LEDGER_SOLANA_RPC_URL`).
 * - Prices: `GET <LEDGER_CRYPTO_PRICES_URL>/price?asset=BTC&at=<ISO>` answering `{"price": "64250.12"}`.
 *
 * A rail left unset is not watched; no price source answers 503 `crypto_price_unavailable`.
 */

export type TokenRail = "usdc_base" | "usdc_ethereum" | "usdt_ethereum" | "usdt_tron"

export interface EvmOptions {
  readonly url: string
  /** The token contract (0x hex, or base58 on Tron); default the rail's well-known contract. */
  readonly contract?: string | undefined
  /** How many blocks back a watch looks (from the tip) when the wallet names no restore height. */
  readonly lookbackBlocks?: number | undefined
  /** The widest block range of one `eth_getLogs` call. */
  readonly blockRange?: number | undefined
}

export interface Options {
  readonly chain?: Layer.Layer<ChainWatcher> | undefined
  readonly prices?: Layer.Layer<CryptoPrices> | undefined
  readonly esploraUrl?: string | undefined
  readonly pricesUrl?: string | undefined
  readonly moneroWalletRpc?: { readonly url: string; readonly login?: string | undefined } | undefined
  readonly evm?: Partial<Record<TokenRail, EvmOptions>> | undefined
  readonly solana?: { readonly url: string; readonly mint?: string | undefined } | undefined
}

const timeoutMs = 10_000
/** Esplora answers 25 confirmed transactions a page; at most this many pages per address (1,000 transactions). */
export const esploraPageSize = 25
export const esploraPagesMax = 40
/** At most this many `eth_getLogs` calls per watch of one wallet. */
export const evmCallsMax = 50
/** Addresses a watch may ask about at once (the engine watches the quotes of 30 days). */
export const addressesMax = 2_000

/** Well-known token contracts per rail (Circle's USDC, Tether's USDT). */
export const contracts: Record<TokenRail, string> = {
  usdc_ethereum: "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48",
  usdc_base: "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913",
  usdt_ethereum: "0xdac17f958d2ee523a2206206994597c13d831ec7",
  usdt_tron: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"
}

/** keccak256("Transfer(address,address,uint256)"), the ERC-20 Transfer event's topic. */
export const transferTopic = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"

const request = (url: string, init?: RequestInit): Effect.Effect<Response, string> =>
  Effect.tryPromise({
    try: (signal) => fetch(url, { ...init, signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) }),
    catch: (error) => error instanceof Error ? error.message : String(error)
  })

const text = (response: Response): Effect.Effect<string, string> =>
  Effect.tryPromise({ try: () => response.text(), catch: (error) => error instanceof Error ? error.message : String(error) })

const getJson = (url: string): Effect.Effect<unknown, string> =>
  Effect.gen(function*() {
    const response = yield* request(url)
    if (!response.ok) return yield* Effect.fail(`${response.status} from ${new URL(url).host}`)
    const body = yield* text(response)
    return yield* Effect.try({ try: () => JSON.parse(body) as unknown, catch: () => `not JSON from ${new URL(url).host}` })
  })

// ---------------------------------------------------------------------------------------------
// Bitcoin: Esplora

interface EsploraTx {
  readonly txid: string
  readonly status: { readonly confirmed: boolean; readonly block_height?: number }
  readonly vout: ReadonlyArray<{ readonly scriptpubkey_address?: string; readonly value: number }>
}

const outputsOf = (txs: ReadonlyArray<EsploraTx>, address: string, tip: number): Array<ChainPayment> =>
  txs.flatMap((tx) => {
    const confirmations = tx.status.confirmed && tx.status.block_height !== undefined ? Math.max(0, tip - tx.status.block_height + 1) : 0
    // Esplora gives satoshis as JSON integers (exact below 2^53, more than all bitcoin).
    return tx.vout.flatMap((output, outputIndex) =>
      output.scriptpubkey_address === address ? [{ txid: tx.txid, outputIndex, address, units: BigInt(output.value).toString(), confirmations }] : [])
  })

/**
 * Bitcoin through Esplora: `/blocks/tip/height`, then per address `/address/{a}/txs` (its mempool
 * transactions and first 25 confirmed) and `/address/{a}/txs/chain/{last seen txid}` for the next
 * 25, until a short page or `esploraPagesMax` pages.
 */
export const esplora = (baseUrl: string): Layer.Layer<ChainWatcher> => {
  const base = baseUrl.replace(/\/+$/u, "")
  const failure = (message: string) => new ChainFailure({ code: "unavailable", message: `Esplora: ${message}` })
  const txsOf = (path: string) =>
    getJson(`${base}${path}`).pipe(Effect.flatMap((body) => Array.isArray(body) ? Effect.succeed(body as ReadonlyArray<EsploraTx>) : Effect.fail("not a list of transactions")))
  return Layer.succeed(ChainWatcher)(ChainWatcher.of({
    rails: ["btc"],
    payments: (watch) =>
      Effect.gen(function*() {
        if (watch.rail !== "btc") return yield* Effect.fail(new ChainFailure({ code: "not_configured", message: `No adapter for ${watch.rail}.` }))
        const tipText = yield* request(`${base}/blocks/tip/height`).pipe(Effect.flatMap(text))
        const tip = Number(tipText.trim())
        if (!Number.isSafeInteger(tip) || tip < 0) return yield* Effect.fail("no tip height")
        const found: Array<ChainPayment> = []
        for (const address of watch.addresses.slice(0, addressesMax)) {
          const path = `/address/${encodeURIComponent(address)}/txs`
          const first = yield* txsOf(path)
          found.push(...outputsOf(first, address, tip))
          let page: ReadonlyArray<EsploraTx> = first.filter((tx) => tx.status.confirmed)
          for (let pages = 1; page.length >= esploraPageSize && pages < esploraPagesMax; pages++) {
            page = yield* txsOf(`${path}/chain/${encodeURIComponent(page.at(-1)!.txid)}`)
            found.push(...outputsOf(page, address, tip))
          }
        }
        return found
      }).pipe(Effect.mapError((error) => typeof error === "string" ? failure(error) : error))
  }))
}

// ---------------------------------------------------------------------------------------------
// JSON-RPC 2.0, with HTTP digest authentication (RFC 7616, MD5 and qop=auth, as monero-wallet-rpc asks)

const md5 = (value: string) => createHash("md5").update(value).digest("hex")

/** The Authorization header answering a `WWW-Authenticate: Digest ...` challenge. */
export const digestAuthorization = (challenge: string, login: string, method: string, uri: string, cnonce = randomBytes(8).toString("hex")): string => {
  const fields = Object.fromEntries([...challenge.matchAll(/(\w+)=(?:"([^"]*)"|([^,\s]*))/gu)].map((match) => [match[1]!.toLowerCase(), match[2] ?? match[3] ?? ""]))
  const colon = login.indexOf(":")
  const user = login.slice(0, colon)
  const password = login.slice(colon + 1)
  const realm = fields.realm ?? ""
  const nonce = fields.nonce ?? ""
  const qop = (fields.qop ?? "").split(",").map((item) => item.trim()).includes("auth") ? "auth" : null
  const nc = "00000001"
  const ha1 = md5(`${user}:${realm}:${password}`)
  const ha2 = md5(`${method}:${uri}`)
  const response = qop === null ? md5(`${ha1}:${nonce}:${ha2}`) : md5(`${ha1}:${nonce}:${nc}:${cnonce}:${qop}:${ha2}`)
  return [
    `Digest username="${user}"`, `realm="${realm}"`, `nonce="${nonce}"`, `uri="${uri}"`, `response="${response}"`, `algorithm=MD5`,
    ...(qop === null ? [] : [`qop=${qop}`, `nc=${nc}`, `cnonce="${cnonce}"`]),
    ...(fields.opaque === undefined ? [] : [`opaque="${fields.opaque}"`])
  ].join(", ")
}

class RpcError {
  constructor(readonly code: number, readonly message: string) {}
}

/**
 * One JSON-RPC 2.0 call. Integers that may pass 2^53 (piconero and token amounts) are read as
 * strings: `bigFields` names the JSON keys whose integer values are kept exact.
 */
const rpc = (url: string, method: string, params: unknown, options: { readonly login?: string | undefined; readonly bigFields?: ReadonlyArray<string> } = {}) =>
  Effect.gen(function*() {
    const body = JSON.stringify({ jsonrpc: "2.0", id: "0", method, params })
    const post = (authorization?: string) =>
      request(url, { method: "POST", headers: { "content-type": "application/json", ...(authorization === undefined ? {} : { authorization }) }, body })
    let response = yield* post()
    const challenge = response.headers.get("www-authenticate")
    if (response.status === 401 && options.login !== undefined && challenge !== null && /^Digest /iu.test(challenge)) {
      yield* text(response)
      const target = new URL(url)
      response = yield* post(digestAuthorization(challenge, options.login, "POST", `${target.pathname}${target.search}`))
    }
    if (!response.ok) return yield* Effect.fail(`${response.status} from ${new URL(url).host}`)
    let raw = yield* text(response)
    for (const field of options.bigFields ?? []) raw = raw.replace(new RegExp(`"${field}"\\s*:\\s*(\\d+)`, "gu"), `"${field}":"$1"`)
    const parsed = yield* Effect.try({ try: () => JSON.parse(raw) as { result?: unknown; error?: { code?: number; message?: string } }, catch: () => "not JSON" })
    if (parsed.error !== undefined && parsed.error !== null) return yield* Effect.fail(new RpcError(Number(parsed.error.code ?? 0), String(parsed.error.message ?? "error")))
    return parsed.result
  })

// ---------------------------------------------------------------------------------------------
// Monero: monero-wallet-rpc, view-only

interface MoneroTransfer {
  readonly txid: string
  readonly amount: string
  readonly confirmations?: number
  readonly subaddr_index?: { readonly major: number; readonly minor: number }
  readonly subaddr_indices?: ReadonlyArray<{ readonly major: number; readonly minor: number }>
}

/**
 * Monero through a `monero-wallet-rpc` started with `--wallet-dir`: per watched wallet it opens
 * (or first makes, with `generate_from_keys` and no spend key) a view-only wallet named after the
 * primary address, refreshes it and reads `get_transfers` (incoming and in the pool) for the
 * quotes' subaddress indices. One wallet is open at a time, so calls are serialized.
 */
export const moneroWalletRpc = (options: { readonly url: string; readonly login?: string | undefined }): Layer.Layer<ChainWatcher> => {
  const url = `${options.url.replace(/\/+$/u, "")}/json_rpc`
  const call = (method: string, params: unknown) => rpc(url, method, params, { login: options.login, bigFields: ["amount"] })
  const lock = Semaphore.makeUnsafe(1)
  const failure = (error: string | RpcError) =>
    new ChainFailure({ code: "unavailable", message: `Monero wallet RPC: ${typeof error === "string" ? error : `${error.code} ${error.message}`}` })
  const scan = (watch: WatchRequest) =>
    Effect.gen(function*() {
      if (watch.primaryAddress === undefined || watch.primaryAddress === null || watch.viewKey === undefined || watch.viewKey === null) {
        return yield* Effect.fail("a Monero watch needs the primary address and the view key")
      }
      const filename = `ledger-${createHash("sha256").update(watch.primaryAddress).digest("hex").slice(0, 24)}`
      const opened = yield* call("open_wallet", { filename, password: "" }).pipe(Effect.as(true), Effect.catch((error) => error instanceof RpcError ? Effect.succeed(false) : Effect.fail(error)))
      if (!opened) {
        yield* call("generate_from_keys", {
          filename, address: watch.primaryAddress, viewkey: watch.viewKey, password: "", autosave_current: true,
          ...(watch.restoreHeight === undefined || watch.restoreHeight === null ? {} : { restore_height: watch.restoreHeight })
        })
      }
      yield* call("refresh", {})
      const byIndex = new Map(Object.entries(watch.subaddressIndex ?? {}).filter(([address]) => watch.addresses.includes(address)).map(([address, minor]) => [minor, address]))
      if (byIndex.size === 0) return []
      const result = (yield* call("get_transfers", { in: true, pool: true, account_index: 0, subaddr_indices: [...byIndex.keys()] })) as
        { in?: ReadonlyArray<MoneroTransfer>; pool?: ReadonlyArray<MoneroTransfer> } | null
      const found: Array<ChainPayment> = []
      for (const [list, pooled] of [[result?.in ?? [], false], [result?.pool ?? [], true]] as const) {
        for (const transfer of list) {
          const index = transfer.subaddr_index ?? transfer.subaddr_indices?.[0]
          const address = index !== undefined && index.major === 0 ? byIndex.get(index.minor) : undefined
          if (address === undefined || !/^\d{1,30}$/u.test(String(transfer.amount))) continue
          // The minor index tells apart two subaddresses one transaction pays.
          found.push({ txid: transfer.txid, outputIndex: index!.minor, address, units: String(transfer.amount), confirmations: pooled ? 0 : Number(transfer.confirmations ?? 0) })
        }
      }
      return found
    })
  return Layer.succeed(ChainWatcher)(ChainWatcher.of({
    rails: ["xmr"],
    payments: (watch) =>
      watch.rail !== "xmr"
        ? Effect.fail(new ChainFailure({ code: "not_configured", message: `No adapter for ${watch.rail}.` }))
        : lock.withPermits(1)(scan(watch)).pipe(Effect.mapError(failure))
  }))
}

// ---------------------------------------------------------------------------------------------
// Tokens: ERC-20 Transfer logs over EVM JSON-RPC (TRON's too)

const base58Alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

/** A TRON base58check address as its 20-byte EVM form (0x hex), or null. */
export const tronToHex = (address: string): string | null => {
  let value = 0n
  for (const char of address) {
    const digit = base58Alphabet.indexOf(char)
    if (digit < 0) return null
    value = value * 58n + BigInt(digit)
  }
  const hex = value.toString(16).padStart(50, "0")
  if (hex.length !== 50 || !hex.startsWith("41")) return null
  const body = Buffer.from(hex.slice(0, 42), "hex")
  const check = createHash("sha256").update(createHash("sha256").update(body).digest()).digest().subarray(0, 4).toString("hex")
  return check === hex.slice(42) ? `0x${hex.slice(2, 42)}` : null
}

const evmForm = (rail: TokenRail, address: string): string | null =>
  rail === "usdt_tron" ? tronToHex(address) : /^0x[0-9a-fA-F]{40}$/u.test(address) ? address.toLowerCase() : null

interface Log {
  readonly transactionHash: string
  readonly logIndex: string
  readonly blockNumber: string
  readonly data: string
  readonly topics: ReadonlyArray<string>
  readonly removed?: boolean
}

/** Blocks a day, roughly (Ethereum 12 s, Base 2 s, TRON 3 s): the default look-back is two days. */
const blocksPerDay: Record<TokenRail, number> = { usdc_ethereum: 7_200, usdt_ethereum: 7_200, usdc_base: 43_200, usdt_tron: 28_800 }

/**
 * A token rail through its chain's JSON-RPC: `eth_blockNumber`, then `eth_getLogs` for the token
 * contract's `Transfer` events whose recipient (topic 2) is a watched address, from the wallet's
 * restore height (else `lookbackBlocks`, two days, back) to the tip, `blockRange` blocks a call, at most `evmCallsMax`
 * calls. A log removed by a reorganisation is not a payment.
 */
export const evmTokens = (rail: TokenRail, options: EvmOptions): Layer.Layer<ChainWatcher> => {
  const contract = evmForm(rail, options.contract ?? contracts[rail])
  const lookback = options.lookbackBlocks ?? 2 * blocksPerDay[rail]
  const range = Math.max(1, options.blockRange ?? 10_000)
  const call = (method: string, params: unknown) => rpc(options.url, method, params)
  const failure = (error: string | RpcError) =>
    new ChainFailure({ code: "unavailable", message: `${rail} JSON-RPC: ${typeof error === "string" ? error : `${error.code} ${error.message}`}` })
  const hexOf = (value: number) => `0x${value.toString(16)}`
  return Layer.succeed(ChainWatcher)(ChainWatcher.of({
    rails: [rail],
    payments: (watch) =>
      Effect.gen(function*() {
        if (watch.rail !== rail) return yield* Effect.fail(new ChainFailure({ code: "not_configured", message: `No adapter for ${watch.rail}.` }))
        if (contract === null) return yield* Effect.fail(new ChainFailure({ code: "error", message: `${rail}: the token contract is not an address.` }))
        const byTopic = new Map<string, string>()
        for (const address of watch.addresses.slice(0, addressesMax)) {
          const form = evmForm(rail, address)
          if (form !== null) byTopic.set(`0x${"0".repeat(24)}${form.slice(2)}`, address)
        }
        if (byTopic.size === 0) return []
        const tip = Number.parseInt(String(yield* call("eth_blockNumber", []).pipe(Effect.mapError(failure))), 16)
        if (!Number.isSafeInteger(tip)) return yield* Effect.fail(failure("no block number"))
        let from = Math.max(0, watch.restoreHeight ?? tip - lookback + 1)
        // Bounded: the latest blocks matter most, so a window too wide for the calls allowed starts later.
        from = Math.max(from, tip - range * evmCallsMax + 1)
        const found: Array<ChainPayment> = []
        for (let start = from; start <= tip; start += range) {
          const logs = (yield* call("eth_getLogs", [{
            fromBlock: hexOf(start), toBlock: hexOf(Math.min(tip, start + range - 1)), address: contract,
            topics: [transferTopic, null, [...byTopic.keys()]]
          }]).pipe(Effect.mapError(failure))) as ReadonlyArray<Log> | null
          for (const log of logs ?? []) {
            const address = byTopic.get(String(log.topics[2] ?? "").toLowerCase())
            if (address === undefined || log.removed === true || String(log.topics[0]).toLowerCase() !== transferTopic) continue
            const block = Number.parseInt(log.blockNumber, 16)
            found.push({
              txid: log.transactionHash, outputIndex: Number.parseInt(log.logIndex, 16), address,
              units: BigInt(log.data === "0x" ? "0x0" : log.data).toString(), confirmations: Number.isSafeInteger(block) ? Math.max(0, tip - block + 1) : 0
            })
          }
        }
        return found
      })
  }))
}

// ---------------------------------------------------------------------------------------------
// USDC on Solana: token balances over Solana's JSON-RPC

/** Circle's USDC mint on Solana. */
export const solanaUsdcMint = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"
/** At most this many token accounts an owner, and transactions a token account, per watch. */
export const solanaAccountsMax = 10
export const solanaSignaturesMax = 100

interface TokenBalance {
  readonly accountIndex: number
  readonly mint: string
  readonly owner?: string
  readonly uiTokenAmount: { readonly amount: string }
}

/**
 * USDC on Solana: SPL tokens arrive at the owner's token accounts, not at the owner's address, and
 * leave no EVM-style logs. Per watched owner: `getTokenAccountsByOwner` (the USDC mint), then per
 * token account `getSignaturesForAddress` (the latest `solanaSignaturesMax`) and `getTransaction`
 * (jsonParsed): what the owner's USDC balance gained in the transaction is the payment.
 * Confirmations are slots since the transaction's (`getSlot`), failed transactions skipped.
 */
export const solanaUsdc = (options: { readonly url: string; readonly mint?: string | undefined }): Layer.Layer<ChainWatcher> => {
  const mint = options.mint ?? solanaUsdcMint
  const call = (method: string, params: unknown) => rpc(options.url, method, params)
  const failure = (error: string | RpcError) =>
    new ChainFailure({ code: "unavailable", message: `usdc_solana JSON-RPC: ${typeof error === "string" ? error : `${error.code} ${error.message}`}` })
  const sum = (balances: ReadonlyArray<TokenBalance>, owner: string) =>
    balances.filter((balance) => balance.mint === mint && balance.owner === owner).reduce((total, balance) => total + BigInt(balance.uiTokenAmount.amount), 0n)
  return Layer.succeed(ChainWatcher)(ChainWatcher.of({
    rails: ["usdc_solana"],
    payments: (watch) =>
      Effect.gen(function*() {
        if (watch.rail !== "usdc_solana") return yield* Effect.fail(new ChainFailure({ code: "not_configured", message: `No adapter for ${watch.rail}.` }))
        const tip = Number(yield* call("getSlot", [{ commitment: "confirmed" }]))
        if (!Number.isSafeInteger(tip)) return yield* Effect.fail("no slot")
        const found: Array<ChainPayment> = []
        const seen = new Set<string>()
        for (const owner of watch.addresses.slice(0, addressesMax)) {
          const accounts = (yield* call("getTokenAccountsByOwner", [owner, { mint }, { encoding: "jsonParsed", commitment: "confirmed" }])) as
            { value?: ReadonlyArray<{ pubkey: string }> } | null
          for (const account of (accounts?.value ?? []).slice(0, solanaAccountsMax)) {
            const signatures = (yield* call("getSignaturesForAddress", [account.pubkey, { limit: solanaSignaturesMax, commitment: "confirmed" }])) as
              ReadonlyArray<{ signature: string; slot: number; err: unknown }> | null
            for (const entry of signatures ?? []) {
              if (entry.err !== null && entry.err !== undefined) continue
              if (seen.has(`${owner}:${entry.signature}`)) continue
              seen.add(`${owner}:${entry.signature}`)
              const tx = (yield* call("getTransaction", [entry.signature, { encoding: "jsonParsed", maxSupportedTransactionVersion: 0, commitment: "confirmed" }])) as
                { slot?: number; meta?: { err?: unknown; preTokenBalances?: ReadonlyArray<TokenBalance>; postTokenBalances?: ReadonlyArray<TokenBalance> } | null } | null
              const meta = tx?.meta
              if (meta === undefined || meta === null || (meta.err !== null && meta.err !== undefined)) continue
              const gained = sum(meta.postTokenBalances ?? [], owner) - sum(meta.preTokenBalances ?? [], owner)
              if (gained <= 0n) continue
              const index = (meta.postTokenBalances ?? []).find((balance) => balance.mint === mint && balance.owner === owner)?.accountIndex ?? 0
              const slot = tx?.slot ?? entry.slot
              found.push({ txid: entry.signature, outputIndex: index, address: owner, units: gained.toString(), confirmations: Math.max(0, tip - slot + 1) })
            }
          }
        }
        return found
      }).pipe(Effect.mapError((error) => error instanceof ChainFailure ? error : failure(error)))
  }))
}

// ---------------------------------------------------------------------------------------------
// Prices, and the wiring

/** Prices from an HTTP price service. */
export const httpPrices = (baseUrl: string): Layer.Layer<CryptoPrices> => {
  const base = baseUrl.replace(/\/+$/u, "")
  return Layer.succeed(CryptoPrices)(CryptoPrices.of({
    configured: true,
    price: (asset, at) =>
      getJson(`${base}/price?asset=${asset}&at=${encodeURIComponent(at)}`).pipe(
        Effect.mapError((message) => new PriceFailure({ code: "unavailable", message: `Price service: ${message}` })),
        Effect.flatMap((body) => {
          const price = (body as { price?: unknown } | null)?.price
          return typeof price === "string" && /^\d{1,15}(\.\d{1,12})?$/u.test(price)
            ? Effect.succeed(price)
            : Effect.fail(new PriceFailure({ code: "unavailable", message: "Price service: no decimal string price in the answer." }))
        })
      )
  }))
}

/** Several rail adapters as one watcher: each request goes to the adapter of its rail. */
export const combine = (watchers: ReadonlyArray<ChainWatcher["Service"]>): ChainWatcher["Service"] =>
  ChainWatcher.of({
    rails: watchers.flatMap((watcher) => watcher.rails),
    payments: (watch) => {
      const watcher = watchers.find((candidate) => candidate.rails.includes(watch.rail))
      return watcher === undefined
        ? Effect.fail(new ChainFailure({ code: "not_configured", message: `No adapter for ${watch.rail}.` }))
        : watcher.payments(watch)
    }
  })

const serviceOf = (layer: Layer.Layer<ChainWatcher>) => Effect.provide(Effect.gen(function*() { return yield* ChainWatcher }), layer)

/** The chain watcher of the configured rails, or undefined when none is. */
export const chainOf = (options: Options): Layer.Layer<ChainWatcher> | undefined => {
  const env = process.env
  const esploraUrl = options.esploraUrl ?? env.LEDGER_ESPLORA_URL
  const monero = options.moneroWalletRpc ?? (env.LEDGER_MONERO_WALLET_RPC_URL ? { url: env.LEDGER_MONERO_WALLET_RPC_URL, login: env.LEDGER_MONERO_WALLET_RPC_LOGIN } : undefined)
  const urls: Record<TokenRail, string | undefined> = {
    usdc_ethereum: env.LEDGER_ETHEREUM_RPC_URL, usdt_ethereum: env.LEDGER_ETHEREUM_RPC_URL, usdc_base: env.LEDGER_BASE_RPC_URL, usdt_tron: env.LEDGER_TRON_RPC_URL
  }
  const layers: Array<Layer.Layer<ChainWatcher>> = [
    ...(esploraUrl ? [esplora(esploraUrl)] : []),
    ...(monero === undefined ? [] : [moneroWalletRpc(monero)]),
    ...(Object.keys(contracts) as Array<TokenRail>).flatMap((rail) => {
      const given = options.evm?.[rail] ?? (urls[rail] ? { url: urls[rail]! } : undefined)
      return given === undefined ? [] : [evmTokens(rail, given)]
    }),
    ...(options.solana !== undefined ? [solanaUsdc(options.solana)] : env.LEDGER_SOLANA_RPC_URL ? [solanaUsdc({ url: env.LEDGER_SOLANA_RPC_URL })] : [])
  ]
  if (layers.length === 0) return undefined
  return Layer.effect(ChainWatcher)(Effect.map(Effect.all(layers.map(serviceOf)), combine))
}

export const wire = (options: Options = {}): { readonly layer: Layer.Layer<ChainWatcher | CryptoPrices>; readonly unconfigured: ReadonlyArray<string> } => {
  const unconfigured: Array<string> = []
  const pricesUrl = options.pricesUrl ?? process.env.LEDGER_CRYPTO_PRICES_URL
  const chain = options.chain ?? chainOf(options)
  const prices = options.prices ?? (pricesUrl ? httpPrices(pricesUrl) : undefined)
  if (chain === undefined) unconfigured.push("crypto chain watcher (LEDGER_ESPLORA_URL, LEDGER_MONERO_WALLET_RPC_URL, LEDGER_ETHEREUM_RPC_URL, LEDGER_BASE_RPC_URL, LEDGER_TRON_RPC_URL, LEDGER_SOLANA_RPC_URL)")
  if (prices === undefined) unconfigured.push("crypto prices (LEDGER_CRYPTO_PRICES_URL)")
  return {
    layer: Layer.mergeAll(chain ?? ChainWatcher.layerUnconfigured, prices ?? CryptoPrices.layerUnconfigured),
    unconfigured
  }
}


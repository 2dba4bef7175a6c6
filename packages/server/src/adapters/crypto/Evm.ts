import { createHash } from "node:crypto"
import { Effect, Layer } from "effect"
import { ChainFailure, ChainWatcher, type ChainPayment } from "@ledger/engine/ports"
import { addressesMax } from "./Http.ts"
import { rpc, type RpcError } from "./JsonRpc.ts"

// Tokens: ERC-20 Transfer logs over EVM JSON-RPC (TRON's too)

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

/** At most this many `eth_getLogs` calls per watch of one wallet. */
export const evmCallsMax = 50

/** Well-known token contracts per rail (Circle's USDC, Tether's USDT). */
export const contracts: Record<TokenRail, string> = {
  usdc_ethereum: "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48",
  usdc_base: "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913",
  usdt_ethereum: "0xdac17f958d2ee523a2206206994597c13d831ec7",
  usdt_tron: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"
}

/** keccak256("Transfer(address,address,uint256)"), the ERC-20 Transfer event's topic. */
export const transferTopic = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"

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

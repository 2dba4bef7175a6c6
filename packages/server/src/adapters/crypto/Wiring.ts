import { Effect, Layer } from "effect"
import { ChainFailure, ChainWatcher, CryptoPrices } from "@ledger/engine/ports"
import { esplora } from "./Esplora.ts"
import { contracts, type EvmOptions, evmTokens, type TokenRail } from "./Evm.ts"
import { moneroWalletRpc } from "./MoneroWalletRpc.ts"
import { httpPrices } from "./Prices.ts"
import { solanaUsdc } from "./Solana.ts"

// The wiring: the configured rails' adapters as one watcher, and the price source.

export interface Options {
  readonly chain?: Layer.Layer<ChainWatcher> | undefined
  readonly prices?: Layer.Layer<CryptoPrices> | undefined
  readonly esploraUrl?: string | undefined
  readonly pricesUrl?: string | undefined
  readonly moneroWalletRpc?: { readonly url: string; readonly login?: string | undefined } | undefined
  readonly evm?: Partial<Record<TokenRail, EvmOptions>> | undefined
  readonly solana?: { readonly url: string; readonly mint?: string | undefined } | undefined
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

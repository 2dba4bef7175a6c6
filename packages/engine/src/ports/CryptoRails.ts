import { Context, Data, Effect, Layer } from "effect"

/**
 * The crypto rails, as two ports. `ChainWatcher` reports the payments that reached a wallet's
 * addresses (Bitcoin through an Esplora HTTP API, Monero through a view-only wallet RPC, the token
 * rails through their chains' JSON-RPC) with their confirmations; `CryptoPrices` gives the US-dollar
 * price of an asset at a moment. Amounts are integer strings in the asset's smallest unit and prices
 * decimal strings: never floats. A deployment without them provides `layerUnconfigured`, and the
 * crypto operations that need them answer 503 (`crypto_chain_not_configured`,
 * `crypto_price_unavailable`). Tests use the testkit's `FakeChain` and `FakePrices`; real adapters
 * live in @ledger/server (adapters/crypto/: Esplora, Monero wallet RPC, EVM JSON-RPC, Solana, prices).
 */

export type CryptoRail = "btc" | "xmr" | "usdc_base" | "usdc_ethereum" | "usdc_solana" | "usdt_ethereum" | "usdt_tron"
export type CryptoAsset = "BTC" | "XMR" | "USDC" | "USDT"

/** One output paying one of the watched addresses. */
export interface ChainPayment {
  readonly txid: string
  readonly outputIndex: number
  readonly address: string
  /** The amount in the asset's smallest unit, as an integer string. */
  readonly units: string
  /** 0 while in the mempool. */
  readonly confirmations: number
}

export class ChainFailure extends Data.TaggedError("ChainFailure")<{
  readonly code: "not_configured" | "unavailable" | "error"
  readonly message: string
}> {}

export interface WatchRequest {
  readonly rail: CryptoRail
  readonly addresses: ReadonlyArray<string>
  /** Monero: the private view key the wallet RPC scans with (opened from its seal just for the call). */
  readonly viewKey?: string | null | undefined
  /** Monero: the wallet's primary address (the wallet RPC makes its view-only wallet from it and the view key). */
  readonly primaryAddress?: string | null | undefined
  /** Monero: each watched subaddress's minor index (major 0), as the wallet RPC filters by index, not address. */
  readonly subaddressIndex?: Readonly<Record<string, number>> | undefined
  /** The height to scan from (Monero restore height; the first block of a token wallet's logs). */
  readonly restoreHeight?: number | null | undefined
}

export class ChainWatcher extends Context.Service<ChainWatcher, {
  /** The rails this deployment can watch; empty for `layerUnconfigured`. */
  readonly rails: ReadonlyArray<CryptoRail>
  readonly payments: (request: WatchRequest) => Effect.Effect<ReadonlyArray<ChainPayment>, ChainFailure>
}>()("@ledger/engine/ChainWatcher") {
  static readonly layerUnconfigured: Layer.Layer<ChainWatcher> = Layer.succeed(ChainWatcher)(ChainWatcher.of({
    rails: [],
    payments: () => Effect.fail(new ChainFailure({ code: "not_configured", message: "No chain watcher is configured on this deployment." }))
  }))
}

export class PriceFailure extends Data.TaggedError("PriceFailure")<{
  readonly code: "not_configured" | "unavailable" | "unknown_asset"
  readonly message: string
}> {}

export class CryptoPrices extends Context.Service<CryptoPrices, {
  readonly configured: boolean
  /** US dollars per whole unit at `at` (ISO timestamp), as a decimal string. */
  readonly price: (asset: CryptoAsset, at: string) => Effect.Effect<string, PriceFailure>
}>()("@ledger/engine/CryptoPrices") {
  static readonly layerUnconfigured: Layer.Layer<CryptoPrices> = Layer.succeed(CryptoPrices)(CryptoPrices.of({
    configured: false,
    price: () => Effect.fail(new PriceFailure({ code: "not_configured", message: "No crypto price source is configured on this deployment." }))
  }))
}

import { Effect, Layer } from "effect"
import {
  type ChainPayment,
  ChainFailure,
  ChainWatcher,
  type CryptoAsset,
  CryptoPrices,
  type CryptoRail,
  PriceFailure
} from "@ledger/engine/ports"

/**
 * The crypto rails' fakes, in memory, scripted by a test: a chain where a test pays an address
 * (`pay`), lets blocks confirm it (`confirm`, `mine`) and makes the next call fail (`failNext`); and
 * a price source a test sets per asset, optionally from a moment on (`set`). Every rail is watched
 * by the same fake, as the Esplora, wallet-RPC and token adapters would answer it.
 */

export interface FakeChain {
  readonly layer: Layer.Layer<ChainWatcher>
  readonly service: ChainWatcher["Service"]
  /** Pays `units` (smallest unit, integer string or bigint) to `address`; returns the txid. */
  readonly pay: (input: { readonly address: string; readonly units: string | bigint; readonly confirmations?: number; readonly txid?: string }) => string
  /** Sets the confirmations of every output of a transaction. */
  readonly confirm: (txid: string, confirmations: number) => void
  /** A new block: every transaction gains a confirmation (mempool ones get their first). */
  readonly mine: (blocks?: number) => void
  readonly failNext: () => void
  readonly calls: () => number
}

export const make = (): FakeChain => {
  const outputs: Array<{ payment: ChainPayment }> = []
  let sequence = 0
  let failing = false
  let calls = 0
  const service = ChainWatcher.of({
    rails: ["btc", "xmr", "usdc_base", "usdc_ethereum", "usdc_solana", "usdt_ethereum", "usdt_tron"] satisfies ReadonlyArray<CryptoRail>,
    payments: (request) =>
      Effect.suspend(() => {
        calls++
        if (failing) {
          failing = false
          return Effect.fail(new ChainFailure({ code: "unavailable", message: "The fake chain is down for this call." }))
        }
        const wanted = new Set(request.addresses)
        return Effect.succeed(outputs.filter((output) => wanted.has(output.payment.address)).map((output) => ({ ...output.payment })))
      })
  })
  const byTx = (txid: string) => outputs.filter((output) => output.payment.txid === txid)
  return {
    layer: Layer.succeed(ChainWatcher)(service),
    service,
    pay: ({ address, units, confirmations, txid }) => {
      const id = txid ?? `fake-tx-${(++sequence).toString(16).padStart(8, "0")}`
      const outputIndex = byTx(id).length
      outputs.push({ payment: { txid: id, outputIndex, address, units: String(units), confirmations: confirmations ?? 0 } })
      return id
    },
    confirm: (txid, confirmations) => {
      for (const output of byTx(txid)) output.payment = { ...output.payment, confirmations }
    },
    mine: (blocks = 1) => {
      for (const output of outputs) output.payment = { ...output.payment, confirmations: output.payment.confirmations + blocks }
    },
    failNext: () => {
      failing = true
    },
    calls: () => calls
  }
}

export interface FakePrices {
  readonly layer: Layer.Layer<CryptoPrices>
  readonly service: CryptoPrices["Service"]
  /** The price of `asset` (US dollars per whole unit, a decimal string), from `from` on (default: always). */
  readonly set: (asset: CryptoAsset, price: string, from?: string) => void
  readonly failNext: () => void
}

/** Starts with BTC 50000, XMR 150, USDC and USDT 1. */
export const makePrices = (): FakePrices => {
  const prices: Array<{ asset: CryptoAsset; price: string; from: number }> = [
    { asset: "BTC", price: "50000", from: 0 },
    { asset: "XMR", price: "150", from: 0 },
    { asset: "USDC", price: "1", from: 0 },
    { asset: "USDT", price: "1", from: 0 }
  ]
  let failing = false
  const service = CryptoPrices.of({
    configured: true,
    price: (asset, at) =>
      Effect.suspend(() => {
        if (failing) {
          failing = false
          return Effect.fail(new PriceFailure({ code: "unavailable", message: "The fake price source is down for this call." }))
        }
        const moment = Date.parse(at)
        const found = prices.filter((entry) => entry.asset === asset && entry.from <= moment).sort((a, b) => b.from - a.from || prices.indexOf(b) - prices.indexOf(a))[0]
        return found === undefined
          ? Effect.fail(new PriceFailure({ code: "unknown_asset", message: `No price of ${asset}.` }))
          : Effect.succeed(found.price)
      })
  })
  return {
    layer: Layer.succeed(CryptoPrices)(service),
    service,
    set: (asset, price, from) => {
      prices.push({ asset, price, from: from === undefined ? 0 : Date.parse(from) })
    },
    failNext: () => {
      failing = true
    }
  }
}

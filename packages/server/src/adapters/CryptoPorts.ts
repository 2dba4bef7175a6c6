import { Effect, Layer } from "effect"
import { ChainFailure, ChainWatcher, type ChainPayment, CryptoPrices, PriceFailure } from "@ledger/engine/ports"

/**
 * The crypto rails' real adapters and their wiring. Bitcoin payments come from an Esplora HTTP API
 * (`LEDGER_ESPLORA_URL`, e.g. a self-hosted electrs/esplora); prices from a price service answering
 * `GET <LEDGER_CRYPTO_PRICES_URL>/price?asset=BTC&at=<ISO>` with `{"price": "64250.12"}`. A rail or
 * price source left unset gets the port's unconfigured layer: quotes then answer 503
 * `crypto_price_unavailable`, and nothing is watched. Monero (view-only wallet RPC) and the token
 * rails (JSON-RPC) have no adapter yet: a deployment or test passes one as `chain`.
 */
export interface Options {
  readonly chain?: Layer.Layer<ChainWatcher> | undefined
  readonly prices?: Layer.Layer<CryptoPrices> | undefined
  readonly esploraUrl?: string | undefined
  readonly pricesUrl?: string | undefined
}

const timeoutMs = 10_000

const getJson = (url: string): Effect.Effect<unknown, string> =>
  Effect.tryPromise({
    try: async (signal) => {
      const response = await fetch(url, { signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) })
      if (!response.ok) throw new Error(`${response.status} from ${new URL(url).host}`)
      return response.json() as Promise<unknown>
    },
    catch: (error) => error instanceof Error ? error.message : String(error)
  })

interface EsploraTx {
  readonly txid: string
  readonly status: { readonly confirmed: boolean; readonly block_height?: number }
  readonly vout: ReadonlyArray<{ readonly scriptpubkey_address?: string; readonly value: number }>
}

/** Bitcoin through Esplora: `/blocks/tip/height` and `/address/{address}/txs` (the latest 25 or so per address). */
export const esplora = (baseUrl: string): Layer.Layer<ChainWatcher> => {
  const base = baseUrl.replace(/\/+$/u, "")
  const failure = (message: string) => new ChainFailure({ code: "unavailable", message: `Esplora: ${message}` })
  return Layer.succeed(ChainWatcher)(ChainWatcher.of({
    rails: ["btc"],
    payments: (request) =>
      Effect.gen(function*() {
        if (request.rail !== "btc") return yield* Effect.fail(new ChainFailure({ code: "not_configured", message: `No adapter for ${request.rail}.` }))
        const tip = Number(yield* getJson(`${base}/blocks/tip/height`).pipe(Effect.mapError(failure)))
        const found: Array<ChainPayment> = []
        for (const address of request.addresses) {
          const txs = (yield* getJson(`${base}/address/${encodeURIComponent(address)}/txs`).pipe(Effect.mapError(failure))) as ReadonlyArray<EsploraTx>
          for (const tx of txs) {
            const confirmations = tx.status.confirmed && tx.status.block_height !== undefined ? tip - tx.status.block_height + 1 : 0
            tx.vout.forEach((output, outputIndex) => {
              // Esplora gives satoshis as JSON integers (exact below 2^53, more than all bitcoin).
              if (output.scriptpubkey_address === address) found.push({ txid: tx.txid, outputIndex, address, units: BigInt(output.value).toString(), confirmations })
            })
          }
        }
        return found
      })
  }))
}

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

export const wire = (options: Options = {}): { readonly layer: Layer.Layer<ChainWatcher | CryptoPrices>; readonly unconfigured: ReadonlyArray<string> } => {
  const unconfigured: Array<string> = []
  const esploraUrl = options.esploraUrl ?? process.env.LEDGER_ESPLORA_URL
  const pricesUrl = options.pricesUrl ?? process.env.LEDGER_CRYPTO_PRICES_URL
  const chain = options.chain ?? (esploraUrl ? esplora(esploraUrl) : undefined)
  const prices = options.prices ?? (pricesUrl ? httpPrices(pricesUrl) : undefined)
  if (chain === undefined) unconfigured.push("crypto chain watcher (LEDGER_ESPLORA_URL)")
  if (prices === undefined) unconfigured.push("crypto prices (LEDGER_CRYPTO_PRICES_URL)")
  return {
    layer: Layer.mergeAll(chain ?? ChainWatcher.layerUnconfigured, prices ?? CryptoPrices.layerUnconfigured),
    unconfigured
  }
}

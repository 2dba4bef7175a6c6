import { Effect, Layer } from "effect"
import { ChainFailure, ChainWatcher, type ChainPayment } from "@ledger/engine/ports"
import { addressesMax, getJson, request, text } from "./Http.ts"

// Bitcoin: Esplora

/** Esplora answers 25 confirmed transactions a page; at most this many pages per address (1,000 transactions). */
export const esploraPageSize = 25
export const esploraPagesMax = 40

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

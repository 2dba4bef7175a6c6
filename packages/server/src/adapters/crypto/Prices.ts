import { Effect, Layer } from "effect"
import { CryptoPrices, PriceFailure } from "@ledger/engine/ports"
import { getJson } from "./Http.ts"

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

import { Context, Effect, Layer } from "effect"

/**
 * Randomness, as a port: cryptographic in production, seeded in tests so that the same seed gives
 * the same company ids and secrets on every run.
 */
export class Entropy extends Context.Service<Entropy, {
  readonly bytes: (count: number) => Effect.Effect<Uint8Array>
}>()("@ledger/engine/Entropy") {
  /** Web Crypto: available on Node, in browsers and on edge runtimes. */
  static readonly layer = Layer.succeed(Entropy)(Entropy.of({
    bytes: (count) => Effect.sync(() => globalThis.crypto.getRandomValues(new Uint8Array(count)))
  }))

  /** A deterministic stream (xorshift128+) from a seed: for tests only, never for real secrets. */
  static readonly layerSeeded = (seed: number) =>
    Layer.sync(Entropy)(() => {
      let state0 = (seed | 0) ^ 0x9e3779b9
      let state1 = ((seed * 2654435761) | 0) ^ 0x85ebca6b
      const next = (): number => {
        let s1 = state0
        const s0 = state1
        state0 = s0
        s1 ^= s1 << 23
        s1 ^= s1 >>> 17
        s1 ^= s0
        s1 ^= s0 >>> 26
        state1 = s1
        return (state0 + state1) >>> 0
      }
      return Entropy.of({
        bytes: (count) =>
          Effect.sync(() => {
            const out = new Uint8Array(count)
            for (let index = 0; index < count; index++) out[index] = next() & 0xff
            return out
          })
      })
    })
}

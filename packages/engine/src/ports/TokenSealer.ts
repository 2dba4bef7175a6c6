import { Context, Effect, Layer, Result } from "effect"
import { Base64Url } from "effect/encoding"
import { Entropy } from "./Entropy.ts"

/**
 * Seals access tokens at rest (bank feeds): AES-256-GCM through Web Crypto with the deployment's
 * master key, a fresh 96-bit IV from Entropy per sealing, and the owning record bound as
 * additional data, so a sealed token copied onto another company's row does not open. The key
 * comes from the server (packages/server/src/adapters/MasterKey.ts: LEDGER_MASTER_KEY, or a key
 * generated into the data folder for embedded use); the engine never reads the environment. A
 * deployment without a master key provides `layerUnconfigured`: whoever seals checks `configured`
 * first (bank feeds answer 503 `bank_feeds_not_configured`).
 *
 * Sealed form: `v1.<base64url iv>.<base64url ciphertext and tag>`.
 */

const encoder = new TextEncoder()
const decoder = new TextDecoder()

export class TokenSealer extends Context.Service<TokenSealer, {
  /** False only for `layerUnconfigured`. */
  readonly configured: boolean
  readonly seal: (plaintext: string, boundTo: string) => Effect.Effect<string, never, Entropy>
  readonly open: (sealed: string, boundTo: string) => Effect.Effect<string>
}>()("@ledger/engine/TokenSealer") {
  /** A sealer over a 32-byte master key. */
  static readonly layerFromKey = (masterKey: Uint8Array): Layer.Layer<TokenSealer> =>
    Layer.effect(TokenSealer)(Effect.gen(function*() {
      if (masterKey.byteLength !== 32) return yield* Effect.die(new Error("the master key must be 32 bytes"))
      const key = yield* Effect.promise(() =>
        globalThis.crypto.subtle.importKey("raw", new Uint8Array(masterKey), { name: "AES-GCM" }, false, ["encrypt", "decrypt"]))
      return TokenSealer.of({
        configured: true,
        seal: (plaintext, boundTo) =>
          Effect.gen(function*() {
            const entropy = yield* Entropy
            const iv = yield* entropy.bytes(12)
            const sealed = yield* Effect.promise(() =>
              globalThis.crypto.subtle.encrypt(
                { name: "AES-GCM", iv: new Uint8Array(iv), additionalData: encoder.encode(boundTo) },
                key,
                encoder.encode(plaintext)
              ))
            return `v1.${Base64Url.encode(iv)}.${Base64Url.encode(new Uint8Array(sealed))}`
          }),
        open: (sealed, boundTo) =>
          Effect.promise(async () => {
            const [version, iv, body] = sealed.split(".")
            if (version !== "v1" || iv === undefined || body === undefined) throw new Error("not a sealed token")
            const plain = await globalThis.crypto.subtle.decrypt(
              { name: "AES-GCM", iv: new Uint8Array(Result.getOrThrow(Base64Url.decode(iv))), additionalData: encoder.encode(boundTo) },
              key,
              new Uint8Array(Result.getOrThrow(Base64Url.decode(body)))
            )
            return decoder.decode(plain)
          })
      })
    }))

  /**
   * No master key: sealing or opening is a programmer error (a defect), since every caller checks
   * `configured` and refuses with its own 503 first.
   */
  static readonly layerUnconfigured: Layer.Layer<TokenSealer> = Layer.sync(TokenSealer)(() => {
    const missing = Effect.die(new Error("no master key is configured (LEDGER_MASTER_KEY): check TokenSealer.configured first"))
    return TokenSealer.of({ configured: false, seal: () => missing, open: () => missing })
  })
}

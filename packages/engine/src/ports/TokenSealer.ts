import { Context, Effect, Layer } from "effect"
import * as Base64 from "../kernel/Base64.ts"
import { Entropy } from "./Entropy.ts"

/**
 * Seals access tokens at rest (bank feeds): AES-256-GCM through Web Crypto with the deployment's
 * master key, a fresh 96-bit IV from Entropy per sealing, and the owning record bound as
 * additional data, so a sealed token copied onto another company's row does not open. The key
 * comes from the server (packages/server/src/banking/MasterKey.ts: LEDGER_MASTER_KEY, or a key
 * generated into the data folder for embedded use); the engine never reads the environment.
 *
 * Sealed form: `v1.<base64url iv>.<base64url ciphertext and tag>`.
 */

const encoder = new TextEncoder()
const decoder = new TextDecoder()

export class TokenSealer extends Context.Service<TokenSealer, {
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
            return `v1.${Base64.encodeUrl(iv)}.${Base64.encodeUrl(new Uint8Array(sealed))}`
          }),
        open: (sealed, boundTo) =>
          Effect.promise(async () => {
            const [version, iv, body] = sealed.split(".")
            if (version !== "v1" || iv === undefined || body === undefined) throw new Error("not a sealed token")
            const plain = await globalThis.crypto.subtle.decrypt(
              { name: "AES-GCM", iv: new Uint8Array(Base64.decodeUrl(iv)), additionalData: encoder.encode(boundTo) },
              key,
              new Uint8Array(Base64.decodeUrl(body))
            )
            return decoder.decode(plain)
          })
      })
    }))
}

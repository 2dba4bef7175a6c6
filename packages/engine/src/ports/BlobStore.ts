import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { Entropy } from "./Entropy.ts"

/**
 * Files kept at rest (receipt originals, held inbound attachments), encrypted: AES-256-GCM through
 * Web Crypto under the deployment's master key, a fresh 96-bit IV per file, and the owning
 * company and the blob's key bound as additional data, so ciphertext copied onto another row or
 * company does not open. The default store is a PostgreSQL table (`receipt_blobs`, made by the
 * receipts migration); an object store (S3-compatible) would be another layer of this same port.
 * Without a master key the layer is `layerUnconfigured`: callers check `configured` and answer
 * 503 `receipt_storage_not_configured`.
 */

const encoder = new TextEncoder()

/** A bytea as bytes, whatever the driver returned (Buffer, Uint8Array or `\\x` hex text). */
const bytesOf = (value: unknown): Uint8Array<ArrayBuffer> => {
  if (value instanceof Uint8Array) return new Uint8Array(value)
  const hex = String(value).replace(/^\\x/u, "")
  return Uint8Array.from(hex.match(/../gu) ?? [], (pair) => Number.parseInt(pair, 16))
}

export interface BlobRef {
  readonly companyId: string
  readonly key: string
}

export class BlobStore extends Context.Service<BlobStore, {
  readonly configured: boolean
  readonly put: (ref: BlobRef, bytes: Uint8Array) => Effect.Effect<void, never, SqlClient.SqlClient | Entropy>
  readonly get: (ref: BlobRef) => Effect.Effect<Uint8Array | null, never, SqlClient.SqlClient>
  readonly remove: (ref: BlobRef) => Effect.Effect<void, never, SqlClient.SqlClient>
}>()("@ledger/engine/BlobStore") {
  /** The encrypted PostgreSQL table over a 32-byte master key. */
  static readonly layerDatabase = (masterKey: Uint8Array): Layer.Layer<BlobStore> =>
    Layer.effect(BlobStore)(Effect.gen(function*() {
      if (masterKey.byteLength !== 32) return yield* Effect.die(new Error("the master key must be 32 bytes"))
      const key = yield* Effect.promise(() =>
        globalThis.crypto.subtle.importKey("raw", new Uint8Array(masterKey), { name: "AES-GCM" }, false, ["encrypt", "decrypt"]))
      const bound = (ref: BlobRef) => encoder.encode(`blob:${ref.companyId}:${ref.key}`)
      return BlobStore.of({
        configured: true,
        put: (ref, bytes) =>
          Effect.gen(function*() {
            const sql = yield* SqlClient.SqlClient
            const iv = yield* (yield* Entropy).bytes(12)
            const sealed = new Uint8Array(yield* Effect.promise(() =>
              globalThis.crypto.subtle.encrypt({ name: "AES-GCM", iv: new Uint8Array(iv), additionalData: bound(ref) }, key, new Uint8Array(bytes))))
            yield* sql`INSERT INTO receipt_blobs ${sql.insert({ company_id: ref.companyId, blob_key: ref.key, iv, ciphertext: sealed })}
              ON CONFLICT (company_id, blob_key) DO UPDATE SET iv = EXCLUDED.iv, ciphertext = EXCLUDED.ciphertext`.pipe(Effect.orDie)
          }),
        get: (ref) =>
          Effect.gen(function*() {
            const sql = yield* SqlClient.SqlClient
            const rows = yield* sql<{ iv: unknown; ciphertext: unknown }>`SELECT iv, ciphertext FROM receipt_blobs
              WHERE company_id = ${ref.companyId} AND blob_key = ${ref.key}`.pipe(Effect.orDie)
            const row = rows[0]
            if (row === undefined) return null
            const plain = yield* Effect.promise(() =>
              globalThis.crypto.subtle.decrypt(
                { name: "AES-GCM", iv: bytesOf(row.iv), additionalData: bound(ref) },
                key,
                bytesOf(row.ciphertext)
              ))
            return new Uint8Array(plain)
          }),
        remove: (ref) =>
          Effect.gen(function*() {
            const sql = yield* SqlClient.SqlClient
            yield* sql`DELETE FROM receipt_blobs WHERE company_id = ${ref.companyId} AND blob_key = ${ref.key}`.pipe(Effect.orDie)
          })
      })
    }))

  /** No master key: storing or reading is a defect, since every caller checks `configured` first. */
  static readonly layerUnconfigured: Layer.Layer<BlobStore> = Layer.sync(BlobStore)(() => {
    const missing = Effect.die(new Error("no master key is configured (LEDGER_MASTER_KEY): check BlobStore.configured first"))
    return BlobStore.of({ configured: false, put: () => missing, get: () => missing, remove: () => missing })
  })
}

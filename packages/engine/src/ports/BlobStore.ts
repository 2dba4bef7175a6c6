import { Context, Data, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { Entropy } from "./Entropy.ts"

/**
 * Files kept at rest (receipt originals, held inbound attachments), encrypted: AES-256-GCM through
 * Web Crypto under the deployment's master key, a fresh 96-bit IV per file, and the owning
 * company and the blob's key bound as additional data, so ciphertext copied onto another row or
 * company does not open. The default store is a PostgreSQL table (`receipt_blobs`, made by the
 * receipts migration); `layerObjectStore` keeps the same sealed bytes (IV then ciphertext) in an
 * object store instead (the server's S3-compatible adapter), so the provider only ever holds
 * ciphertext. Without a master key the layer is `layerUnconfigured`: callers check `configured`
 * and answer 503 `receipt_storage_not_configured`; an object store that cannot be reached fails
 * with `BlobUnavailable` (the receipts area answers 503 `receipt_storage_unavailable`).
 */

const encoder = new TextEncoder()

/** A bytea as bytes, whatever the driver returned (Buffer, Uint8Array or `\\x` hex text). */
const bytesOf = (value: unknown): Uint8Array<ArrayBuffer> => {
  if (value instanceof Uint8Array) return new Uint8Array(value)
  const hex = String(value).replace(/^\\x/u, "")
  return Uint8Array.from(hex.match(/../gu) ?? [], (pair) => Number.parseInt(pair, 16))
}

/**
 * Sealed bytes are written and read at most this many per statement (migration 0054): a 25 MB
 * file in one statement held the request thread for hundreds of milliseconds on PostgreSQL and
 * seconds on the embedded store (ADR 2321); a part at a time, other requests are served between.
 * On the embedded store a statement's cost grows with its bytes (measured: a 1 MiB part about
 * 5 times a 256 KiB one), so the part is small; on PostgreSQL each part is one round trip.
 */
export const partBytes = 256 * 1024

/** Sealed bytes cut into `partBytes` parts (views, not copies); always at least one. */
export const partsOf = (sealed: Uint8Array): ReadonlyArray<Uint8Array> => {
  const parts: Array<Uint8Array> = []
  for (let offset = 0; offset === 0 || offset < sealed.byteLength; offset += partBytes) {
    parts.push(sealed.subarray(offset, Math.min(sealed.byteLength, offset + partBytes)))
  }
  return parts
}

const joined = (parts: ReadonlyArray<Uint8Array>): Uint8Array<ArrayBuffer> => {
  if (parts.length === 1) return new Uint8Array(parts[0]!)
  const out = new Uint8Array(parts.reduce((total, part) => total + part.byteLength, 0))
  let offset = 0
  for (const part of parts) {
    out.set(part, offset)
    offset += part.byteLength
  }
  return out
}

/** The bytes over a plain ArrayBuffer, as Web Crypto takes them: copied only when they are over another kind. */
const unshared = (bytes: Uint8Array): Uint8Array<ArrayBuffer> =>
  bytes.buffer instanceof ArrayBuffer ? bytes as Uint8Array<ArrayBuffer> : new Uint8Array(bytes)

export interface BlobRef {
  readonly companyId: string
  readonly key: string
}

/** The object store could not be reached or refused a request (the receipts area answers 503). */
export class BlobUnavailable extends Data.TaggedError("BlobUnavailable")<{ readonly message: string }> {}

/**
 * Raw object storage by name (an S3-compatible bucket): what `layerObjectStore` writes its sealed
 * bytes to. Names are `<companyId>/<blob key>`; `get` answers null for a missing object.
 */
export interface ObjectStore {
  readonly put: (name: string, bytes: Uint8Array) => Effect.Effect<void, BlobUnavailable>
  readonly get: (name: string) => Effect.Effect<Uint8Array | null, BlobUnavailable>
  readonly remove: (name: string) => Effect.Effect<void, BlobUnavailable>
}

/** AES-256-GCM under the master key, with the company and the blob's key bound as additional data. */
const sealing = (masterKey: Uint8Array) =>
  Effect.gen(function*() {
    if (masterKey.byteLength !== 32) return yield* Effect.die(new Error("the master key must be 32 bytes"))
    const key = yield* Effect.promise(() =>
      globalThis.crypto.subtle.importKey("raw", new Uint8Array(masterKey), { name: "AES-GCM" }, false, ["encrypt", "decrypt"]))
    const bound = (ref: BlobRef) => encoder.encode(`blob:${ref.companyId}:${ref.key}`)
    return {
      seal: (ref: BlobRef, iv: Uint8Array, bytes: Uint8Array) =>
        // Bytes over a plain buffer go as they are: a copy of a 20 MB file was the request thread's (ADR 2321).
        Effect.promise(() => globalThis.crypto.subtle.encrypt({ name: "AES-GCM", iv: new Uint8Array(iv), additionalData: bound(ref) }, key, unshared(bytes)))
          .pipe(Effect.map((sealed) => new Uint8Array(sealed))),
      open: (ref: BlobRef, iv: Uint8Array<ArrayBuffer>, sealed: Uint8Array<ArrayBuffer>) =>
        Effect.promise(() => globalThis.crypto.subtle.decrypt({ name: "AES-GCM", iv, additionalData: bound(ref) }, key, sealed))
          .pipe(Effect.map((plain) => new Uint8Array(plain)))
    }
  })

export class BlobStore extends Context.Service<BlobStore, {
  readonly configured: boolean
  readonly put: (ref: BlobRef, bytes: Uint8Array) => Effect.Effect<void, BlobUnavailable, SqlClient.SqlClient | Entropy>
  readonly get: (ref: BlobRef) => Effect.Effect<Uint8Array | null, BlobUnavailable, SqlClient.SqlClient>
  readonly remove: (ref: BlobRef) => Effect.Effect<void, BlobUnavailable, SqlClient.SqlClient>
}>()("@ledger/engine/BlobStore") {
  /** The encrypted PostgreSQL table over a 32-byte master key. */
  static readonly layerDatabase = (masterKey: Uint8Array): Layer.Layer<BlobStore> =>
    Layer.effect(BlobStore)(Effect.gen(function*() {
      const { seal, open } = yield* sealing(masterKey)
      return BlobStore.of({
        configured: true,
        // One orDie per operation: a database failure here is a defect, as it was for the single statement.
        put: (ref, bytes) =>
          Effect.gen(function*() {
            const sql = yield* SqlClient.SqlClient
            const iv = yield* (yield* Entropy).bytes(12)
            const sealed = yield* seal(ref, iv, bytes)
            const parts = partsOf(sealed)
            yield* sql`INSERT INTO receipt_blobs ${sql.insert({ company_id: ref.companyId, blob_key: ref.key, iv, ciphertext: parts[0]! })}
              ON CONFLICT (company_id, blob_key) DO UPDATE SET iv = EXCLUDED.iv, ciphertext = EXCLUDED.ciphertext`
            // A file written again under its key (a held attachment's) leaves no part of the old one behind.
            yield* sql`DELETE FROM receipt_blob_parts WHERE company_id = ${ref.companyId} AND blob_key = ${ref.key}`
            for (const [index, part] of parts.entries()) {
              if (index === 0) continue
              // The request thread serves others between parts (a turn of the event loop).
              yield* Effect.yieldNow
              yield* sql`INSERT INTO receipt_blob_parts ${sql.insert({ company_id: ref.companyId, blob_key: ref.key, part: index, bytes: part })}`
            }
          }).pipe(Effect.orDie),
        get: (ref) =>
          Effect.gen(function*() {
            const sql = yield* SqlClient.SqlClient
            const rows = yield* sql<{ iv: unknown; ciphertext: unknown }>`SELECT iv, ciphertext FROM receipt_blobs
              WHERE company_id = ${ref.companyId} AND blob_key = ${ref.key}`
            const row = rows[0]
            if (row === undefined) return null
            const numbers = yield* sql<{ part: unknown }>`SELECT part FROM receipt_blob_parts
              WHERE company_id = ${ref.companyId} AND blob_key = ${ref.key} ORDER BY part`
            const parts: Array<Uint8Array> = [bytesOf(row.ciphertext)]
            for (const { part } of numbers) {
              yield* Effect.yieldNow
              const read = yield* sql<{ bytes: unknown }>`SELECT bytes FROM receipt_blob_parts
                WHERE company_id = ${ref.companyId} AND blob_key = ${ref.key} AND part = ${Number(part)}`
              parts.push(bytesOf(read[0]?.bytes))
            }
            return { iv: bytesOf(row.iv), sealed: joined(parts) }
          }).pipe(Effect.orDie, Effect.flatMap((found) => found === null ? Effect.succeed(null) : open(ref, found.iv, found.sealed))),
        remove: (ref) =>
          Effect.gen(function*() {
            const sql = yield* SqlClient.SqlClient
            yield* sql`DELETE FROM receipt_blobs WHERE company_id = ${ref.companyId} AND blob_key = ${ref.key}`.pipe(Effect.orDie)
          })
      })
    }))

  /**
   * The same sealed bytes in an object store: each object is the 12-byte IV followed by the
   * ciphertext and its tag, named `<companyId>/<key>`. Writes are not part of the request's
   * transaction (ADR 1205): a put whose transaction rolls back leaves an object nobody points at.
   */
  static readonly layerObjectStore = (masterKey: Uint8Array, objects: ObjectStore): Layer.Layer<BlobStore> =>
    Layer.effect(BlobStore)(Effect.gen(function*() {
      const { seal, open } = yield* sealing(masterKey)
      const name = (ref: BlobRef) => `${ref.companyId}/${ref.key}`
      return BlobStore.of({
        configured: true,
        put: (ref, bytes) =>
          Effect.gen(function*() {
            const iv = yield* (yield* Entropy).bytes(12)
            const sealed = yield* seal(ref, iv, bytes)
            const object = new Uint8Array(12 + sealed.byteLength)
            object.set(iv, 0)
            object.set(sealed, 12)
            yield* objects.put(name(ref), object)
          }),
        get: (ref) =>
          Effect.gen(function*() {
            const object = yield* objects.get(name(ref))
            if (object === null) return null
            // An object too short for an IV and a tag, or one that does not open, is not ours: a defect, as a forged row would be.
            if (object.byteLength < 28) return yield* Effect.die(new Error(`the object ${name(ref)} is not a sealed blob`))
            return yield* open(ref, new Uint8Array(object.slice(0, 12)), new Uint8Array(object.slice(12)))
          }),
        remove: (ref) => objects.remove(name(ref))
      })
    }))

  /** No master key: storing or reading is a defect, since every caller checks `configured` first. */
  static readonly layerUnconfigured: Layer.Layer<BlobStore> = Layer.sync(BlobStore)(() => {
    const missing = Effect.die(new Error("no master key is configured (LEDGER_MASTER_KEY): check BlobStore.configured first"))
    return BlobStore.of({ configured: false, put: () => missing, get: () => missing, remove: () => missing })
  })
}

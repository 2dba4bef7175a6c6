import { Effect, Result } from "effect"
import { ApiError } from "@ledger/api"
import { Base64Url } from "effect/encoding"
import { Entropy } from "../ports/Entropy.ts"

/**
 * A stored idempotent result must replay exactly, yet a secret it carries (a new API key's
 * `secret`, DECISIONS.md) must never rest in the database in plain text. So every `secret` field
 * is sealed (AES-256-GCM) with a key derived from the caller's own credential and the
 * Idempotency-Key: the database holds neither, only a replay that presents both can open it, and
 * that is exactly the caller entitled to the first answer (docs/decisions/0005-idempotency.md).
 */

const label = "ledger idempotency result v1\n"
const ivBytes = 12

const encoder = new TextEncoder()
const decoder = new TextDecoder()

const sealingKey = (credential: string, idempotencyKey: string) =>
  Effect.promise(async () => {
    const hmacKey = await globalThis.crypto.subtle.importKey(
      "raw",
      encoder.encode(credential),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"]
    )
    const material = await globalThis.crypto.subtle.sign("HMAC", hmacKey, encoder.encode(label + idempotencyKey))
    return globalThis.crypto.subtle.importKey("raw", material, { name: "AES-GCM" }, false, ["encrypt", "decrypt"])
  })

/** True for the stored form of a sealed or withheld secret. */
const isSealed = (value: unknown): value is { readonly $sealed: string } | { readonly $withheld: true } =>
  typeof value === "object" && value !== null && !Array.isArray(value) &&
  (typeof (value as Record<string, unknown>).$sealed === "string" || (value as Record<string, unknown>).$withheld === true)

const hasSealed = (value: unknown): boolean => {
  if (Array.isArray(value)) return value.some(hasSealed)
  if (value === null || typeof value !== "object") return false
  return Object.entries(value).some(([name, item]) => (name === "secret" && isSealed(item)) || hasSealed(item))
}

const hasSecret = (value: unknown): boolean => {
  if (Array.isArray(value)) return value.some(hasSecret)
  if (value === null || typeof value !== "object") return false
  return Object.entries(value).some(([name, item]) => (name === "secret" && typeof item === "string") || hasSecret(item))
}

const mapSecrets = <E, R>(
  value: unknown,
  onSecret: (secret: unknown) => Effect.Effect<unknown, E, R>,
  matches: (name: string, item: unknown) => boolean
): Effect.Effect<unknown, E, R> => {
  if (Array.isArray(value)) return Effect.forEach(value, (item) => mapSecrets(item, onSecret, matches))
  if (value === null || typeof value !== "object") return Effect.succeed(value)
  return Effect.map(
    Effect.forEach(Object.entries(value), ([name, item]) =>
      Effect.map(matches(name, item) ? onSecret(item) : mapSecrets(item, onSecret, matches), (mapped) => [name, mapped] as const)),
    Object.fromEntries
  )
}

/** The body as it may be stored: every `secret` string sealed to the credential and key. */
export const seal = Effect.fn("SealedResult.seal")(function*(body: unknown, credential: string | null, idempotencyKey: string) {
  if (!hasSecret(body)) return body
  const entropy = yield* Entropy
  const key = credential === null ? null : yield* sealingKey(credential, idempotencyKey)
  return yield* mapSecrets(body, (secret) =>
    key === null
      ? Effect.succeed({ $withheld: true })
      : Effect.gen(function*() {
        const iv = yield* entropy.bytes(ivBytes)
        const encrypted = yield* Effect.promise(() =>
          globalThis.crypto.subtle.encrypt({ name: "AES-GCM", iv: iv as Uint8Array<ArrayBuffer> }, key, encoder.encode(secret as string))
        )
        const out = new Uint8Array(ivBytes + encrypted.byteLength)
        out.set(iv, 0)
        out.set(new Uint8Array(encrypted), ivBytes)
        return { $sealed: Base64Url.encode(out) }
      }), (name, item) => name === "secret" && typeof item === "string")
})

const unreadable = () =>
  ApiError.fail(
    "idempotency_conflict",
    "The first result of this Idempotency-Key holds a secret that only the credential that made the request can read; " +
      "replay it with that credential, or use a new key."
  )

/** The stored body as first returned, its secrets opened; refused when this credential cannot open them. */
export const open = Effect.fn("SealedResult.open")(function*(stored: unknown, credential: string | null, idempotencyKey: string) {
  // Most answers hold no secret: a replay then returns them untouched, without rebuilding them.
  if (!hasSealed(stored)) return stored
  let key: CryptoKey | null = null
  return yield* mapSecrets(stored, (sealed) =>
    Effect.gen(function*() {
      const text = (sealed as Record<string, unknown>).$sealed
      if (typeof text !== "string" || credential === null) return yield* Effect.fail(unreadable())
      key ??= yield* sealingKey(credential, idempotencyKey)
      const bytes = Result.getOrThrow(Base64Url.decode(text))
      const opened = yield* Effect.tryPromise({
        try: () =>
          globalThis.crypto.subtle.decrypt(
            { name: "AES-GCM", iv: bytes.slice(0, ivBytes) },
            key!,
            bytes.slice(ivBytes)
          ),
        catch: unreadable
      })
      return decoder.decode(opened)
    }), (name, item) => name === "secret" && isSealed(item))
})

import { sha256 } from "@noble/hashes/sha2.js"
import { bytesToHex } from "@noble/hashes/utils.js"
import { Effect } from "effect"
import { Base64Url } from "effect/encoding"
import { Entropy } from "../ports/Entropy.ts"

/**
 * Secrets (API keys, tokens) are 32 random bytes in base64url: 43 characters, 256 bits. With that
 * much entropy a plain SHA-256 is the right hash: a slow password hash adds nothing against
 * guessing and costs every request.
 */
const secretBytes = 32

export type Prefix = "ldg_" | "ldgs_" | "ldgf_" | "ldgi_" | "ldgc_" | "ldgwhsec_" | "ldgop_"

/** A new secret with its prefix, e.g. `ldg_` + 43 characters. */
export const generate = Effect.fn("Secret.generate")(function*(prefix: Prefix) {
  const entropy = yield* Entropy
  const bytes = yield* entropy.bytes(secretBytes)
  return `${prefix}${Base64Url.encode(bytes)}`
})

const encoder = new TextEncoder()

/**
 * SHA-256 of a text, hex, computed in place: every request hashes its credential and every write
 * its request, and Web Crypto's digest is a promise answered from a thread pool, a round trip
 * that cost more than the hashing (docs/performance.md). @noble/hashes is audited, pure
 * JavaScript, and runs wherever the engine does.
 */
export const sha256Hex = (text: string): string => bytesToHex(sha256(encoder.encode(text)))

/** The stored form of a secret: SHA-256, hex. */
export const hash = (secret: string): Effect.Effect<string> => Effect.sync(() => sha256Hex(secret))

/** What a key is recognised by in lists: its prefix and first characters, never enough to use. */
export const displayPrefix = (secret: string): string => secret.slice(0, secret.indexOf("_") + 5)

/** A lower-case UUID v4 from the entropy port (company ids). */
export const uuid = Effect.fn("Secret.uuid")(function*() {
  const entropy = yield* Entropy
  const bytes = yield* entropy.bytes(16)
  bytes[6] = (bytes[6]! & 0x0f) | 0x40
  bytes[8] = (bytes[8]! & 0x3f) | 0x80
  const text = bytesToHex(bytes)
  return `${text.slice(0, 8)}-${text.slice(8, 12)}-${text.slice(12, 16)}-${text.slice(16, 20)}-${text.slice(20)}`
})

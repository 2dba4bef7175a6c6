/**
 * Idempotency-Key makers. A key names one intended change: the SDK makes one per `K` call and
 * sends it on every retry of that call, never on another call.
 */

const hex = (bytes: Uint8Array) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("")

/** A random UUID v4 (Web Crypto: Node, browsers, edge runtimes). */
export const random = (): string => {
  const crypto = globalThis.crypto
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID()
  // randomUUID is missing outside secure contexts in browsers; getRandomValues is not.
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  bytes[6] = (bytes[6]! & 0x0f) | 0x40
  bytes[8] = (bytes[8]! & 0x3f) | 0x80
  const text = hex(bytes)
  return `${text.slice(0, 8)}-${text.slice(8, 12)}-${text.slice(12, 16)}-${text.slice(16, 20)}-${text.slice(20)}`
}

/**
 * `prefix-1`, `prefix-2`, ...: repeatable keys for tests that compare runs byte for byte. Two
 * clients with the same prefix make the same keys, so give each scripted run its own.
 */
export const sequential = (prefix: string): (() => string) => {
  let counter = 0
  return () => `${prefix}-${(++counter).toString().padStart(6, "0")}`
}

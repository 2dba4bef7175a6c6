/**
 * Webhook signatures (spec 6.2): `Ledger-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256>` where the
 * HMAC is of the text `t + "." + raw body`, keyed with the endpoint's signing secret (the whole
 * `ldgwhsec_...` string, UTF-8). While a rotated-out secret is still valid the header carries two
 * `v1` values. Web Crypto only, so receivers on Node, edge runtimes and browsers share it.
 *
 * Verify the raw body exactly as received: parsing and re-serialising JSON changes bytes.
 */

export const headerName = "Ledger-Signature"

/** Five minutes either way, the usual allowance for clock skew and a delivery's time in flight. */
export const toleranceSecondsDefault = 300

export interface ParsedHeader {
  readonly timestamp: number
  readonly signatures: ReadonlyArray<string>
}

export type Failure = "missing_header" | "malformed_header" | "timestamp_out_of_tolerance" | "no_matching_signature"

export type Verification =
  | { readonly valid: true; readonly timestamp: number }
  | { readonly valid: false; readonly reason: Failure }

export interface VerifyOptions {
  /** The Ledger-Signature header as received (null or undefined when absent). */
  readonly header: string | null | undefined
  /** The raw request body. */
  readonly payload: string | Uint8Array
  /** The endpoint's signing secret; during a rotation, both secrets are accepted. */
  readonly secrets: string | ReadonlyArray<string>
  readonly toleranceSeconds?: number | undefined
  /** The receiver's clock, in unix seconds. */
  readonly nowSeconds: number
}

/** `t=...,v1=...,v1=...` -> its parts, or null when it is not that shape. Unknown schemes are ignored. */
export const parseHeader = (header: string): ParsedHeader | null => {
  let timestamp: number | null = null
  const signatures: Array<string> = []
  for (const part of header.split(",")) {
    const separator = part.indexOf("=")
    if (separator <= 0) return null
    const name = part.slice(0, separator).trim()
    const value = part.slice(separator + 1).trim()
    if (name === "t") {
      if (!/^\d{1,12}$/.test(value) || timestamp !== null) return null
      timestamp = Number(value)
    } else if (name === "v1") {
      if (!/^[0-9a-f]{64}$/i.test(value)) return null
      signatures.push(value.toLowerCase())
    }
  }
  return timestamp === null || signatures.length === 0 ? null : { timestamp, signatures }
}

const encoder = new TextEncoder()

const bytesOf = (payload: string | Uint8Array): Uint8Array => (typeof payload === "string" ? encoder.encode(payload) : payload)

/** hex(HMAC-SHA256(secret, `${timestamp}.${payload}`)). */
export const computeSignature = async (secret: string, timestamp: number, payload: string | Uint8Array): Promise<string> => {
  const key = await globalThis.crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign"
  ])
  const body = bytesOf(payload)
  const prefix = encoder.encode(`${timestamp}.`)
  const message = new Uint8Array(prefix.length + body.length)
  message.set(prefix, 0)
  message.set(body, prefix.length)
  const mac = new Uint8Array(await globalThis.crypto.subtle.sign("HMAC", key, message))
  return Array.from(mac, (byte) => byte.toString(16).padStart(2, "0")).join("")
}

/** The header a sender puts on a delivery: one `v1` per secret still valid, newest first. */
export const signatureHeader = async (
  secrets: string | ReadonlyArray<string>,
  timestamp: number,
  payload: string | Uint8Array
): Promise<string> => {
  const list = typeof secrets === "string" ? [secrets] : secrets
  const signatures = await Promise.all(list.map((secret) => computeSignature(secret, timestamp, payload)))
  return [`t=${timestamp}`, ...signatures.map((signature) => `v1=${signature}`)].join(",")
}

/** Compares in time independent of where two equal-length strings first differ. */
const constantTimeEqual = (left: string, right: string): boolean => {
  if (left.length !== right.length) return false
  let difference = 0
  for (let index = 0; index < left.length; index++) difference |= left.charCodeAt(index) ^ right.charCodeAt(index)
  return difference === 0
}

/** Whether a delivery is genuine and fresh. Refuse anything that is not `valid`. */
export const verifySignature = async (options: VerifyOptions): Promise<Verification> => {
  if (options.header === null || options.header === undefined || options.header.trim() === "") {
    return { valid: false, reason: "missing_header" }
  }
  const parsed = parseHeader(options.header)
  if (parsed === null) return { valid: false, reason: "malformed_header" }
  const tolerance = options.toleranceSeconds ?? toleranceSecondsDefault
  if (Math.abs(options.nowSeconds - parsed.timestamp) > tolerance) return { valid: false, reason: "timestamp_out_of_tolerance" }
  const secrets = typeof options.secrets === "string" ? [options.secrets] : options.secrets
  for (const secret of secrets) {
    const expected = await computeSignature(secret, parsed.timestamp, options.payload)
    // Every received signature is compared, so timing does not tell which one matched.
    let matched = false
    for (const signature of parsed.signatures) matched = constantTimeEqual(expected, signature) || matched
    if (matched) return { valid: true, timestamp: parsed.timestamp }
  }
  return { valid: false, reason: "no_matching_signature" }
}

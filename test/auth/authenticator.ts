import { webcrypto } from "node:crypto"

/**
 * A software authenticator for tests: an ES256 key made with Web Crypto, `none` attestation, real
 * clientDataJSON and authenticator data (RP ID hash, flags, sign count, COSE key), and DER
 * signatures, as a platform authenticator would send them. Knobs make the tampered messages.
 */

const subtle = webcrypto.subtle

const base64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url")
const fromBase64url = (text: string) => new Uint8Array(Buffer.from(text, "base64url"))

/** CBOR (RFC 8949) encoding of what authenticators send: integers, byte and text strings, maps. */
type Cbor = number | string | Uint8Array | ReadonlyArray<readonly [Cbor, Cbor]>
const head = (major: number, length: number): Uint8Array => {
  if (length < 24) return new Uint8Array([(major << 5) | length])
  if (length < 256) return new Uint8Array([(major << 5) | 24, length])
  return new Uint8Array([(major << 5) | 25, length >> 8, length & 0xff])
}
const cbor = (value: Cbor): Uint8Array => {
  if (typeof value === "number") return value >= 0 ? head(0, value) : head(1, -1 - value)
  if (typeof value === "string") {
    const bytes = new TextEncoder().encode(value)
    return concat(head(3, bytes.length), bytes)
  }
  if (value instanceof Uint8Array) return concat(head(2, value.length), value)
  const pairs = value as ReadonlyArray<readonly [Cbor, Cbor]>
  return concat(head(5, pairs.length), ...pairs.flatMap(([key, item]) => [cbor(key), cbor(item)]))
}
const encoder = new TextEncoder()

const concat = (...parts: ReadonlyArray<Uint8Array>) => {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0))
  let offset = 0
  for (const part of parts) {
    out.set(part, offset)
    offset += part.length
  }
  return out
}

const sha256 = async (bytes: Uint8Array) => new Uint8Array(await subtle.digest("SHA-256", bytes))

/** An ECDSA signature from Web Crypto's r||s form to ASN.1 DER, as WebAuthn carries it. */
const derOf = (raw: Uint8Array): Uint8Array => {
  const integer = (bytes: Uint8Array) => {
    let start = 0
    while (start < bytes.length - 1 && bytes[start] === 0) start++
    const trimmed = bytes.slice(start)
    const body = trimmed[0]! & 0x80 ? concat(new Uint8Array([0]), trimmed) : trimmed
    return concat(new Uint8Array([0x02, body.length]), body)
  }
  const sequence = concat(integer(raw.slice(0, 32)), integer(raw.slice(32)))
  return concat(new Uint8Array([0x30, sequence.length]), sequence)
}

const flags = { up: 0x01, uv: 0x04, at: 0x40 }

export interface Options {
  readonly origin?: string
  readonly rpId?: string
  readonly userVerified?: boolean
  readonly type?: string
  /** Sign count to report; default the authenticator's own, counting up. */
  readonly signCount?: number
}

export class SoftwareAuthenticator {
  readonly credentialId = webcrypto.getRandomValues(new Uint8Array(32))
  counter = 0
  private constructor(private readonly keys: CryptoKeyPair, readonly origin: string, readonly rpId: string) {}

  static async make(origin: string, rpId: string) {
    const keys = await subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"]) as CryptoKeyPair
    return new SoftwareAuthenticator(keys, origin, rpId)
  }

  get id() {
    return base64url(this.credentialId)
  }

  private clientData(type: string, challenge: string, options: Options) {
    return encoder.encode(JSON.stringify({ type: options.type ?? type, challenge, origin: options.origin ?? this.origin, crossOrigin: false }))
  }

  private async authData(options: Options, attested: Uint8Array | null) {
    const rpIdHash = await sha256(encoder.encode(options.rpId ?? this.rpId))
    const flagByte = flags.up | (options.userVerified === false ? 0 : flags.uv) | (attested === null ? 0 : flags.at)
    const count = options.signCount ?? this.counter
    const countBytes = new Uint8Array([(count >>> 24) & 0xff, (count >>> 16) & 0xff, (count >>> 8) & 0xff, count & 0xff])
    return concat(rpIdHash, new Uint8Array([flagByte]), countBytes, attested ?? new Uint8Array())
  }

  private async coseKey() {
    const jwk = await subtle.exportKey("jwk", this.keys.publicKey)
    return cbor([[1, 2], [3, -7], [-1, 1], [-2, fromBase64url(jwk.x!)], [-3, fromBase64url(jwk.y!)]])
  }

  /** `navigator.credentials.create()` answered: a registration response (`none` attestation). */
  async register(challenge: string, options: Options = {}) {
    const idLength = new Uint8Array([0, this.credentialId.length])
    const attested = concat(new Uint8Array(16), idLength, this.credentialId, await this.coseKey())
    const authData = await this.authData(options, attested)
    const attestationObject = cbor([["fmt", "none"], ["attStmt", []], ["authData", authData]])
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key" as const,
      response: {
        clientDataJSON: base64url(this.clientData("webauthn.create", challenge, options)),
        attestationObject: base64url(attestationObject),
        transports: ["internal"]
      },
      clientExtensionResults: {}
    }
  }

  /** `navigator.credentials.get()` answered: an assertion over the challenge. */
  async assert(challenge: string, options: Options = {}) {
    if (options.signCount === undefined) this.counter += 1
    const authData = await this.authData(options, null)
    const clientDataJSON = this.clientData("webauthn.get", challenge, options)
    const signed = concat(authData, await sha256(clientDataJSON))
    const raw = new Uint8Array(await subtle.sign({ name: "ECDSA", hash: "SHA-256" }, this.keys.privateKey, signed))
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key" as const,
      response: {
        clientDataJSON: base64url(clientDataJSON),
        authenticatorData: base64url(authData),
        signature: base64url(derOf(raw)),
        userHandle: null
      },
      clientExtensionResults: {}
    }
  }
}

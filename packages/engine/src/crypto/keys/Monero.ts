import { ed25519 } from "@noble/curves/ed25519.js"
import { keccak_256 } from "@noble/hashes/sha3.js"
import { base58xmr, hex } from "@scure/base"
import { KeyInvalid } from "./Bitcoin.ts"

/**
 * Monero watch-only wallets: a standard address (public spend and view keys) and its private view
 * key, checked against each other; subaddresses (major 0, minor i) derived as the wallet does:
 * m = Hs("SubAddr\0" || a || major || minor), D = B + m·G, C = a·D. A spend key given as the view
 * key is recognised (its public key is the address's spend key) and refused.
 */

export type Network = "mainnet" | "testnet" | "stagenet"

const prefixes: Record<Network, { readonly standard: number; readonly subaddress: number }> = {
  mainnet: { standard: 18, subaddress: 42 },
  testnet: { standard: 53, subaddress: 63 },
  stagenet: { standard: 24, subaddress: 36 }
}

const L = ed25519.Point.Fn.ORDER
const G = ed25519.Point.BASE

const littleEndianToBig = (bytes: Uint8Array): bigint => {
  let value = 0n
  for (let index = bytes.length - 1; index >= 0; index--) value = (value << 8n) | BigInt(bytes[index]!)
  return value
}

const u32le = (value: number): Uint8Array => new Uint8Array([value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff, (value >>> 24) & 0xff])

const concat = (...parts: ReadonlyArray<Uint8Array>): Uint8Array => {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0))
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}

/** Hs: Keccak-256 reduced modulo the group order. */
const hashToScalar = (bytes: Uint8Array): bigint => littleEndianToBig(keccak_256(bytes)) % L

export interface Address {
  readonly network: Network
  readonly subaddress: boolean
  readonly spendPublic: Uint8Array
  readonly viewPublic: Uint8Array
}

/** Decodes and checks a standard address or subaddress (integrated addresses are refused). */
export const decodeAddress = (text: string): Address => {
  let bytes: Uint8Array
  try {
    bytes = base58xmr.decode(text)
  } catch {
    throw new KeyInvalid("Not a Monero address.")
  }
  if (bytes.length !== 69) throw new KeyInvalid("Not a standard Monero address (integrated addresses are not accepted).")
  const body = bytes.slice(0, 65)
  const checksum = keccak_256(body).slice(0, 4)
  if (!checksum.every((byte, index) => byte === bytes[65 + index])) throw new KeyInvalid("The Monero address's checksum does not match.")
  for (const [network, prefix] of Object.entries(prefixes) as Array<[Network, (typeof prefixes)[Network]]>) {
    if (bytes[0] === prefix.standard || bytes[0] === prefix.subaddress) {
      return { network, subaddress: bytes[0] === prefix.subaddress, spendPublic: bytes.slice(1, 33), viewPublic: bytes.slice(33, 65) }
    }
  }
  throw new KeyInvalid("Unknown Monero network byte.")
}

const encode = (prefix: number, spend: Uint8Array, view: Uint8Array): string => {
  const body = concat(new Uint8Array([prefix]), spend, view)
  return base58xmr.encode(concat(body, keccak_256(body).slice(0, 4)))
}

const scalarOf = (viewKeyHex: string): bigint => {
  if (!/^[0-9a-f]{64}$/iu.test(viewKeyHex)) throw new KeyInvalid("A Monero private view key is 64 hexadecimal digits.")
  return littleEndianToBig(hex.decode(viewKeyHex.toLowerCase()))
}

const publicOf = (scalar: bigint): Uint8Array => G.multiply(((scalar % L) + L) % L || L).toBytes()

const same = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((byte, index) => byte === b[index])

/** "view" when `viewKey` is the address's private view key, "spend" when it is its spend key, else null. */
export const whichKey = (address: Address, viewKeyHex: string): "view" | "spend" | null => {
  const scalar = scalarOf(viewKeyHex)
  if (scalar % L === 0n) return null
  const pub = publicOf(scalar)
  if (same(pub, address.viewPublic)) return "view"
  if (same(pub, address.spendPublic)) return "spend"
  return null
}

/** The subaddress (major, minor) of a standard address with its private view key; (0, 0) is the address itself. */
export const subaddress = (address: Address, viewKeyHex: string, major: number, minor: number): string => {
  if (major === 0 && minor === 0) return encode(prefixes[address.network].standard, address.spendPublic, address.viewPublic)
  const a = scalarOf(viewKeyHex)
  const aBytes = hex.decode(viewKeyHex.toLowerCase())
  const m = hashToScalar(concat(new TextEncoder().encode("SubAddr\0"), aBytes, u32le(major), u32le(minor)))
  const D = ed25519.Point.fromBytes(address.spendPublic).add(G.multiply(m))
  const C = D.multiply(a % L)
  return encode(prefixes[address.network].subaddress, D.toBytes(), C.toBytes())
}

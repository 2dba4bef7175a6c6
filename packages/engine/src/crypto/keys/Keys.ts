import { sha256 } from "@noble/hashes/sha2.js"
import { hex } from "@scure/base"
import * as Bitcoin from "./Bitcoin.ts"
import { KeyInvalid } from "./Bitcoin.ts"
import * as Monero from "./Monero.ts"
import { secretIn } from "./Secrets.ts"
import * as Tokens from "./Tokens.ts"

export { KeyInvalid } from "./Bitcoin.ts"

/**
 * A wallet's watch-only material, as given when it is added, checked and described: what kind of
 * key it is, the script type and network, a fingerprint, the first address, and the text to seal.
 * Anything that can spend throws `SecretRefused`; anything malformed throws `KeyInvalid`. Pure.
 */

export class SecretRefused extends Error {
  readonly field: string
  readonly what: string
  constructor(field: string, what: string) {
    super(`The ${field} looks like ${what}. Ledger only watches wallets: give an extended public key, an output descriptor, an address or a view key, never anything that can spend.`)
    this.field = field
    this.what = what
  }
}

export interface KeyInput {
  readonly rail: string
  readonly key?: string | undefined
  readonly address?: string | undefined
  readonly view_key?: string | undefined
}

/** What is sealed at rest: enough to derive the wallet's addresses again. */
export interface Material {
  readonly key?: string
  readonly address?: string
  readonly view_key?: string
}

export interface Described {
  readonly keyKind: "extended_public_key" | "descriptor" | "address" | "view_key"
  readonly scriptType: "p2pkh" | "p2sh_p2wpkh" | "p2wpkh" | "p2tr" | "monero" | "token"
  readonly network: "mainnet" | "testnet" | "stagenet"
  readonly fingerprint: string
  readonly firstAddress: string
  /** False when every quote must use the one address (single-address and token wallets). */
  readonly derives: boolean
  readonly material: Material
}

const fingerprintOf = (text: string): string => hex.encode(sha256(new TextEncoder().encode(text.trim()))).slice(0, 16)

const refuseSecrets = (input: KeyInput): void => {
  for (const field of ["key", "address"] as const) {
    const value = input[field]
    const found = value === undefined ? null : secretIn(value)
    if (found !== null) throw new SecretRefused(field, found)
  }
  // A view key is 64 hex digits, like a spend key: only a phrase is refused here; Monero tells the two apart below.
  const phrase = input.view_key === undefined ? null : secretIn(input.view_key.replace(/[0-9a-f]{64}/giu, ""))
  if (phrase !== null) throw new SecretRefused("view_key", phrase)
}

const bitcoin = (input: KeyInput): Described => {
  if (input.view_key !== undefined) throw new KeyInvalid("Bitcoin wallets take no view_key.")
  if (input.key !== undefined) {
    const parsed = Bitcoin.parse(input.key)
    return {
      keyKind: parsed.kind,
      scriptType: parsed.script,
      network: parsed.network,
      fingerprint: fingerprintOf(input.key),
      firstAddress: Bitcoin.derive(parsed, 0),
      derives: true,
      material: { key: input.key.trim() }
    }
  }
  if (input.address === undefined) throw new KeyInvalid("A Bitcoin wallet needs an extended public key or output descriptor in key, or an address.")
  const network = Bitcoin.checkAddress(input.address)
  const scriptType = /^(bc1p|tb1p)/u.test(input.address) ? "p2tr" : /^(bc1q|tb1q)/u.test(input.address) ? "p2wpkh" : /^[32]/u.test(input.address) ? "p2sh_p2wpkh" : "p2pkh"
  return { keyKind: "address", scriptType, network, fingerprint: fingerprintOf(input.address), firstAddress: input.address, derives: false, material: { address: input.address } }
}

const monero = (input: KeyInput): Described => {
  if (input.key !== undefined) throw new KeyInvalid("Monero wallets take an address and its private view key, not key.")
  if (input.address === undefined || input.view_key === undefined) throw new KeyInvalid("A Monero wallet needs its primary address and private view key.")
  const address = Monero.decodeAddress(input.address)
  if (address.subaddress) throw new KeyInvalid("Give the wallet's primary address, not a subaddress.")
  const which = Monero.whichKey(address, input.view_key)
  if (which === "spend") throw new SecretRefused("view_key", "the wallet's private spend key")
  if (which === null) throw new KeyInvalid("The view key does not belong to this address.")
  return {
    keyKind: "view_key",
    scriptType: "monero",
    network: address.network,
    fingerprint: fingerprintOf(input.address),
    firstAddress: Monero.subaddress(address, input.view_key, 0, 1),
    derives: true,
    material: { address: input.address, view_key: input.view_key.toLowerCase() }
  }
}

const token = (input: KeyInput): Described => {
  if (input.key !== undefined || input.view_key !== undefined) throw new KeyInvalid("Token wallets take only an address.")
  if (input.address === undefined) throw new KeyInvalid("A token wallet needs its address.")
  const address = Tokens.check(input.rail, input.address.trim())
  return { keyKind: "address", scriptType: "token", network: "mainnet", fingerprint: fingerprintOf(address.toLowerCase()), firstAddress: address, derives: false, material: { address } }
}

/** Checks and describes a new wallet's material; throws SecretRefused or KeyInvalid. */
export const describe = (input: KeyInput): Described => {
  refuseSecrets(input)
  return input.rail === "btc" ? bitcoin(input) : input.rail === "xmr" ? monero(input) : token(input)
}

/** The receive address `index` of a wallet from its unsealed material (index 0 first). */
export const addressAt = (rail: string, material: Material, index: number): string => {
  if (rail === "btc" && material.key !== undefined) return Bitcoin.derive(Bitcoin.parse(material.key), index)
  if (rail === "xmr" && material.address !== undefined && material.view_key !== undefined) {
    return Monero.subaddress(Monero.decodeAddress(material.address), material.view_key, 0, index + 1)
  }
  return material.address ?? ""
}

import { base58, createBase58check } from "@scure/base"
import { wordlist } from "@scure/bip39/wordlists/english.js"
import { sha256 } from "@noble/hashes/sha2.js"

/**
 * Recognising anything that can spend, by its form, so that it is refused before it is stored
 * (`crypto_secret_refused`): BIP 39 seed phrases (and any other phrase of a dozen or more words,
 * as Monero's 25-word and polyseed's 16-word seeds are), WIF private keys, extended private keys of
 * every SLIP-0132 version, and raw private keys (64 hex digits: an Ethereum, Tron or Monero spend
 * key; 64 bytes in base58 or 128 hex digits: a Solana secret key). Pure; nothing here stores or
 * logs the text it looks at.
 */

const base58check = createBase58check(sha256)
const bip39Words = new Set(wordlist)

/** SLIP-0132 version bytes of extended private keys (xprv, yprv, zprv, Yprv, Zprv and the test-network forms). */
const privateVersions = new Set([
  0x0488ade4, 0x049d7878, 0x04b2430c, 0x0295b005, 0x02aa7a99,
  0x04358394, 0x044a4e28, 0x045f18bc, 0x024285b5, 0x02575048
])

const tryBase58check = (text: string): Uint8Array | null => {
  try {
    return base58check.decode(text)
  } catch {
    return null
  }
}

const tryBase58 = (text: string): Uint8Array | null => {
  try {
    return base58.decode(text)
  } catch {
    return null
  }
}

const versionOf = (bytes: Uint8Array): number => ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0

/** What kind of spending secret one token is, or null. */
const tokenSecret = (token: string): string | null => {
  if (/^[xyzYZtuvUV]prv[1-9A-HJ-NP-Za-km-z]{20,}$/u.test(token)) return "an extended private key"
  const decoded = tryBase58check(token)
  if (decoded !== null) {
    if (decoded.length === 78 && privateVersions.has(versionOf(decoded))) return "an extended private key"
    const wif = (decoded.length === 33 || (decoded.length === 34 && decoded[33] === 0x01)) && (decoded[0] === 0x80 || decoded[0] === 0xef)
    if (wif) return "a WIF private key"
  }
  const hex = token.replace(/^0x/iu, "")
  if (/^[0-9a-f]{64}$/iu.test(hex)) return "a raw private key (64 hexadecimal digits)"
  if (/^[0-9a-f]{128}$/iu.test(hex)) return "a raw secret key (128 hexadecimal digits)"
  if (/^[1-9A-HJ-NP-Za-km-z]{80,90}$/u.test(token) && tryBase58(token)?.length === 64) return "a secret key (64 bytes in base58)"
  return null
}

/** A seed phrase: 12 or more words, BIP 39 or any other list. */
const phraseSecret = (text: string): string | null => {
  const words = text.trim().toLowerCase().split(/[\s,]+/u).filter((word) => word !== "")
  if (words.length < 12 || !words.every((word) => /^[a-z\u00c0-\u024f]+$/u.test(word))) return null
  const known = words.filter((word) => bip39Words.has(word)).length
  return known * 5 >= words.length * 4 ? "a BIP 39 seed phrase" : "a seed phrase"
}

/**
 * Why `text` is a spending secret (e.g. "a WIF private key"), or null. Descriptors are searched
 * token by token, so an `xprv` inside `wpkh(...)` is found too.
 */
export const secretIn = (text: string): string | null => {
  const phrase = phraseSecret(text)
  if (phrase !== null) return phrase
  for (const token of text.split(/[^0-9A-Za-z]+/u)) {
    if (token.length < 50) continue
    const found = tokenSecret(token)
    if (found !== null) return found
  }
  return null
}

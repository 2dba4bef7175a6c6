/**
 * The output descriptor checksum of BIP 380: eight characters of the bech32 alphabet after `#`, a
 * BCH code over the descriptor's characters (every character maps to a position in a group of 32
 * and a group number; every three group numbers add a fourth symbol). A descriptor may come
 * without one (BIP 380 lists `raw(deadbeef)` as valid); one that has a `#` must carry a correct
 * checksum of exactly eight characters (docs/decisions/1507). Pure.
 */

const inputCharset = "0123456789()[],'/*abcdefgh@:$%{}IJKLMNOPQRSTUVWXYZ&+-.;<=>?!^_|~ijklmnopqrstuvwxyzABCDEFGH`#\"\\ "
const checksumCharset = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
const generator = [0xf5dee51989n, 0xa9fdca3312n, 0x1bab10e32dn, 0x3706b1677an, 0x644d626ffdn] as const

const polymod = (symbols: ReadonlyArray<number>): bigint => {
  let chk = 1n
  for (const value of symbols) {
    const top = chk >> 35n
    chk = ((chk & 0x7ffffffffn) << 5n) ^ BigInt(value)
    for (let i = 0; i < 5; i++) if (((top >> BigInt(i)) & 1n) === 1n) chk ^= generator[i]!
  }
  return chk
}

/** The symbols of a descriptor's text, or null when a character is outside the descriptor alphabet. */
const expand = (text: string): Array<number> | null => {
  const symbols: Array<number> = []
  let groups: Array<number> = []
  for (const char of text) {
    const value = inputCharset.indexOf(char)
    if (value < 0) return null
    symbols.push(value & 31)
    groups.push(value >> 5)
    if (groups.length === 3) {
      symbols.push(groups[0]! * 9 + groups[1]! * 3 + groups[2]!)
      groups = []
    }
  }
  if (groups.length === 1) symbols.push(groups[0]!)
  else if (groups.length === 2) symbols.push(groups[0]! * 3 + groups[1]!)
  return symbols
}

/** The checksum of a descriptor without one, or null when it has characters outside the alphabet. */
export const checksumOf = (descriptor: string): string | null => {
  const symbols = expand(descriptor)
  if (symbols === null) return null
  const value = polymod([...symbols, 0, 0, 0, 0, 0, 0, 0, 0]) ^ 1n
  let out = ""
  for (let i = 0; i < 8; i++) out += checksumCharset[Number((value >> BigInt(5 * (7 - i))) & 31n)]
  return out
}

export type Checked =
  | { readonly ok: true; readonly body: string; readonly checksum: string | null }
  | { readonly ok: false; readonly reason: string }

/** Splits `body#checksum` and checks it; a descriptor without `#` is accepted as it is. */
export const check = (text: string): Checked => {
  const hash = text.indexOf("#")
  const body = hash < 0 ? text : text.slice(0, hash)
  const expected = checksumOf(body)
  if (expected === null) return { ok: false, reason: "The descriptor has characters outside the descriptor alphabet." }
  if (hash < 0) return { ok: true, body, checksum: null }
  const given = text.slice(hash + 1)
  if (given.length !== 8) return { ok: false, reason: `A descriptor checksum is 8 characters after #; this one has ${given.length}.` }
  if (given !== expected) return { ok: false, reason: "The descriptor's checksum does not match: it was mistyped or changed." }
  return { ok: true, body, checksum: given }
}

import { base58, createBase58check } from "@scure/base"
import { keccak_256 } from "@noble/hashes/sha3.js"
import { sha256 } from "@noble/hashes/sha2.js"
import { KeyInvalid } from "./Bitcoin.ts"

/**
 * Addresses of the stablecoin rails, checked by form: EVM chains (Base, Ethereum) `0x` and 40 hex
 * digits (EIP-55 checksum when mixed case), Tron base58check with version byte 0x41, Solana a
 * 32-byte public key in base58. A token wallet watches one address.
 */

const base58check = createBase58check(sha256)

const evm = (address: string): string => {
  if (!/^0x[0-9a-fA-F]{40}$/u.test(address)) throw new KeyInvalid("An EVM address is 0x and 40 hexadecimal digits.")
  const body = address.slice(2)
  const mixed = body !== body.toLowerCase() && body !== body.toUpperCase()
  if (mixed) {
    const hash = keccak_256(new TextEncoder().encode(body.toLowerCase()))
    for (let index = 0; index < 40; index++) {
      const nibble = (hash[index >> 1]! >> (index % 2 === 0 ? 4 : 0)) & 0x0f
      const char = body[index]!
      if (/[a-f]/iu.test(char) && (nibble >= 8) !== (char === char.toUpperCase())) throw new KeyInvalid("The address's EIP-55 checksum does not match.")
    }
  }
  return address
}

const tron = (address: string): string => {
  try {
    const bytes = base58check.decode(address)
    if (bytes.length === 21 && bytes[0] === 0x41) return address
  } catch {
    // fall through
  }
  throw new KeyInvalid("Not a Tron address (base58check, starting with T).")
}

const solana = (address: string): string => {
  try {
    if (base58.decode(address).length === 32) return address
  } catch {
    // fall through
  }
  throw new KeyInvalid("Not a Solana address (a 32-byte public key in base58).")
}

/** Checks a token rail's address; throws KeyInvalid. */
export const check = (rail: string, address: string): string =>
  rail === "usdt_tron" ? tron(address) : rail === "usdc_solana" ? solana(address) : evm(address)

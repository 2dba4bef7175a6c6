import { randomBytes } from "node:crypto"
import { CryptoPorts } from "@ledger/server"

// The one scripted chain every fake API answers from, and which API sees an output.

export interface Output {
  readonly txid: string
  readonly outputIndex: number
  readonly address: string
  readonly units: bigint
  height: number | null
  readonly sequence: number
  readonly monero: { readonly primary: string; readonly minor: number } | null
}

/** A request as received and the answer given, for contract tests (issue 39). */
export interface ChainRequest {
  readonly path: string
  readonly rpc: string | null
  readonly method: string
  readonly contentType: string
  readonly body: string
  status: number
  answer: string
}

export interface ChainState {
  readonly outputs: Array<Output>
  readonly requests: Array<ChainRequest>
  /** Monero wallet file name to its primary address. */
  readonly wallets: Map<string, string>
  /** The Monero wallet open (its primary address). */
  open: string | null
  tip: number
  sequence: number
  failing: boolean
  calls: number
  login: string | null
  readonly nonce: string
}

export const newState = (): ChainState => ({
  outputs: [],
  requests: [],
  wallets: new Map(),
  open: null,
  tip: 100_000,
  sequence: 0,
  failing: false,
  calls: 0,
  login: null,
  nonce: randomBytes(12).toString("hex")
})

export const tokenRails = ["usdc_base", "usdc_ethereum", "usdt_ethereum", "usdt_tron"] as const

const base58Alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

/** A Solana address: base58 of a 32-byte public key. */
/** Bytes in base58 (Bitcoin's alphabet, which Solana's keys and signatures use): a leading zero byte is a "1". */
export const base58 = (bytes: Uint8Array): string => {
  let value = 0n
  for (const byte of bytes) value = value * 256n + BigInt(byte)
  let text = ""
  while (value > 0n) {
    text = base58Alphabet[Number(value % 58n)] + text
    value /= 58n
  }
  const zeros = bytes.findIndex((byte) => byte !== 0)
  return "1".repeat(zeros === -1 ? bytes.length : zeros) + text
}

export const isSolanaKey = (address: string): boolean => {
  if (!/^[1-9A-HJ-NP-Za-km-z]{32,44}$/u.test(address)) return false
  let value = 0n
  for (const char of address) value = value * 58n + BigInt(base58Alphabet.indexOf(char))
  const leadingZeros = address.length - address.replace(/^1+/u, "").length
  const bytes = value === 0n ? 0 : Math.ceil(value.toString(16).length / 2)
  return leadingZeros + bytes === 32
}

export const confirmationsOf = (state: ChainState, output: Output): number => output.height === null ? 0 : state.tip - output.height + 1
export const heightFor = (state: ChainState, confirmations: number): number | null => confirmations > 0 ? state.tip - confirmations + 1 : null
/** A token address's 20-byte EVM form: 0x ones as they are, TRON ones decoded; null for the rest. */
export const evmForm = (address: string): string | null =>
  address.startsWith("0x") ? address.toLowerCase() : address.startsWith("T") ? CryptoPorts.tronToHex(address) : null
export const isSolana = (output: Output): boolean => output.monero === null && evmForm(output.address) === null && isSolanaKey(output.address)
export const isBitcoin = (output: Output): boolean => output.monero === null && evmForm(output.address) === null && !isSolanaKey(output.address)

import { HDKey } from "@scure/bip32"
import * as btc from "@scure/btc-signer"
import * as DescriptorChecksum from "./DescriptorChecksum.ts"

/**
 * Bitcoin watch-only keys: extended public keys (xpub, ypub, zpub and the test-network tpub, upub,
 * vpub, with their SLIP-0132 version bytes) and output descriptors (`pkh`, `sh(wpkh)`, `wpkh`, `tr`
 * over an extended public key, with an optional origin and child path), parsed and derived with
 * @scure/bip32 and @scure/btc-signer. A bare xpub is BIP 44 (p2pkh), ypub BIP 49 (p2sh-p2wpkh),
 * zpub BIP 84 (p2wpkh); taproot (BIP 86) is `tr(xpub/0/*)`.
 */

export type ScriptType = "p2pkh" | "p2sh_p2wpkh" | "p2wpkh" | "p2tr"
export type Network = "mainnet" | "testnet"

interface Version {
  readonly prefix: string
  readonly public: number
  readonly private: number
  readonly script: ScriptType
  readonly network: Network
}

export const versions: ReadonlyArray<Version> = [
  { prefix: "xpub", public: 0x0488b21e, private: 0x0488ade4, script: "p2pkh", network: "mainnet" },
  { prefix: "ypub", public: 0x049d7cb2, private: 0x049d7878, script: "p2sh_p2wpkh", network: "mainnet" },
  { prefix: "zpub", public: 0x04b24746, private: 0x04b2430c, script: "p2wpkh", network: "mainnet" },
  { prefix: "tpub", public: 0x043587cf, private: 0x04358394, script: "p2pkh", network: "testnet" },
  { prefix: "upub", public: 0x044a5262, private: 0x044a4e28, script: "p2sh_p2wpkh", network: "testnet" },
  { prefix: "vpub", public: 0x045f1cf6, private: 0x045f18bc, script: "p2wpkh", network: "testnet" }
]

export interface BitcoinKey {
  readonly kind: "extended_public_key" | "descriptor"
  readonly script: ScriptType
  readonly network: Network
  readonly key: HDKey
  /** The child path before the index, e.g. [0] for `/0/*` (receive addresses). */
  readonly prefixPath: ReadonlyArray<number>
}

export class KeyInvalid extends Error {}

/** An extended public key of any SLIP-0132 version; throws KeyInvalid. */
export const parseExtendedKey = (text: string): { readonly key: HDKey; readonly version: Version } => {
  const version = versions.find((candidate) => text.startsWith(candidate.prefix))
  if (version === undefined) throw new KeyInvalid("Not an extended public key (xpub, ypub, zpub, tpub, upub or vpub).")
  try {
    return { key: HDKey.fromExtendedKey(text, { public: version.public, private: version.private }), version }
  } catch (error) {
    throw new KeyInvalid(`The extended public key does not decode: ${error instanceof Error ? error.message : String(error)}`)
  }
}

const wrappers: ReadonlyArray<{ readonly open: string; readonly close: string; readonly script: ScriptType }> = [
  { open: "sh(wpkh(", close: "))", script: "p2sh_p2wpkh" },
  { open: "wpkh(", close: ")", script: "p2wpkh" },
  { open: "pkh(", close: ")", script: "p2pkh" },
  { open: "tr(", close: ")", script: "p2tr" }
]

/** `wpkh([d34db33f/84'/0'/0']xpub.../0/*)#checksum` and its siblings; throws KeyInvalid. */
export const parseDescriptor = (text: string): BitcoinKey => {
  // BIP 380: a checksum, when given, must match; a mistyped descriptor would watch someone else's addresses.
  const checked = DescriptorChecksum.check(text)
  if (!checked.ok) throw new KeyInvalid(checked.reason)
  const body = checked.body
  const wrapper = wrappers.find((candidate) => body.startsWith(candidate.open) && body.endsWith(candidate.close))
  if (wrapper === undefined) throw new KeyInvalid("Only pkh(), sh(wpkh()), wpkh() and tr() descriptors over one extended public key are supported.")
  const inner = body.slice(wrapper.open.length, body.length - wrapper.close.length).replace(/^\[[0-9a-fA-F]{8}(\/\d+['h]?)*\]/u, "")
  const [keyText, ...steps] = inner.split("/")
  if (keyText === undefined || steps.at(-1) !== "*" || steps.length > 3) {
    throw new KeyInvalid("A descriptor's key must end in a ranged child path such as /0/*.")
  }
  const prefixPath = steps.slice(0, -1).map((step) => {
    if (!/^\d{1,9}$/u.test(step)) throw new KeyInvalid("Only unhardened child steps may follow an extended public key.")
    return Number(step)
  })
  const { key, version } = parseExtendedKey(keyText)
  return { kind: "descriptor", script: wrapper.script, network: version.network, key, prefixPath }
}

export const parse = (text: string): BitcoinKey => {
  const trimmed = text.trim()
  if (trimmed.includes("(")) return parseDescriptor(trimmed)
  const { key, version } = parseExtendedKey(trimmed)
  return { kind: "extended_public_key", script: version.script, network: version.network, key, prefixPath: [0] }
}

/** The address of one public key in a script type. */
export const addressOf = (publicKey: Uint8Array, script: ScriptType, network: Network): string => {
  const net = network === "mainnet" ? btc.NETWORK : btc.TEST_NETWORK
  switch (script) {
    case "p2pkh":
      return btc.p2pkh(publicKey, net).address!
    case "p2wpkh":
      return btc.p2wpkh(publicKey, net).address!
    case "p2sh_p2wpkh":
      return btc.p2sh(btc.p2wpkh(publicKey, net), net).address!
    case "p2tr":
      return btc.p2tr(publicKey.slice(1), undefined, net).address!
  }
}

/** The receive address at `index` (BIP 44/49/84/86 `.../0/index` from the account key). */
export const derive = (parsed: BitcoinKey, index: number): string => {
  const child = parsed.key.derive(`m/${[...parsed.prefixPath, index].join("/")}`)
  return addressOf(child.publicKey!, parsed.script, parsed.network)
}

/** A single address: checked by its own checksum (base58check or BIP 173/350 bech32/bech32m). */
export const checkAddress = (address: string): Network => {
  for (const [network, net] of [["mainnet", btc.NETWORK], ["testnet", btc.TEST_NETWORK]] as const) {
    try {
      btc.Address(net).decode(address)
      return network
    } catch {
      // try the next network
    }
  }
  throw new KeyInvalid("Not a valid Bitcoin address.")
}

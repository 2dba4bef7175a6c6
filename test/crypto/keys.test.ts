import { describe, expect, it } from "vitest"
import { Bitcoin, CryptoKeys as Keys, Monero } from "@ledger/engine/rules"
import { fixture } from "./support.ts"

/** Address derivation against the published vectors in test/fixtures/bitcoin (SOURCES.md). */

const bip84 = fixture("bip84_test_vectors.json").entries
const bip86 = fixture("bip86_test_vectors.json").entries
const bip49 = fixture("bip49_test_vectors.json").entries
const slip132 = fixture("slip0132_xpub_ypub_zpub_test_vectors.json").entries
const bip32 = fixture("bip32_test_vectors.json")
const segwit = fixture("bip173_bip350_segwit_address_vectors.json")
const monero = fixture("monero/monero_viewkey_vectors.json").subaddress_vectors

const labelled = (entries: Array<any>, label: string) => entries.find((entry) => entry.label === label)

describe("BIP 84 (zpub, p2wpkh)", () => {
  const zpub = labelled(bip84, "Account 0, root = m/84'/0'/0'").xpub
  it("derives the first two receive addresses from the bare zpub and from a wpkh() descriptor", () => {
    const first = labelled(bip84, "Account 0, first receiving address = m/84'/0'/0'/0/0").address
    const second = labelled(bip84, "Account 0, second receiving address = m/84'/0'/0'/0/1").address
    expect([0, 1].map((index) => Keys.addressAt("btc", { key: zpub }, index))).toEqual([first, second])
    const descriptor = `wpkh([73c5da0a/84h/0h/0h]${zpub}/0/*)`
    expect([0, 1].map((index) => Keys.addressAt("btc", { key: descriptor }, index))).toEqual([first, second])
  })
  it("derives the first change address from a /1/* descriptor", () => {
    const change = labelled(bip84, "Account 0, first change address = m/84'/0'/0'/1/0").address
    expect(Keys.addressAt("btc", { key: `wpkh(${zpub}/1/*)` }, 0)).toBe(change)
  })
})

describe("BIP 86 (taproot over an xpub)", () => {
  const xpub = labelled(bip86, "Account 0, root = m/86'/0'/0'").xpub
  it("derives the receive and change addresses of tr() descriptors", () => {
    for (const entry of bip86.filter((candidate: any) => typeof candidate.address === "string")) {
      const [, change, index] = /\/(\d)\/(\d+)$/u.exec(entry.label.split(" = ")[1])!
      expect(Keys.addressAt("btc", { key: `tr(${xpub}/${change}/*)` }, Number(index)), entry.label).toBe(entry.address)
    }
  })
})

describe("SLIP-0132 version bytes", () => {
  it("reads xpub as BIP 44 p2pkh, ypub as BIP 49 p2sh-p2wpkh and zpub as BIP 84 p2wpkh", () => {
    for (const entry of slip132) {
      const described = Keys.describe({ rail: "btc", key: entry.ext_pub })
      expect(described.firstAddress, entry.account_path).toBe(entry.address)
      expect(described.network).toBe("mainnet")
    }
  })
  it("reads the test-network upub of BIP 49 as p2sh-p2wpkh on testnet", () => {
    const upub = labelled(bip49, "Account 0, root = m/49'/1'/0'").account0Xpub
    const described = Keys.describe({ rail: "btc", key: upub })
    expect(described).toMatchObject({ network: "testnet", scriptType: "p2sh_p2wpkh", firstAddress: "2Mww8dCYPUpKHofjgcXcBCEGmniw9CoaiD2" })
  })
})

describe("BIP 32", () => {
  it("parses every published extended public key and derives its unhardened children exactly", () => {
    for (const vector of bip32.valid_vectors) {
      const chains: Array<any> = vector.chains
      for (const [index, chain] of chains.entries()) {
        const parsed = Bitcoin.parseExtendedKey(chain.ext_pub)
        expect(parsed.key.publicExtendedKey).toBe(chain.ext_pub)
        const next = chains[index + 1]
        const step = next?.chain.split("/").at(-1)
        if (next !== undefined && step !== undefined && /^\d+$/u.test(step)) {
          expect(parsed.key.deriveChild(Number(step)).publicExtendedKey, next.chain).toBe(next.ext_pub)
        }
      }
    }
  })
  it("refuses the invalid extended keys of vector 5", () => {
    for (const invalid of bip32.invalid_extended_keys) {
      const key: string = invalid.key ?? invalid.ext_key ?? invalid.extended_key
      expect(() => Keys.describe({ rail: "btc", key }), `${key}: ${invalid.reason}`).toThrow()
    }
  })
  it("keeps no private part of a parsed key", () => {
    expect(Bitcoin.parseExtendedKey(bip32.valid_vectors[0].chains[0].ext_pub).key.privateKey).toBeNull()
  })
})

describe("BIP 173 and BIP 350 address checks", () => {
  it("accepts every valid segwit address and refuses every invalid one", () => {
    for (const valid of [...segwit.bip173_valid_segwit_addresses, ...segwit.bip350_valid_segwit_addresses]) {
      const standard = /^(bc|tb)1/iu.test(valid.address) && /^(0014|0020|5120)/u.test(valid.scriptPubKey)
      if (standard) expect(() => Bitcoin.checkAddress(valid.address), valid.address).not.toThrow()
    }
    for (const invalid of [...segwit.bip173_invalid_segwit_addresses, ...segwit.bip350_invalid_segwit_addresses]) {
      expect(() => Bitcoin.checkAddress(invalid.address), `${invalid.address}: ${invalid.reason}`).toThrow()
    }
  })
})

describe("Monero view keys and subaddresses", () => {
  for (const vector of monero) {
    it(`derives the ${vector.network} subaddress grid from the address and private view key`, () => {
      const grid: Array<Array<string>> = fixture(`monero/${vector.expected_subaddresses_file}`)
      const address = Monero.decodeAddress(vector.address)
      expect(address.network).toBe(vector.network)
      for (const [major, row] of grid.entries()) {
        for (const [minor, expected] of row.entries()) {
          expect(Monero.subaddress(address, vector.secret_view_key, major, minor), `${major}/${minor}`).toBe(expected)
        }
      }
    })
    it(`tells the ${vector.network} view key from the spend key`, () => {
      const address = Monero.decodeAddress(vector.address)
      expect(Monero.whichKey(address, vector.secret_view_key)).toBe("view")
      expect(Monero.whichKey(address, vector.secret_spend_key)).toBe("spend")
    })
  }
  it("hands out subaddress (0, i + 1) for a wallet's receive index i", () => {
    const vector = monero[0]
    const grid: Array<Array<string>> = fixture(`monero/${vector.expected_subaddresses_file}`)
    const material = { address: vector.address, view_key: vector.secret_view_key }
    expect([0, 1, 2].map((index) => Keys.addressAt("xmr", material, index))).toEqual(grid[0]!.slice(1, 4))
  })
})

describe("Monero subaddresses as a real wallet RPC listed them", () => {
  // monero-python's recorded wallet-RPC answers: get_accounts (the primary address), query_key (the
  // view key) and getaddress (the subaddresses of account 0), for a stagenet and a testnet wallet.
  const cases = [
    ["test_v2_single_output-wallet-00-get_accounts", "test_v2_single_output-wallet-01-query_key", "test_v2_single_output-wallet-02-addresses-account-0"],
    ["test_viewtags-wallet-00-get_accounts", "test_viewtags-wallet-20-query_key", "test_viewtags-wallet-40-getaddress"]
  ] as const
  it.each(cases)("derives the subaddresses of %s", (accounts, key, listed) => {
    const primary = fixture(`monero/monero-python_${accounts}.json`).result.subaddress_accounts[0].base_address as string
    const viewKey = fixture(`monero/monero-python_${key}.json`).result.key as string
    const addresses = fixture(`monero/monero-python_${listed}.json`).result.addresses as Array<{ address: string; address_index: number }>
    expect(addresses.length).toBeGreaterThan(2)
    const decoded = Monero.decodeAddress(primary)
    for (const entry of addresses) expect(Monero.subaddress(decoded, viewKey, 0, entry.address_index)).toBe(entry.address)
    expect(Monero.whichKey(decoded, viewKey)).toBe("view")
  })
})

describe("bitcoinjs/bip32 fixtures", () => {
  const fixtures = fixture("bitcoinjs-bip32_fixtures_index.json")
  it("derives every unhardened child's public key from its parent's extended public key", () => {
    let checked = 0
    for (const vector of fixtures.valid.filter((entry: any) => entry.network === "bitcoin")) {
      const nodes = [vector.master, ...vector.children]
      nodes.forEach((node: any, index: number) => {
        const child = nodes[index + 1]
        const parsed = Bitcoin.parseExtendedKey(node.base58)
        expect(Buffer.from(parsed.key.publicKey!).toString("hex")).toBe(node.pubKey)
        expect(parsed.key.privateKey).toBeNull()
        if (child === undefined || child.hardened === true || child.index === undefined) return
        expect(Buffer.from(parsed.key.deriveChild(child.index).publicKey!).toString("hex")).toBe(child.pubKey)
        checked++
      })
    }
    expect(checked).toBeGreaterThan(2)
  })
  it("refuses every private key given as a wallet key", () => {
    for (const vector of fixtures.valid.filter((entry: any) => entry.network === "bitcoin")) {
      for (const node of [vector.master, ...vector.children]) {
        expect(() => Keys.describe({ rail: "btc", key: node.base58Priv })).toThrow(Keys.SecretRefused)
        expect(() => Keys.describe({ rail: "btc", key: node.wif })).toThrow(Keys.SecretRefused)
      }
    }
  })
})

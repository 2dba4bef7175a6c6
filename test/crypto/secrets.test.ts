import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { KeySecrets } from "@ledger/engine/rules"
import { type Company, type CryptoApp, fixture, makeCryptoApp, zpub } from "./support.ts"
const { secretIn } = KeySecrets

/** Anything that can spend is refused by its form, before anything is stored; what is stored is sealed. */

const bip84 = fixture("bip84_test_vectors.json").entries
const bip49 = fixture("bip49_test_vectors.json").entries
const slip132 = fixture("slip0132_xpub_ypub_zpub_test_vectors.json").entries
const bip32 = fixture("bip32_test_vectors.json")
const monero = fixture("monero/monero_viewkey_vectors.json").subaddress_vectors[0]
const mnemonic = bip84[0].mnemonic as string

const secrets: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
  ["a BIP 39 seed phrase", { rail: "btc", key: mnemonic }],
  ["a 24-word seed phrase", { rail: "btc", key: `${mnemonic} ${mnemonic}`.split(" ").slice(0, 24).join(" ") }],
  ["a Monero 25-word seed", { rail: "xmr", address: monero.address, view_key: "sequence atlas unveil summon pebbles tuesday beer rudely snake rockets different fuselage woven tagged bested dented vegan hover rapid fawns obvious muppet randomly seasons randomly" }],
  ["a WIF private key (mainnet)", { rail: "btc", key: bip84.find((entry: any) => typeof entry.privkey === "string").privkey }],
  ["a WIF private key (testnet)", { rail: "btc", key: bip49.find((entry: any) => typeof entry.account0recvPrivateKey === "string").account0recvPrivateKey }],
  ["a raw private key in hex", { rail: "usdc_ethereum", address: bip49.find((entry: any) => typeof entry.account0recvPrivateKeyHex === "string").account0recvPrivateKeyHex }],
  ["an xprv", { rail: "btc", key: bip32.valid_vectors[0].chains[0].ext_prv }],
  ["a yprv", { rail: "btc", key: slip132[1].ext_prv }],
  ["a zprv", { rail: "btc", key: slip132[2].ext_prv }],
  ["a uprv (testnet)", { rail: "btc", key: bip49.find((entry: any) => typeof entry.account0Xpriv === "string").account0Xpriv }],
  ["an xprv inside a descriptor", { rail: "btc", key: `wpkh(${bip32.valid_vectors[0].chains[1].ext_prv}/0/*)` }],
  ["a Monero spend key given as the view key", { rail: "xmr", address: monero.address, view_key: monero.secret_spend_key }],
  ["a Monero spend key given as the address", { rail: "xmr", address: monero.secret_spend_key, view_key: monero.secret_view_key }]
]

describe("recognising spending secrets", () => {
  it("finds none in watch-only material", () => {
    for (const entry of slip132) expect(secretIn(entry.ext_pub)).toBeNull()
    expect(secretIn(`wpkh([73c5da0a/84h/0h/0h]${zpub}/0/*)`)).toBeNull()
    expect(secretIn("bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu")).toBeNull()
    expect(secretIn("0x52908400098527886E0F7030069857D2E4169EE7")).toBeNull()
    expect(secretIn("Treasury wallet for the shop")).toBeNull()
  })
})

describe("POST /v1/crypto/wallets refuses anything that can spend", () => {
  let t: CryptoApp
  let owner: Company
  beforeAll(async () => {
    t = await makeCryptoApp()
    owner = await t.company()
  })
  afterAll(() => t.close())

  for (const [what, body] of secrets) {
    it(`refuses ${what} with crypto_secret_refused and stores nothing`, async () => {
      const result = await t.post("/v1/crypto/wallets", owner.session, { name: "Refused", ...body })
      expect(result.status, JSON.stringify(result.body)).toBe(422)
      expect(result.body.error.type).toBe("crypto_secret_refused")
      expect(JSON.stringify(result.body)).not.toContain(String(body.key ?? body.view_key ?? body.address).slice(0, 40))
      const stored = await t.app.query(`SELECT count(*)::int AS n FROM crypto_wallets WHERE company_id = $1`, [owner.companyId])
      expect(stored[0]!.n).toBe(0)
    })
  }

  it("seals the key at rest: the row holds neither the key nor its address derivation material", async () => {
    const wallet = await t.wallet(owner)
    const rows = await t.app.query<{ sealed_key: string }>(`SELECT sealed_key FROM crypto_wallets WHERE company_id = $1 AND id = $2`, [owner.companyId, wallet.id])
    expect(rows[0]!.sealed_key.startsWith("v1.")).toBe(true)
    expect(rows[0]!.sealed_key).not.toContain(zpub.slice(4, 30))
    expect(JSON.stringify(wallet)).not.toContain(zpub)
    // The same key twice is one wallet.
    const again = await t.post("/v1/crypto/wallets", owner.session, { rail: "btc", name: "Again", key: zpub })
    expect(again.status).toBe(409)
  })

  it("accepts a Monero address with its private view key, and refuses a view key of another wallet", async () => {
    const wallet = await t.ok("/v1/crypto/wallets", owner.session, { rail: "xmr", name: "Monero", address: monero.address, view_key: monero.secret_view_key })
    expect(wallet).toMatchObject({ asset: "XMR", key_kind: "view_key", network: "mainnet" })
    const other = fixture("monero/monero_viewkey_vectors.json").subaddress_vectors[1]
    const wrong = await t.post("/v1/crypto/wallets", owner.session, { rail: "xmr", name: "Wrong", address: monero.address, view_key: other.secret_view_key })
    expect(wrong.body.error.type).toBe("crypto_key_invalid")
  })

  it("checks token addresses by form", async () => {
    const evm = await t.post("/v1/crypto/wallets", owner.session, { rail: "usdc_base", name: "Base", address: "0x52908400098527886E0F7030069857D2E4169EE7" })
    expect(evm.status, JSON.stringify(evm.body)).toBe(201)
    const badChecksum = await t.post("/v1/crypto/wallets", owner.session, { rail: "usdc_base", name: "Bad", address: "0x52908400098527886E0F7030069857D2E4169Ee7" })
    expect(badChecksum.body.error.type).toBe("crypto_key_invalid")
  })
})

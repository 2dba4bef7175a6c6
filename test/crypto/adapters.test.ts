import { Effect, Layer } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { ChainWatcher, CryptoPrices, type WatchRequest } from "@ledger/engine/ports"
import { CryptoPorts } from "@ledger/server"
import { FakeChain } from "@ledger/testkit"
import { fixture, zpubAddresses } from "./support.ts"

/**
 * The server's real adapters (Esplora, monero-wallet-rpc, EVM JSON-RPC for the token rails, the
 * price service) against the testkit's fakes of the same HTTP APIs on loopback.
 */

const chain = FakeChain.make()
const prices = FakeChain.makePrices()
afterAll(() => Promise.all([chain.close(), prices.close()]))

const run = <A, E>(effect: Effect.Effect<A, E, ChainWatcher | CryptoPrices>) =>
  Effect.runPromise(Effect.provide(effect, Layer.mergeAll(chain.layer, prices.layer)))

const watch = (request: WatchRequest) =>
  Effect.gen(function*() {
    const watcher = yield* ChainWatcher
    return yield* watcher.payments(request)
  })

const sortByTx = <A extends { readonly txid: string }>(list: ReadonlyArray<A>) => [...list].sort((a, b) => a.txid.localeCompare(b.txid))

describe("the Esplora adapter", () => {
  it("reports the outputs paying the address, with confirmations from the tip, mempool ones at 0", async () => {
    const address = zpubAddresses[1]!
    const confirmed = chain.pay({ address, units: "500000", confirmations: 3 })
    chain.pay({ address: "bc1qsomeoneelse", units: "5", txid: confirmed })
    const pending = chain.pay({ address, units: "1000" })
    const payments = await run(watch({ rail: "btc", addresses: [address] }))
    expect(sortByTx(payments)).toEqual(sortByTx([
      { txid: confirmed, outputIndex: 0, address, units: "500000", confirmations: 3 },
      { txid: pending, outputIndex: 0, address, units: "1000", confirmations: 0 }
    ]))
    chain.mine(2)
    const later = await run(watch({ rail: "btc", addresses: [address] }))
    expect(later.find((payment) => payment.txid === pending)?.confirmations).toBe(2)
    expect(later.find((payment) => payment.txid === confirmed)?.confirmations).toBe(5)
  })

  it("pages through every confirmed transaction of an address, not only the first 25", async () => {
    const address = "bc1qpagedaddress"
    const txids = Array.from({ length: 61 }, (_, index) => chain.pay({ address, units: String(index + 1), confirmations: 1 + (index % 7) }))
    const before = chain.requests.length
    const payments = await run(watch({ rail: "btc", addresses: [address] }))
    expect(payments).toHaveLength(61)
    expect(new Set(payments.map((payment) => payment.txid))).toEqual(new Set(txids))
    expect(payments.reduce((sum, payment) => sum + BigInt(payment.units), 0n)).toBe(BigInt((61 * 62) / 2))
    // The tip, the first page and two more pages (25 + 25 + 11).
    const asked = chain.requests.slice(before).map((request) => request.path)
    expect(asked.filter((path) => path.includes("/txs/chain/"))).toHaveLength(2)
  })

  it("stops at its page bound", async () => {
    const address = "bc1qbusyaddress"
    for (let index = 0; index < CryptoPorts.esploraPageSize * CryptoPorts.esploraPagesMax + 10; index++) chain.pay({ address, units: "1", confirmations: 1 })
    const payments = await run(watch({ rail: "btc", addresses: [address] }))
    expect(payments).toHaveLength(CryptoPorts.esploraPageSize * CryptoPorts.esploraPagesMax)
  })

  it("fails as unavailable when Esplora is down", async () => {
    chain.failNext()
    const failure = await run(Effect.flip(watch({ rail: "btc", addresses: [zpubAddresses[1]!] })))
    expect(failure.code).toBe("unavailable")
  })
})

describe("the Monero wallet RPC adapter", () => {
  const vector = fixture("monero/monero_viewkey_vectors.json").subaddress_vectors[0]
  const grid: Array<Array<string>> = fixture(`monero/${vector.expected_subaddresses_file}`)
  const request = (addresses: ReadonlyArray<string>): WatchRequest => ({
    rail: "xmr", addresses, primaryAddress: vector.address, viewKey: vector.secret_view_key,
    subaddressIndex: Object.fromEntries(addresses.map((address) => [address, grid[0]!.indexOf(address)]))
  })

  it("makes a view-only wallet, reads transfers by subaddress index and keeps amounts past 2^53 exact", async () => {
    const big = "12345678901234567891" // 12,345,678 XMR in piconero: more than 2^53
    const first = chain.pay({ address: grid[0]![1]!, units: big, confirmations: 12, monero: { primary: vector.address, minor: 1 } })
    const second = chain.pay({ address: grid[0]![2]!, units: "2000000000000", monero: { primary: vector.address, minor: 2 } })
    chain.pay({ address: grid[0]![3]!, units: "7", confirmations: 40, monero: { primary: vector.address, minor: 3 } })
    const before = chain.requests.length
    const payments = await run(watch(request([grid[0]![1]!, grid[0]![2]!])))
    expect(sortByTx(payments)).toEqual(sortByTx([
      { txid: first, outputIndex: 1, address: grid[0]![1], units: big, confirmations: 12 },
      { txid: second, outputIndex: 2, address: grid[0]![2], units: "2000000000000", confirmations: 0 }
    ]))
    const methods = chain.requests.slice(before).map((entry) => entry.rpc)
    expect(methods).toEqual(["open_wallet", "generate_from_keys", "refresh", "get_transfers"])
    // The wallet is made once; the next watch opens it.
    const again = chain.requests.length
    await run(watch(request([grid[0]![1]!])))
    expect(chain.requests.slice(again).map((entry) => entry.rpc)).toEqual(["open_wallet", "refresh", "get_transfers"])
  })

  it("answers the wallet RPC's digest challenge with the configured login, and fails without it", async () => {
    chain.requireLogin("ledger:s3cret")
    const found = await run(watch(request([grid[0]![1]!])))
    expect(found.length).toBeGreaterThan(0)
    const wrong = CryptoPorts.moneroWalletRpc({ url: `${await chain.start()}/monero`, login: "ledger:wrong" })
    const refused = await Effect.runPromise(Effect.flip(Effect.provide(watch(request([grid[0]![1]!])), wrong)))
    expect(refused.message).toContain("401")
    chain.requireLogin(null)
  })
})

describe("the EVM JSON-RPC token adapter", () => {
  const evmAddress = "0x52908400098527886E0F7030069857D2E4169EE7"
  it("reads ERC-20 Transfer logs to the address, with confirmations from eth_blockNumber", async () => {
    const paid = chain.pay({ address: evmAddress, units: "25000000", confirmations: 12 })
    const fresh = chain.pay({ address: evmAddress, units: "1000000", confirmations: 2 })
    chain.pay({ address: evmAddress, units: "9" }) // not mined: no log yet
    const payments = await run(watch({ rail: "usdc_base", addresses: [evmAddress] }))
    expect(sortByTx(payments)).toEqual(sortByTx([
      { txid: paid, outputIndex: 0, address: evmAddress, units: "25000000", confirmations: 12 },
      { txid: fresh, outputIndex: 0, address: evmAddress, units: "1000000", confirmations: 2 }
    ]))
  })

  it("asks in block ranges the provider accepts, from the restore height", async () => {
    const address = "0x000000000000000000000000000000000000dEaD"
    const old = chain.pay({ address, units: "5", confirmations: 30_000 })
    const before = chain.requests.length
    const payments = await run(watch({ rail: "usdt_ethereum", addresses: [address], restoreHeight: 60_000 }))
    expect(payments.map((payment) => payment.txid)).toEqual([old])
    // From height 60,000 to the tip in calls of at most 10,000 blocks (the fake refuses wider).
    const logCalls = chain.requests.slice(before).filter((entry) => entry.rpc === "eth_getLogs")
    expect(logCalls.length).toBeGreaterThan(3)
  })

  it("watches USDT on TRON through the same logs, its base58 address turned into the 20-byte form", async () => {
    const tron = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"
    expect(CryptoPorts.tronToHex(tron)).toBe("0xa614f803b6fd780986a42c78ec9c7f77e6ded13c")
    expect(CryptoPorts.tronToHex("TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u")).toBeNull()
    const paid = chain.pay({ address: tron, units: "7000000", confirmations: 20 })
    const payments = await run(watch({ rail: "usdt_tron", addresses: [tron] }))
    expect(payments).toEqual([{ txid: paid, outputIndex: 0, address: tron, units: "7000000", confirmations: 20 }])
    // Not on the Ethereum chain.
    expect(await run(watch({ rail: "usdt_ethereum", addresses: [tron] }))).toEqual([])
  })

})

describe("the Solana JSON-RPC adapter (USDC)", () => {
  const owner = "4paJKMiSHnKjde4TVzXNBXbanhjA7ddA9vRuJnVayBiH"
  it("reads what the owner's USDC token account gained in each transaction, with confirmations in slots", async () => {
    const first = chain.pay({ address: owner, units: "15000000", confirmations: 40 })
    const second = chain.pay({ address: owner, units: "2500000", confirmations: 3 })
    chain.pay({ address: owner, units: "1" }) // not yet in a block
    const before = chain.requests.length
    const payments = await run(watch({ rail: "usdc_solana", addresses: [owner, "7MQ5rFxkxBCoWH16PtbtFFo8RfTPpRfstEzZx938L4YG"] }))
    expect(sortByTx(payments)).toEqual(sortByTx([
      { txid: first, outputIndex: 1, address: owner, units: "15000000", confirmations: 40 },
      { txid: second, outputIndex: 1, address: owner, units: "2500000", confirmations: 3 }
    ]))
    expect(chain.requests.slice(before).map((entry) => entry.rpc)).toEqual(expect.arrayContaining(["getSlot", "getTokenAccountsByOwner", "getSignaturesForAddress", "getTransaction"]))
    // Not a Bitcoin output, nor a token log on the EVM chains.
    expect(await run(watch({ rail: "btc", addresses: [owner] }))).toEqual([])
  })
})

describe("the price adapter", () => {
  const price = (at: string) =>
    Effect.gen(function*() {
      const source = yield* CryptoPrices
      return yield* source.price("BTC", at)
    })
  it("reads a decimal string price at a moment, and fails as unavailable when the service is down", async () => {
    prices.set("BTC", "64250.12", "2026-02-01T00:00:00Z")
    expect(await run(price("2026-01-01T00:00:00Z"))).toBe("50000")
    expect(await run(price("2026-02-02T00:00:00Z"))).toBe("64250.12")
    prices.failNext()
    expect((await run(Effect.flip(price("2026-01-01T00:00:00Z")))).code).toBe("unavailable")
  })
})

describe("digest authorization", () => {
  it("computes the MD5, qop=auth response of RFC 2617 section 3.5's example", () => {
    const header = CryptoPorts.digestAuthorization(
      'Digest realm="testrealm@host.com", qop="auth,auth-int", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", opaque="5ccc069c403ebaf9f0171e9517f40e41"',
      "Mufasa:Circle Of Life", "GET", "/dir/index.html", "0a4f113b"
    )
    const fields = Object.fromEntries([...header.matchAll(/(\w+)="?([^",]*)"?/gu)].map((match) => [match[1], match[2]]))
    expect(fields).toMatchObject({
      username: "Mufasa", realm: "testrealm@host.com", uri: "/dir/index.html", qop: "auth", nc: "00000001", cnonce: "0a4f113b",
      response: "6629fae49393a05397450978507c4ef1", opaque: "5ccc069c403ebaf9f0171e9517f40e41"
    })
  })
})

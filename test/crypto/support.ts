import { readFileSync } from "node:fs"
import { Clock, Effect, Layer } from "effect"
import { fileURLToPath } from "node:url"
import type { Server } from "@ledger/server"
import { FakeChain, FakePaymentProcessor } from "@ledger/testkit"
import { Crypto } from "@ledger/engine"
import { Ports as ServerPorts } from "@ledger/server/adapters"
import { makeTestApp, newKey, signInAs } from "../support/index.ts"

/**
 * The crypto tests' app: test/support's app with the fake chain and price source (loopback HTTP
 * servers read through the server's real Esplora, wallet-RPC, JSON-RPC and price adapters), and the server's
 * token sealer over a master key for an in-memory data folder. `watch` runs the chain watcher for a
 * company as its periodic job would.
 */

export interface Company {
  readonly companyId: string
  readonly ownerKey: string
  readonly ownerId: number
  /**
   * The owner's signed-in browser session: settings, wallets, acquisitions, disposals, assignments
   * and remeasurements take no API key (spec 4.11 "signed in", `session_required`).
   */
  readonly session: string
}

/** Vectors from test/fixtures/bitcoin (BIP 84, SLIP-0132, Monero). */
export const fixture = <A = any>(name: string): A =>
  JSON.parse(readFileSync(fileURLToPath(new URL(`../fixtures/bitcoin/${name}`, import.meta.url)), "utf8")) as A

export const zpub = "zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs"
export const zpubAddresses = ["bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu", "bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g"]

/** A watch-only key no other test of the app uses (the fake chain is one chain: the same key means the same addresses). */
let keys = 0
export const freshKey = (): string => {
  const chains = fixture("bip32_test_vectors.json").valid_vectors.flatMap((vector: any) => vector.chains.map((chain: any) => chain.ext_pub as string))
  return `wpkh(${chains[keys++ % chains.length]}/0/*)`
}

/**
 * `billing: true` adds the testkit's fake payment processor, so billing applies and switching
 * crypto on needs the add-on; without it (the default, as `pnpm start`) every add-on is on (ADR 2000).
 */
export const makeCryptoApp = async (options: { readonly clock?: Server.ManualClock | string; readonly billing?: boolean } = {}) => {
  const chain = FakeChain.make()
  const prices = FakeChain.makePrices()
  const ports = ServerPorts.wire({ dataDir: "memory", crypto: { chain: chain.layer, prices: prices.layer } })
  const processor = options.billing === true ? FakePaymentProcessor.make() : null
  const providers = processor === null ? ports.layer : Layer.merge(ports.layer, processor.layer)
  const app = await makeTestApp({ providers, ...(options.clock === undefined ? {} : { clock: options.clock }) })

  const post = (path: string, token: string, body: unknown, headers?: Record<string, string>) =>
    app.call("POST", path, { token, body, key: newKey(), ...(headers === undefined ? {} : { headers }) })
  const get = (path: string, token: string) => app.call("GET", path, { token })

  const ok = async (path: string, token: string, body: unknown, status = 201) => {
    const result = await post(path, token, body)
    if (result.status !== status) throw new Error(`${path}: ${result.status} ${JSON.stringify(result.body)}`)
    return result.body
  }

  /** A company with crypto switched on (owned plan: the add-on is included). */
  const company = async (settings: Record<string, unknown> = {}): Promise<Company> => {
    const made = await app.createCompany({ name: "Crypto Co", plan: "owned" })
    const { secret: session } = await signInAs(app, made)
    const turned = await post("/v1/crypto/settings", session, { enabled: true, ...settings })
    if (turned.status !== 200) throw new Error(`settings: ${turned.status} ${JSON.stringify(turned.body)}`)
    return { companyId: made.companyId, ownerKey: made.ownerKey, ownerId: made.ownerId, session }
  }

  const invoice = async (owner: Company, amountCents: number, date = "2026-01-05") => {
    const customer = await ok("/v1/contacts", owner.ownerKey, { kind: "customer", name: `Customer ${Math.random().toString(36).slice(2, 7)}` })
    return ok("/v1/invoices", owner.ownerKey, { contact_id: customer.id, doc_date: date, lines: [{ amount_cents: amountCents }] })
  }

  const wallet = (owner: Company, body: Record<string, unknown> = {}) =>
    ok("/v1/crypto/wallets", owner.session, { rail: "btc", name: "Treasury", key: zpub, ...body })

  /** One run of the chain watcher for the company, at the app's clock. */
  const watch = (owner: Company) => {
    const run = Crypto.Watch.scanCompany(owner.companyId)
    return app.runtime.runPromise((app.clock === undefined ? run : Effect.provideService(run, Clock.Clock, app.clock)) as never)
  }

  const close = async () => {
    await app.close()
    await Promise.all([chain.close(), prices.close(), processor?.close()])
  }

  return { app, chain, prices, post, get, ok, company, invoice, wallet, watch, close }
}

export type CryptoApp = Awaited<ReturnType<typeof makeCryptoApp>>

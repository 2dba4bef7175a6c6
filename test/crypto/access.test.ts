import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { agentWithThreshold, connectMcp, createPerson, makeTestApp, newKey, signedInPerson, signInAs, type TestApp } from "../support/index.ts"
import { Ports as ServerPorts } from "@ledger/server/adapters"
import { type CryptoApp, freshKey, makeCryptoApp } from "./support.ts"

/**
 * Who may do what (spec 4.11): settings, wallets, acquisitions, disposals, assignments and
 * remeasurements are for the company's own owner or CPA and are not MCP tools; agents may read,
 * quote and propose valuations, over MCP too. Those operations are for the person signed in: any
 * API key is refused `session_required`. Crypto must be switched on, which needs the add-on where
 * billing applies (a deployment without a payment processor has every add-on, ADR 2000).
 */

let t: CryptoApp
beforeAll(async () => {
  t = await makeCryptoApp({ clock: "2026-03-02T10:00:00Z" })
})
afterAll(() => t.close())

describe("access", () => {
  it("refuses agents and people other than the owner or CPA at the owner's operations; a CPA signed in may", async () => {
    const owner = await t.company()
    const company = { ...owner, body: {} }
    const agent = await agentWithThreshold(t.app, company, { thresholdCents: 1_000_000, scopes: ["read", "propose", "approve", "admin"] })
    const byAgent = await t.app.call("POST", "/v1/crypto/wallets", { token: agent.key, headers: agent.headers, key: newKey(), body: { rail: "btc", name: "A", key: freshKey() } })
    expect(byAgent.status).toBe(403)
    expect(byAgent.body.error.type).toBe("insufficient_scope")
    const accountant = await signedInPerson(t.app, owner, "accountant")
    const byAccountant = await t.post("/v1/crypto/settings", accountant.secret, { quote_minutes: 30 })
    expect(byAccountant.status).toBe(403)
    expect(byAccountant.body.error.type).toBe("insufficient_scope")
    const cpa = await signedInPerson(t.app, owner, "cpa")
    expect((await t.post("/v1/crypto/wallets", cpa.secret, { rail: "btc", name: "CPA's", key: freshKey() })).status).toBe(201)
    const staff = await createPerson(t.app, company, "staff", ["read", "propose"])
    expect((await t.get("/v1/crypto/wallets", staff.key)).body.data).toHaveLength(1)
  })

  it("refuses every API key, the owner's and a CPA's included, at the signed-in operations with session_required", async () => {
    const owner = await t.company()
    const wallet = await t.wallet(owner, { key: freshKey() })
    const cpa = await createPerson(t.app, { ...owner, body: {} }, "cpa", ["read", "propose", "approve", "admin"])
    const writes: ReadonlyArray<readonly [string, unknown]> = [
      ["/v1/crypto/settings", { quote_minutes: 45 }],
      ["/v1/crypto/wallets", { rail: "btc", name: "By key", key: freshKey() }],
      [`/v1/crypto/wallets/${wallet.id}/lot-method`, { lot_method: "specific" }],
      [`/v1/crypto/wallets/${wallet.id}/acquisitions`, { quantity: "1", cost_cents: 100_00, acquired_at: "2026-03-01", offset_account: "3010" }],
      [`/v1/crypto/wallets/${wallet.id}/disposals`, { kind: "sell", quantity: "1", disposed_at: "2026-03-01", proceeds_cents: 100_00, counter_account: "1010" }],
      ["/v1/crypto/receipts/1/assign", { ignore: true, reason: "Dust" }],
      ["/v1/crypto/remeasurements", { period_end: "2026-02-28" }],
      [`/v1/crypto/wallets/${wallet.id}/archive`, { reason: "By key" }]
    ]
    for (const [path, body] of writes) {
      for (const token of [owner.ownerKey, cpa.key]) {
        const refused = await t.post(path, token, body)
        expect(refused.status, `${path}: ${JSON.stringify(refused.body)}`).toBe(403)
        expect(refused.body.error.type, path).toBe("session_required")
      }
    }
    // Nothing was written; the owner's session still may, and reads take any key.
    expect((await t.get("/v1/crypto/settings", owner.ownerKey)).body.quote_minutes).toBe(30)
    expect((await t.get(`/v1/crypto/wallets/${wallet.id}`, owner.ownerKey)).body.archived_at ?? null).toBeNull()
    expect((await t.post("/v1/crypto/settings", owner.session, { quote_minutes: 45 })).status).toBe(200)
  })

  it("needs crypto switched on; without billing (no processor) every company has the add-on", async () => {
    const made = await t.app.createCompany({ name: "Self-hosted Co", plan: "business" })
    const { secret } = await signInAs(t.app, made)
    expect((await t.get("/v1/crypto/settings", made.ownerKey)).body).toMatchObject({ enabled: false, addon: true, quote_minutes: 30 })
    const off = await t.post("/v1/crypto/wallets", secret, { rail: "btc", name: "A", key: freshKey() })
    expect(off.body.error.type).toBe("crypto_not_enabled")
    const on = await t.post("/v1/crypto/settings", secret, { enabled: true, btc_confirmations: 2 })
    expect(on.status, JSON.stringify(on.body)).toBe(200)
    expect(on.body).toMatchObject({ enabled: true, addon: true, btc_confirmations: 2, settlement_account: "1480", realized_account: "4880", fee_account: "6880" })
    const accounts = (await t.get("/v1/accounts?limit=200", made.ownerKey)).body.data.map((account: any) => account.code)
    expect(accounts).toEqual(expect.arrayContaining(["1480", "1485", "4880", "4885", "6880"]))
    expect((await t.post("/v1/crypto/settings", secret, { xmr_confirmations: 5 })).status).toBe(400)
    expect((await t.post("/v1/crypto/settings", secret, { fee_account: "9999" })).body.error.type).toBe("unknown_account")
  })

  it("where billing applies, switching crypto on needs the add-on", async () => {
    const hosted = await makeCryptoApp({ clock: "2026-03-02T10:00:00Z", billing: true })
    try {
      const made = await hosted.app.createCompany({ name: "Hosted Co", plan: "business" })
      const { secret } = await signInAs(hosted.app, made)
      expect((await hosted.get("/v1/crypto/settings", made.ownerKey)).body).toMatchObject({ enabled: false, addon: false })
      expect((await hosted.post("/v1/crypto/settings", secret, { enabled: true })).body.error.type).toBe("crypto_addon_required")
      await hosted.app.query(`UPDATE companies SET crypto_addon = true WHERE company_id = $1`, [made.companyId])
      const on = await hosted.post("/v1/crypto/settings", secret, { enabled: true })
      expect(on.status, JSON.stringify(on.body)).toBe(200)
      expect(on.body).toMatchObject({ enabled: true, addon: true })
    } finally {
      await hosted.close()
    }
  })

  it("offers agents the read, quote and valuation tools over MCP, and none of the owner's operations", async () => {
    const owner = await t.company()
    const wallet = await t.wallet(owner, { key: freshKey() })
    const invoice = await t.invoice(owner, 40_00, "2026-03-01")
    const agent = await agentWithThreshold(t.app, { ...owner, body: {} }, { thresholdCents: 0 })
    const client = await connectMcp(t.app, agent.key, { ...agent.headers, "x-ledger-toolsets": "crypto" })
    const tools = (await client.listTools()).tools.map((tool) => tool.name).filter((name) => name.includes("crypto"))
    expect(tools).toEqual(expect.arrayContaining(["create_crypto_quote", "get_crypto_quote", "list_crypto_receipts", "create_crypto_valuation", "get_crypto_gains"]))
    for (const nmcp of ["create_crypto_wallet", "update_crypto_settings", "record_crypto_disposal", "assign_crypto_receipt", "create_crypto_remeasurement"]) {
      expect(tools).not.toContain(nmcp)
    }
    const quoted = await client.callTool({ name: "create_crypto_quote", arguments: { document_id: invoice.id, wallet_id: wallet.id, idempotency_key: newKey() } })
    expect(quoted.isError, JSON.stringify(quoted)).not.toBe(true)
    expect((quoted.structuredContent as any)).toMatchObject({ amount_cents: 40_00, status: "open" })
    await client.close()
  })
})

describe("without the crypto providers", () => {
  let bare: TestApp
  let sealed: TestApp
  beforeAll(async () => {
    bare = await makeTestApp()
    sealed = await makeTestApp({ providers: ServerPorts.wire({ dataDir: "memory" }).layer })
  })
  afterAll(async () => {
    await bare.close()
    await sealed.close()
  })

  it("answers 503 crypto_sealer_not_configured for a wallet when no master key can seal it", async () => {
    const made = await bare.createCompany({ plan: "owned" })
    const { secret } = await signInAs(bare, made)
    const write = (path: string, body: unknown) => bare.call("POST", path, { token: secret, key: newKey(), body })
    expect((await write("/v1/crypto/settings", { enabled: true })).status).toBe(200)
    const wallet = await write("/v1/crypto/wallets", { rail: "btc", name: "A", key: freshKey() })
    expect(wallet.status).toBe(503)
    expect(wallet.body.error.type).toBe("crypto_sealer_not_configured")
  })

  it("answers 503 crypto_price_unavailable for a quote when no price source is configured", async () => {
    const made = await sealed.createCompany({ plan: "owned" })
    const { secret } = await signInAs(sealed, made)
    const write = (path: string, body: unknown) => sealed.call("POST", path, { token: secret, key: newKey(), body })
    expect((await write("/v1/crypto/settings", { enabled: true })).status).toBe(200)
    const wallet = await write("/v1/crypto/wallets", { rail: "btc", name: "A", key: freshKey() })
    expect(wallet.status, JSON.stringify(wallet.body)).toBe(201)
    const customer = await write("/v1/contacts", { kind: "customer", name: "C" })
    const invoice = await write("/v1/invoices", { contact_id: customer.body.id, doc_date: "2026-01-05", lines: [{ amount_cents: 10_00 }] })
    const quote = await write("/v1/crypto/quotes", { document_id: invoice.body.id, wallet_id: wallet.body.id })
    expect(quote.status).toBe(503)
    expect(quote.body.error.type).toBe("crypto_price_unavailable")
  })
})

import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { agentWithThreshold, connectMcp, createPerson, makeTestApp, newKey, type TestApp } from "../support/index.ts"
import { Ports as ServerPorts } from "@ledger/server/adapters"
import { type CryptoApp, freshKey, makeCryptoApp } from "./support.ts"

/**
 * Who may do what (spec 4.11): settings, wallets, acquisitions, disposals, assignments and
 * remeasurements are for the company's own owner or CPA and are not MCP tools; agents may read,
 * quote and propose valuations, over MCP too. Crypto must be switched on, which needs the add-on.
 */

let t: CryptoApp
beforeAll(async () => {
  t = await makeCryptoApp({ clock: "2026-03-02T10:00:00Z" })
})
afterAll(() => t.close())

describe("access", () => {
  it("refuses agents and people other than the owner or CPA at the owner's operations; a CPA may", async () => {
    const owner = await t.company()
    const company = { ...owner, body: {} }
    const agent = await agentWithThreshold(t.app, company, { thresholdCents: 1_000_000, scopes: ["read", "propose", "approve", "admin"] })
    const byAgent = await t.app.call("POST", "/v1/crypto/wallets", { token: agent.key, headers: agent.headers, key: newKey(), body: { rail: "btc", name: "A", key: freshKey() } })
    expect(byAgent.status).toBe(403)
    const accountant = await createPerson(t.app, company, "accountant", ["read", "propose", "approve"])
    expect((await t.post("/v1/crypto/settings", accountant.key, { quote_minutes: 30 })).status).toBe(403)
    const cpa = await createPerson(t.app, company, "cpa", ["read", "propose", "approve", "admin"])
    expect((await t.post("/v1/crypto/wallets", cpa.key, { rail: "btc", name: "CPA's", key: freshKey() })).status).toBe(201)
    const staff = await createPerson(t.app, company, "staff", ["read", "propose"])
    expect((await t.get("/v1/crypto/wallets", staff.key)).body.data).toHaveLength(1)
  })

  it("needs crypto switched on, and switching it on needs the add-on", async () => {
    const made = await t.app.createCompany({ name: "Hosted Co", plan: "business" })
    expect((await t.get("/v1/crypto/settings", made.ownerKey)).body).toMatchObject({ enabled: false, addon: false, quote_minutes: 30 })
    const off = await t.post("/v1/crypto/wallets", made.ownerKey, { rail: "btc", name: "A", key: freshKey() })
    expect(off.body.error.type).toBe("crypto_not_enabled")
    expect((await t.post("/v1/crypto/settings", made.ownerKey, { enabled: true })).body.error.type).toBe("crypto_addon_required")
    await t.app.query(`UPDATE companies SET crypto_addon = true WHERE company_id = $1`, [made.companyId])
    const on = await t.post("/v1/crypto/settings", made.ownerKey, { enabled: true, btc_confirmations: 2 })
    expect(on.status).toBe(200)
    expect(on.body).toMatchObject({ enabled: true, addon: true, btc_confirmations: 2, settlement_account: "1480", realized_account: "4880", fee_account: "6880" })
    const accounts = (await t.get("/v1/accounts?limit=200", made.ownerKey)).body.data.map((account: any) => account.code)
    expect(accounts).toEqual(expect.arrayContaining(["1480", "1485", "4880", "4885", "6880"]))
    expect((await t.post("/v1/crypto/settings", made.ownerKey, { xmr_confirmations: 5 })).status).toBe(400)
    expect((await t.post("/v1/crypto/settings", made.ownerKey, { fee_account: "9999" })).body.error.type).toBe("unknown_account")
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
    const write = (path: string, body: unknown) => bare.call("POST", path, { token: made.ownerKey, key: newKey(), body })
    expect((await write("/v1/crypto/settings", { enabled: true })).status).toBe(200)
    const wallet = await write("/v1/crypto/wallets", { rail: "btc", name: "A", key: freshKey() })
    expect(wallet.status).toBe(503)
    expect(wallet.body.error.type).toBe("crypto_sealer_not_configured")
  })

  it("answers 503 crypto_price_unavailable for a quote when no price source is configured", async () => {
    const made = await sealed.createCompany({ plan: "owned" })
    const write = (path: string, body: unknown) => sealed.call("POST", path, { token: made.ownerKey, key: newKey(), body })
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

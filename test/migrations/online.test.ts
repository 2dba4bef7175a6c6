import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { FakeOnlineBooks } from "@ledger/testkit"
import { makeTestApp, type TestApp } from "../support/index.ts"
import { makeProviderApp, writer } from "./support.ts"

let app: TestApp
let online: FakeOnlineBooks.FakeOnlineBooks
beforeAll(async () => {
  const made = await makeProviderApp({ readBudget: 120 })
  app = made.app
  online = made.online
  online.generateYear({ start: "2025-01", months: 12, perMonth: 20, customers: 1_100 })
})
afterAll(() => app.close())

const authorized = async (name: string, asOf = "2025-12-31", on: { app: TestApp; online: FakeOnlineBooks.FakeOnlineBooks } = { app, online }) => {
  const company = await on.app.createCompany({ name, starter_chart: "empty" })
  const owner = writer(on.app, company.ownerKey)
  const created = await owner.post("/v1/migrations/online/connections", { as_of: asOf })
  expect(created.status).toBe(201)
  const consent = on.online.consent(created.body.consent_url)
  const id = created.body.connection.id
  const done = await owner.post(`/v1/migrations/online/connections/${id}/authorize`, { code: consent.code, state: consent.state, realm_id: consent.realmId })
  expect(done.status).toBe(200)
  expect(done.body.status).toBe("authorized")
  return { company, owner, id, consent }
}

describe("online edition migration", () => {
  it("estimates, extracts a year in pages of 1,000, ties out, discloses, imports and cuts over", async () => {
    const { owner, id, company } = await authorized("Online Year Co")
    const estimate = await owner.post(`/v1/migrations/online/connections/${id}/estimate`)
    const sizes = Object.fromEntries(Object.entries(online.company).map(([entity, rows]) => [entity, rows.length]))
    // Every everyday posting type is read (issue 39 item 11): sales receipts, refunds, credit memos,
    // deposits, transfers, purchases and vendor credits, once a month each here (purchases three).
    expect(estimate.body.estimate).toMatchObject({ fits: true, by_entity: { ...sizes, Invoice: 240, Customer: 1_100, Account: 9,
      SalesReceipt: 12, RefundReceipt: 12, CreditMemo: 12, Deposit: 12, Transfer: 12, Purchase: 36, VendorCredit: 12 } })
    // One read a page of 1,000 for each of the 16 entities: the 1,100 customers take two.
    expect(estimate.body.estimate.calls).toBe(17)
    const before = online.calls()
    const extracted = await owner.post(`/v1/migrations/online/connections/${id}/extract`)
    expect(extracted.status).toBe(200)
    expect(extracted.body.status).toBe("extracted")
    expect(extracted.body.extracted.tieout_passed).toBe(true)
    expect(online.calls() - before).toBe(17)
    const tieout = (await owner.get(`/v1/migrations/online/connections/${id}/tieout`)).body
    expect(tieout.months).toHaveLength(12)
    expect(tieout.ar_aging.passed && tieout.ap_aging.passed).toBe(true)
    const disclosure = (await owner.get(`/v1/migrations/online/connections/${id}/disclosure`)).body
    expect(disclosure.items.map((item: any) => item.what)).toContain("Attachments and receipts")
    // The disclosure names the transaction types it does not read, not a generic line.
    expect(disclosure.items.map((item: any) => item.what).join("\n")).toMatch(/CreditCardPayment.*InventoryAdjustment/u)
    const usage = (await owner.get("/v1/migrations/online/usage")).body
    expect(usage).toMatchObject({ budget: 120, reads: 16 + 17 })
    const imported = await owner.post(`/v1/migrations/online/connections/${id}/import`)
    expect(imported.status).toBe(201)
    expect(imported.body.result).toBe("PASS")
    const entries = await app.query<{ count: unknown }>(`SELECT count(*) AS count FROM journal_entries WHERE company_id = $1`, [company.companyId])
    const transactionTypes = ["JournalEntry", "Invoice", "Payment", "Bill", "BillPayment", "SalesReceipt", "RefundReceipt", "CreditMemo", "Deposit", "Transfer", "Purchase", "VendorCredit"]
    // One entry a source transaction, one an open document (ADR 2112: open invoices, bills and unused credits carry AR and AP), and the carry-over.
    const open = online.company.Invoice!.filter((row) => row.Balance !== 0).length + online.company.Bill!.filter((row) => row.Balance !== 0).length + sizes.CreditMemo! + sizes.VendorCredit!
    expect(Number(entries[0]!.count)).toBe(transactionTypes.reduce((sum, type) => sum + sizes[type]!, 0) + open + 1)
    const cut = await owner.post(`/v1/migrations/${imported.body.id}/cutover`)
    expect(cut.body.status).toBe("cut_over")
    expect(online.revoked).toHaveLength(1)
    expect((await owner.get(`/v1/migrations/online/connections/${id}`)).body.status).toBe("cut_over")
    // The import brings over some two hundred open documents too, each through sales (ADR 2112).
  }, 180_000)

  it("refuses an extraction over the month's read budget, and a replayed consent state", async () => {
    const { owner, id, consent } = await authorized("Over Budget Co")
    const replay = await owner.post(`/v1/migrations/online/connections/${id}/authorize`, { code: consent.code, state: consent.state, realm_id: consent.realmId })
    expect(replay.body.error.type).toBe("migration_consent_invalid")
    expect((await owner.post(`/v1/migrations/online/connections/${id}/extract`)).body.error.type).toBe("migration_estimate_required")
    // Several estimates spend the month's reads: the next extraction no longer fits.
    let estimate: any = null
    for (let round = 0; round < 20 && estimate?.fits !== false; round++) {
      estimate = (await owner.post(`/v1/migrations/online/connections/${id}/estimate`)).body.estimate
    }
    expect(estimate.fits).toBe(false)
    expect(estimate.budget_remaining).toBeLessThan(estimate.calls)
    const refused = await owner.post(`/v1/migrations/online/connections/${id}/extract`)
    expect(refused.status).toBe(422)
    expect(refused.body.error.type).toBe("budget_exceeded")
    const revoked = await owner.post(`/v1/migrations/online/connections/${id}/revoke`, { reason: "Later" })
    expect(revoked.body.status).toBe("revoked")
    expect((await owner.post(`/v1/migrations/online/connections/${id}/estimate`)).body.error.type).toBe("migration_connection_revoked")
  })

  it("answers 503 with what to configure when no online-edition adapter is set", async () => {
    const bare = await makeTestApp()
    try {
      const company = await bare.createCompany({ name: "Bare Co" })
      const created = await writer(bare, company.ownerKey).post("/v1/migrations/online/connections", { as_of: "2025-12-31" })
      expect(created.status).toBe(503)
      expect(created.body.error.type).toBe("online_migration_not_configured")
      const started = await writer(bare, company.ownerKey).post("/v1/integrations/connections", { provider: "provider_a" })
      expect(started.status).toBe(503)
      expect(started.body.error.type).toBe("integration_provider_not_configured")
    } finally {
      await bare.close()
    }
  })

  it("marks the extraction failed, not a 500, when the provider sends an amount it cannot state in cents", async () => {
    const provider = await makeProviderApp({ readBudget: 120 })
    try {
      provider.online.generateYear({ start: "2025-01", months: 1, perMonth: 2, customers: 3 })
      provider.online.company.Customer![0]!.Balance = "10.005"
      const { owner, id } = await authorized("Odd Amount Co", "2025-12-31", provider)
      expect((await owner.post(`/v1/migrations/online/connections/${id}/estimate`)).status).toBe(200)
      const extracted = await owner.post(`/v1/migrations/online/connections/${id}/extract`)
      // Like any answer of the provider's that cannot be used: the connection shows the failure.
      expect(extracted.status, JSON.stringify(extracted.body)).toBe(200)
      expect(extracted.body).toMatchObject({ status: "failed", extracted: null })
    } finally {
      await provider.app.close()
    }
  })
})

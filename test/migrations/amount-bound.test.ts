import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { FakeOnlineBooks } from "@ledger/testkit"
import type { TestApp } from "../support/index.ts"
import { makeProviderApp, writer } from "./support.ts"

/**
 * A migration import posts each source transaction through the journal without reading the
 * accounts' turnover (ADR 0717's addendum). An extraction whose checking account moves 1e15 cents
 * in and out ten times ties out (every balance is what its transactions make) but would take the
 * account's debits past Number.MAX_SAFE_INTEGER: the database refuses that entry (migration 0045),
 * so the import is recorded FAIL with the reason and nothing of it is kept, where it used to pass
 * and leave books whose every report answers 422.
 */

let app: TestApp
let online: FakeOnlineBooks.FakeOnlineBooks
beforeAll(async () => {
  const made = await makeProviderApp({ readBudget: 120 })
  app = made.app
  online = made.online
  online.generateYear({ start: "2025-01", months: 1, perMonth: 20, customers: 1 })
  // $10,000,000,000,000.00 (1e15 cents) into checking and straight back, ten times.
  const line = (posting: "Debit" | "Credit", account: string) =>
    ({ Amount: 10_000_000_000_000, DetailType: "JournalEntryLineDetail", JournalEntryLineDetail: { PostingType: posting, AccountRef: { value: account } } })
  for (let index = 0; index < 10; index++) {
    online.company.JournalEntry!.push(
      { Id: `in-${index}`, TxnDate: "2025-01-15", Line: [line("Debit", "1000"), line("Credit", "3000")] },
      { Id: `out-${index}`, TxnDate: "2025-01-15", Line: [line("Debit", "3000"), line("Credit", "1000")] }
    )
  }
})
afterAll(() => app.close())

describe("a migration import past the amount bound", () => {
  it("is recorded FAIL with the reason, and the books stay empty", async () => {
    const company = await app.createCompany({ name: "Huge Moves Co", starter_chart: "empty" })
    const owner = writer(app, company.ownerKey)
    const created = await owner.post("/v1/migrations/online/connections", { as_of: "2025-01-31" })
    expect(created.status).toBe(201)
    const consent = online.consent(created.body.consent_url)
    const id = created.body.connection.id
    expect((await owner.post(`/v1/migrations/online/connections/${id}/authorize`, {
      code: consent.code, state: consent.state, realm_id: consent.realmId
    })).status).toBe(200)
    expect((await owner.post(`/v1/migrations/online/connections/${id}/estimate`)).status).toBe(200)
    const extracted = await owner.post(`/v1/migrations/online/connections/${id}/extract`)
    expect(extracted.status, JSON.stringify(extracted.body)).toBe(200)
    expect(extracted.body.extracted.tieout_passed, JSON.stringify((await owner.get(`/v1/migrations/online/connections/${id}/tieout`)).body).slice(0, 1500)).toBe(true)

    const imported = await owner.post(`/v1/migrations/online/connections/${id}/import`)
    expect(imported.status, JSON.stringify(imported.body)).toBe(201)
    expect(imported.body.result).toBe("FAIL")
    expect(JSON.stringify(imported.body.differences)).toContain("9,007,199,254,740,991")
    const entries = await app.query<{ count: unknown }>(`SELECT count(*) AS count FROM journal_entries WHERE company_id = $1`, [company.companyId])
    expect(Number(entries[0]!.count)).toBe(0)
    expect((await owner.get("/v1/reports/trial-balance")).status).toBe(200)
  })
})

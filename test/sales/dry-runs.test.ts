import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeTestApp, type TestApp } from "../support/index.ts"
import { salesCompany } from "./support.ts"

let app: TestApp
beforeAll(async () => {
  app = await makeTestApp()
})
afterAll(() => app.close())

/** Row counts of every table and the id sequence's position. */
const snapshot = async () => {
  const tables = await app.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`
  )
  const counts: Record<string, number> = {}
  for (const { table_name } of tables) {
    counts[table_name] = Number((await app.query<{ count: string }>(`SELECT count(*) AS count FROM "${table_name}"`))[0]!.count)
  }
  counts["sequence ledger_ids"] = Number((await app.query<{ last_value: string }>(`SELECT last_value FROM ledger_ids`))[0]!.last_value)
  const counters = await app.query<{ prefix: string; last_value: string }>(`SELECT prefix, last_value FROM number_counters ORDER BY company_id, prefix`)
  for (const counter of counters) counts[`counter ${counter.prefix}`] = (counts[`counter ${counter.prefix}`] ?? 0) + Number(counter.last_value)
  return counts
}

describe("sales dry runs", () => {
  it("write nothing and consume no number, whatever the operation", async () => {
    const company = await salesCompany(app, "Dry Run Co")
    const invoice = (await company.post("/v1/invoices", { contact_id: company.customerId, doc_date: "2026-03-01", lines: [{ amount_cents: 10_000 }] })).body
    const memo = (await company.post("/v1/credit-memos", { contact_id: company.customerId, doc_date: "2026-03-02", lines: [{ amount_cents: 1_000 }] })).body
    const payment = (await company.post("/v1/payments/received", { contact_id: company.customerId, payment_date: "2026-03-03", account: "1010", amount_cents: 2_000 })).body
    const estimate = (await company.post("/v1/estimates", { contact_id: company.customerId, estimate_date: "2026-03-01", lines: [{ amount_cents: 4_000 }] })).body
    const template = (await company.post("/v1/recurring-templates", {
      name: "Monthly",
      kind: "invoice",
      frequency: "monthly",
      start_date: "2026-01-15",
      request: { contact_id: company.customerId, lines: [{ amount_cents: 500 }] }
    })).body

    const before = await snapshot()
    const previews = [
      await company.post("/v1/invoices", { contact_id: company.customerId, doc_date: "2026-03-04", tax_rate_id: company.combinedRateId, lines: [{ amount_cents: 5_000 }], dry_run: true }),
      await company.post("/v1/bills", { contact_id: company.vendorId, doc_date: "2026-03-04", lines: [{ amount_cents: 5_000, account: "6070" }], dry_run: true }),
      await company.post("/v1/sales-receipts", { contact_id: company.customerId, doc_date: "2026-03-04", account: "1000", lines: [{ amount_cents: 5_000 }], dry_run: true }),
      await company.post("/v1/payments/received", { contact_id: company.customerId, account: "1010", applications: [{ document_id: invoice.id, amount_cents: 3_000 }], dry_run: true }),
      await company.post(`/v1/payments/${payment.id}/apply`, { applications: [{ document_id: invoice.id, amount_cents: 2_000 }], dry_run: true }),
      await company.post(`/v1/documents/${memo.id}/apply`, { applications: [{ document_id: invoice.id, amount_cents: 1_000 }], dry_run: true }),
      await company.post(`/v1/payments/${payment.id}/void`, { reason: "Preview", dry_run: true }),
      await company.post(`/v1/documents/${memo.id}/void`, { reason: "Preview", dry_run: true }),
      await company.post("/v1/estimates", { contact_id: company.customerId, estimate_date: "2026-03-05", lines: [{ amount_cents: 4_000 }], dry_run: true }),
      await company.post(`/v1/estimates/${estimate.id}/convert`, { dry_run: true }),
      await company.post(`/v1/documents/${invoice.id}/email`, { dry_run: true }),
      await company.post(`/v1/estimates/${estimate.id}/email`, { dry_run: true }),
      await company.post(`/v1/recurring-templates/${template.id}/run`, { through: "2026-06-30", dry_run: true }),
      await company.post("/v1/recurring/run", { through: "2026-06-30", dry_run: true })
    ]
    expect(previews.map((preview) => preview.status)).toEqual(previews.map(() => 200))
    expect(previews[0]!.body.number).toBe("INV-0002")
    expect(previews[0]!.body.balances.map((balance: any) => balance.account).sort()).toEqual(["1100", "2200", "4000"])
    expect(previews[12]!.body.occurrences).toHaveLength(6)
    expect(await snapshot()).toEqual(before)
  })
})

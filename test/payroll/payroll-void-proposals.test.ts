import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { agentWithThreshold, makeTestApp, newKey, type TestApp, type TestCompany } from "../support/index.ts"

/**
 * A payroll import's summary entry names the import (`source.id`), and a void of it that waits for
 * a person can be decided: approved, the summary's reversal posts naming the import and the import
 * becomes void; rejected, the import stays.
 */

let app: TestApp
beforeAll(async () => {
  app = await makeTestApp()
})
afterAll(() => app.close())

const post = (company: TestCompany, path: string, body: unknown, token = company.ownerKey, headers: Record<string, string> = {}) =>
  app.call("POST", path, { token, key: newKey(), body, headers })
const get = (company: TestCompany, path: string) => app.call("GET", path, { token: company.ownerKey })

const csv = [
  "Employee,Gross Wages,Federal Income Tax,Social Security,Medicare,Net Pay",
  "Ada Lovelace,52000.00,6240.00,3224.00,754.00,41782.00"
].join("\n")
const accounts = { wages_account: "6110", employer_tax_account: "6120", liability_account: "2300", net_pay_account: "1010" }

/**
 * The void endpoint is people-only (admin), so no void of it is queued over HTTP today (an agent is
 * refused, checked below); this stores the proposal as Governed.write queues an agent's reversal,
 * so that one stored by any path is shown to be decidable.
 */
const queueVoid = async (company: TestCompany, agentId: number, importId: number, entryId: number, reason: string) => {
  const entry = { date: "2026-07-01", memo: `Void of payroll year-to-date import ${importId}: ${reason}`, lines: [], total_cents: 0 }
  const rows = await app.query<{ id: string }>(
    `INSERT INTO proposals (company_id, kind, summary, amount_cents, entry_date, entry, request, reasons, created_by_type, created_by_id, created_by_name, created_at, reverses_entry_id)
     VALUES ($1, 'payroll_summary_void', $2, 0, '2026-07-01', $3, $4, '[]', 'agent', $5, 'Agent', now(), $6) RETURNING id::text`,
    [company.companyId, `Void payroll import ${importId}: ${reason}`, JSON.stringify(entry), JSON.stringify({ import_id: importId, reason }), agentId, entryId]
  )
  return Number(rows[0]!.id)
}

describe("payroll voids that wait for a person", () => {
  it("approves a queued void: the import is void, its summary reversed, the reversal names it", async () => {
    const company = await app.createCompany({ name: "Payroll void proposals" })
    const imported = (await post(company, "/v1/payroll/ytd", { csv, provider: "provider_a", tax_year: 2026, period_through: "2026-06-30" })).body
    const summary = await post(company, `/v1/payroll/ytd/${imported.id}/summary-entry`, { entry_date: "2026-06-30", ...accounts })
    expect(summary.status).toBe(201)
    expect(summary.body.entry.source).toEqual({ kind: "payroll_summary", id: imported.id })

    const agent = await agentWithThreshold(app, company, { thresholdCents: 0 })
    const refused = await post(company, `/v1/payroll/ytd/${imported.id}/void`, { reason: "Agent's void" }, agent.key, agent.headers)
    expect(refused.status).toBe(403)

    const rejectedId = await queueVoid(company, agent.id, imported.id, summary.body.entry.id, "Not this one")
    expect((await post(company, `/v1/proposals/${rejectedId}/reject`, { reason: "The file is right" })).status).toBe(200)
    const imports = async () => (await get(company, "/v1/payroll/ytd?year=2026")).body
    expect((await imports()).imports[0]).toMatchObject({ id: imported.id, status: "imported" })

    const proposalId = await queueVoid(company, agent.id, imported.id, summary.body.entry.id, "Wrong provider file")
    const approved = await post(company, `/v1/proposals/${proposalId}/approve`, {})
    expect(approved.status, JSON.stringify(approved.body)).toBe(201)
    expect(approved.body.result).toMatchObject({ id: imported.id, status: "void", void_reason: "Wrong provider file", void_entry_id: approved.body.entry_id })
    const reversal = (await get(company, `/v1/journal-entries/${approved.body.entry_id}`)).body
    expect(reversal.source).toEqual({ kind: "payroll_summary_void", id: imported.id })
    const reversed = await app.query<{ id: string }>(`SELECT reverses_entry_id::text AS id FROM journal_entries WHERE company_id = $1 AND id = $2`, [company.companyId, approved.body.entry_id])
    expect(reversed[0]!.id).toBe(String(summary.body.entry.id))
    expect((await imports()).totals.gross_wages_cents).toBe(0)
    expect((await post(company, `/v1/payroll/ytd/${imported.id}/void`, { reason: "again" })).body.error.type).toBe("already_void")
  })
})

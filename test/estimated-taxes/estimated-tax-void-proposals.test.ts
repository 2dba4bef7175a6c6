import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { agentWithThreshold, createPerson, makeTestApp, newKey, type TestApp, type TestCompany } from "../support/index.ts"

/**
 * An estimated-tax payment's entry names the payment (`source.id`) whoever posts it, and a void
 * that waits for a person can be decided: approved, the reversal posts naming the payment and the
 * payment becomes void; rejected, nothing changes.
 */

let app: TestApp
beforeAll(async () => {
  app = await makeTestApp()
})
afterAll(() => app.close())

const post = (company: TestCompany, path: string, body: unknown, token = company.ownerKey, headers: Record<string, string> = {}) =>
  app.call("POST", path, { token, key: newKey(), body, headers })
const get = (company: TestCompany, path: string) => app.call("GET", path, { token: company.ownerKey })
const sourceOf = async (company: TestCompany, entryId: number) => (await get(company, `/v1/journal-entries/${entryId}`)).body.source

const body = { year: 2026, quarter: 1, paid_on: "2026-04-14", amount_cents: 300_000, method: "eftps", payment_account: "3020", pay_from_account: "1010" }

/**
 * The void endpoint is people-only, so no void of it is queued over HTTP today (an agent is
 * refused, checked below); this stores the proposal as Governed.write queues an agent's reversal,
 * so that one stored by any path is shown to be decidable.
 */
const queueVoid = async (company: TestCompany, agentId: number, payment: { id: number; entry_id: number; paid_on: string }, reason: string) => {
  const entry = { date: payment.paid_on, memo: `Void of estimated-tax payment ${payment.id}: ${reason}`, lines: [], total_cents: 300_000 }
  const rows = await app.query<{ id: string }>(
    `INSERT INTO proposals (company_id, kind, summary, amount_cents, entry_date, entry, request, reasons, created_by_type, created_by_id, created_by_name, created_at, reverses_entry_id)
     VALUES ($1, 'estimated_tax_payment_void', $2, 300000, $3, $4, $5, '[]', 'agent', $6, 'Agent', now(), $7) RETURNING id::text`,
    [company.companyId, `Void estimated-tax payment ${payment.id}: ${reason}`, payment.paid_on, JSON.stringify(entry), JSON.stringify({ payment_id: payment.id, reason }), agentId, payment.entry_id]
  )
  return Number(rows[0]!.id)
}

describe("estimated-tax payments' sources and queued voids", () => {
  it("names the payment in its entry, posted by a person or approved from an agent's proposal", async () => {
    const company = await app.createCompany({ name: "Estimated sources" })
    const paid = await post(company, "/v1/estimated-taxes/payments", body)
    expect(paid.status).toBe(201)
    expect(await sourceOf(company, paid.body.entry_id)).toEqual({ kind: "estimated_tax_payment", id: paid.body.id })

    const agent = await agentWithThreshold(app, company, { thresholdCents: 0 })
    const proposal = await post(company, "/v1/estimated-taxes/payments", { ...body, quarter: 2, paid_on: "2026-06-15" }, agent.key, agent.headers)
    expect(proposal.status).toBe(202)
    const approved = await post(company, `/v1/proposals/${proposal.body.proposal.id}/approve`, {})
    expect(approved.status).toBe(201)
    expect(approved.body.result.entry_id).toBe(approved.body.entry_id)
    expect(await sourceOf(company, approved.body.entry_id)).toEqual({ kind: "estimated_tax_payment", id: approved.body.result.id })
  })

  it("approves a queued void: the payment is void, its entry reversed, the reversal names it", async () => {
    const company = await app.createCompany({ name: "Estimated void proposals" })
    const paid = (await post(company, "/v1/estimated-taxes/payments", body)).body
    const agent = await agentWithThreshold(app, company, { thresholdCents: 0, scopes: ["read", "propose", "approve"] })
    const refused = await post(company, `/v1/estimated-taxes/payments/${paid.id}/void`, { reason: "Agent thinks it bounced" }, agent.key, agent.headers)
    expect(refused.status).toBe(403)

    const rejectedId = await queueVoid(company, agent.id, paid, "Not this one")
    expect((await post(company, `/v1/proposals/${rejectedId}/reject`, { reason: "It cleared" })).status).toBe(200)
    const payments = async () => (await get(company, "/v1/estimated-taxes?year=2026")).body
    expect((await payments()).paid_cents).toBe(300_000)

    const proposalId = await queueVoid(company, agent.id, paid, "Bank returned it")
    const approved = await post(company, `/v1/proposals/${proposalId}/approve`, {})
    expect(approved.status, JSON.stringify(approved.body)).toBe(201)
    expect(approved.body.result).toMatchObject({ id: paid.id, status: "void", void_reason: "Bank returned it", void_entry_id: approved.body.entry_id })
    const reversal = (await get(company, `/v1/journal-entries/${approved.body.entry_id}`)).body
    expect(reversal.source).toEqual({ kind: "estimated_tax_payment_void", id: paid.id })
    const original = await app.query<{ id: string }>(`SELECT reverses_entry_id::text AS id FROM journal_entries WHERE company_id = $1 AND id = $2`, [company.companyId, approved.body.entry_id])
    expect(original[0]!.id).toBe(String(paid.entry_id))
    expect((await payments()).paid_cents).toBe(0)

    const again = await post(company, `/v1/estimated-taxes/payments/${paid.id}/void`, { reason: "again" })
    expect(again.body.error.type).toBe("already_void")
  })

  it("answers 200 with the void payment when a person's void posts", async () => {
    const company = await app.createCompany({ name: "Estimated void direct" })
    const paid = (await post(company, "/v1/estimated-taxes/payments", body)).body
    const accountant = await createPerson(app, company, "accountant", ["read", "propose", "approve"])
    const voided = await post(company, `/v1/estimated-taxes/payments/${paid.id}/void`, { reason: "Typo" }, accountant.key)
    expect(voided.status).toBe(200)
    expect(voided.body).toMatchObject({ status: "void", void_reason: "Typo" })
    expect(await sourceOf(company, voided.body.void_entry_id)).toEqual({ kind: "estimated_tax_payment_void", id: paid.id })
  })
})

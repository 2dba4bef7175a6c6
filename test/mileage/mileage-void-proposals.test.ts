import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { agentWithThreshold, makeTestApp, newKey, type TestApp, type TestCompany } from "../support/index.ts"

/**
 * A mileage reimbursement's entry names the reimbursement (`source.id`) whoever posts it, and an
 * agent's void that waits for a person ends, approved, with the reimbursement void and the
 * reversal naming it.
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
const ok = async (company: TestCompany, path: string, body: unknown, status = 201) => {
  const result = await post(company, path, body)
  if (result.status !== status) throw new Error(`${path}: ${result.status} ${JSON.stringify(result.body)}`)
  return result.body
}

/** A vehicle with a business trip in each of January and February 2026. */
const setUp = async (name: string) => {
  const company = await app.createCompany({ name })
  const car = await ok(company, "/v1/mileage/vehicles", { name: "Blue hatchback", ownership: "owned", in_service_date: "2024-05-01" })
  await ok(company, `/v1/mileage/vehicles/${car.id}/accounts`, { accounts: ["6240"] }, 200)
  for (const date of ["2026-01-12", "2026-02-12"]) {
    await ok(company, "/v1/mileage/trips", { vehicle_id: car.id, from_place: "Office", to_place: "Client", trip_date: date, miles: 20, purpose: "Client visit" })
  }
  const reimbursement = (month: string) => ({
    vehicle_id: car.id, payee: "Sam Owner", period_start: `2026-${month}-01`, period_end: `2026-${month}-28`,
    expense_account: "6240", pay_from_account: "1010", entry_date: `2026-${month}-28`
  })
  return { company, reimbursement }
}

describe("mileage reimbursements' sources and queued voids", () => {
  it("names the reimbursement in its entry, posted by a person or approved from an agent's proposal", async () => {
    const { company, reimbursement } = await setUp("Mileage sources")
    const posted = await post(company, "/v1/mileage/reimbursements", reimbursement("01"))
    expect(posted.status).toBe(201)
    expect(await sourceOf(company, posted.body.entry_id)).toEqual({ kind: "mileage_reimbursement", id: posted.body.id })

    const agent = await agentWithThreshold(app, company, { thresholdCents: 0 })
    const proposal = await post(company, "/v1/mileage/reimbursements", reimbursement("02"), agent.key, agent.headers)
    expect(proposal.status).toBe(202)
    const approved = await post(company, `/v1/proposals/${proposal.body.proposal.id}/approve`, {})
    expect(approved.status).toBe(201)
    expect(approved.body.result.entry_id).toBe(approved.body.entry_id)
    expect(await sourceOf(company, approved.body.entry_id)).toEqual({ kind: "mileage_reimbursement", id: approved.body.result.id })
  })

  it("approves an agent's queued void: the reimbursement is void, its entry reversed, the reversal names it", async () => {
    const { company, reimbursement } = await setUp("Mileage void proposals")
    const posted = (await post(company, "/v1/mileage/reimbursements", reimbursement("01"))).body
    const agent = await agentWithThreshold(app, company, { thresholdCents: 0, scopes: ["read", "propose", "approve"] })
    const queued = await post(company, `/v1/mileage/reimbursements/${posted.id}/void`, { reason: "Paid twice" }, agent.key, agent.headers)
    expect(queued.status).toBe(202)
    expect(queued.body).toMatchObject({ status: "pending_approval", proposal: { kind: "mileage_reimbursement_void" } })
    expect((await get(company, "/v1/mileage/reimbursements")).body.data[0]).toMatchObject({ id: posted.id, status: "posted" })

    const approved = await post(company, `/v1/proposals/${queued.body.proposal.id}/approve`, {})
    expect(approved.status, JSON.stringify(approved.body)).toBe(201)
    expect(approved.body.result).toMatchObject({ id: posted.id, status: "void", void_reason: "Paid twice", void_entry_id: approved.body.entry_id })
    expect(await sourceOf(company, approved.body.entry_id)).toEqual({ kind: "mileage_reimbursement_void", id: posted.id })
    const reversed = await app.query<{ id: string }>(`SELECT reverses_entry_id::text AS id FROM journal_entries WHERE company_id = $1 AND id = $2`, [company.companyId, approved.body.entry_id])
    expect(reversed[0]!.id).toBe(String(posted.entry_id))
    expect((await get(company, "/v1/mileage/reimbursements")).body.data).toHaveLength(0)
  })
})

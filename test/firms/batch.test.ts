import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeTestApp, newKey, type TestApp } from "../support/index.ts"
import { createFirm, expectStatus, firmAgentWithKey, firmCall, grantAccess, lines, memberWithKey, today } from "./support.ts"

let app: TestApp
beforeAll(async () => {
  app = await makeTestApp()
})
afterAll(() => app.close())

describe("work across clients", () => {
  it("three clients: proposals decided in a batch where one item fails alone; a revocation stops only its client", async () => {
    const firm = await createFirm(app)
    const [a, b, c] = [await app.createCompany({ name: "A" }), await app.createCompany({ name: "B" }), await app.createCompany({ name: "C" })]
    await grantAccess(app, a, firm)
    await grantAccess(app, b, firm)
    const grantC = await grantAccess(app, c, firm)
    const cpa = await memberWithKey(app, firm, "cpa")
    const bookkeeper = await memberWithKey(app, firm, "bookkeeper")
    const agent = await firmAgentWithKey(app, firm)
    for (const client of [a, b]) {
      expectStatus(await firmCall(app, firm.adminKey, "POST", `/v1/firm/agents/${agent.id}/assign`, { body: { company_id: client.companyId, posting_threshold_cents: 0 } }), 200)
    }
    const propose = (companyId: string, cents: number) => firmCall(app, agent.key, "POST", "/v1/journal-entries/propose", {
      company: companyId, headers: agent.headers, body: { entry_date: today(), memo: `Entry ${cents}`, lines: lines("6070", "1010", cents) }
    })
    const inA = expectStatus(await propose(a.companyId, 1500), 202).proposal
    const inB = expectStatus(await propose(b.companyId, 2500), 202).proposal
    // The queue across clients, oldest first, with filters.
    const queue = expectStatus(await firmCall(app, bookkeeper.key, "GET", "/v1/firm/proposals"), 200)
    expect(queue.data.map((item: any) => item.proposal_id)).toEqual([inA.id, inB.id])
    const firstPage = expectStatus(await firmCall(app, bookkeeper.key, "GET", "/v1/firm/proposals?limit=1"), 200)
    expect(firstPage.has_more).toBe(true)
    const secondPage = expectStatus(await firmCall(app, bookkeeper.key, "GET", `/v1/firm/proposals?limit=1&cursor=${firstPage.next_cursor}`), 200)
    expect([...firstPage.data, ...secondPage.data].map((item: any) => item.proposal_id)).toEqual([inA.id, inB.id])
    expect(secondPage).toMatchObject({ has_more: false, next_cursor: null })
    expect(expectStatus(await firmCall(app, bookkeeper.key, "GET", `/v1/firm/proposals?min_cents=2000`), 200).data.map((item: any) => item.company_id)).toEqual([b.companyId])
    expect(expectStatus(await firmCall(app, bookkeeper.key, "GET", `/v1/firm/proposals?company_id=${a.companyId}&agent_id=${agent.id}`), 200).data).toHaveLength(1)
    expect(expectStatus(await firmCall(app, bookkeeper.key, "GET", "/v1/firm/proposals?older_than_days=1"), 200).data).toHaveLength(0)
    // The bookkeeper's own entry in A waits for approval: the role holds no approve (ADR 0903).
    const byBookkeeperInA = expectStatus(await firmCall(app, bookkeeper.key, "POST", "/v1/journal-entries/propose", {
      company: a.companyId, body: { entry_date: today(), memo: "Bookkeeper's accrual", lines: lines("6070", "1010", 3500) }
    }), 202).proposal
    // A bookkeeper may not decide; people only, approve scope.
    const byBookkeeper = await firmCall(app, bookkeeper.key, "POST", "/v1/firm/proposals/decide", { body: { decision: "approve", items: [{ company_id: a.companyId, proposal_id: inA.id }] } })
    expect(byBookkeeper.body.error.type).toBe("insufficient_scope")
    const byAgent = await firmCall(app, agent.key, "POST", "/v1/firm/proposals/decide", { headers: agent.headers, body: { decision: "approve", items: [{ company_id: a.companyId, proposal_id: inA.id }] } })
    expect(byAgent.status).toBe(403)
    // B's item names a proposal of A: it fails alone.
    const items = [
      { company_id: a.companyId, proposal_id: inA.id },
      { company_id: b.companyId, proposal_id: inA.id },
      { company_id: b.companyId, proposal_id: inB.id },
      { company_id: a.companyId, proposal_id: byBookkeeperInA.id }
    ]
    const preview = expectStatus(await firmCall(app, cpa.key, "POST", "/v1/firm/proposals/decide", { key: null, body: { decision: "approve", items, dry_run: true } }), 200)
    expect(preview).toMatchObject({ dry_run: true, succeeded: 3, failed: 1 })
    expect(expectStatus(await firmCall(app, bookkeeper.key, "GET", "/v1/firm/proposals"), 200).data).toHaveLength(3)
    const decided = expectStatus(await firmCall(app, cpa.key, "POST", "/v1/firm/proposals/decide", { body: { decision: "approve", items } }), 200)
    expect(decided).toMatchObject({ dry_run: false, succeeded: 3, failed: 1 })
    expect(decided.results.map((result: any) => result.status)).toEqual([201, 404, 201, 201])
    expect(decided.results[0].result.proposal.status).toBe("approved")
    expect(expectStatus(await firmCall(app, bookkeeper.key, "GET", "/v1/firm/proposals"), 200).data).toEqual([])
    const logA = await app.query<{ action: string; principal_type: string; details: any }>(
      `SELECT action, principal_type, details FROM audit_events WHERE company_id = $1 AND action = 'approveProposal'`, [a.companyId])
    expect(logA).toMatchObject([
      { principal_type: "firm_member", details: { batch: "decideFirmProposals" } },
      { principal_type: "firm_member", details: { batch: "decideFirmProposals" } }
    ])
    // Client C revokes: the firm's next request to C fails while A and B work.
    expectStatus(await app.call("POST", `/v1/firm-access/${grantC.id}/revoke`, { token: c.ownerKey, key: newKey(), body: { reason: "Bye" } }), 200)
    expect((await firmCall(app, cpa.key, "GET", "/v1/company", { company: c.companyId })).status).toBe(404)
    expect((await firmCall(app, cpa.key, "GET", "/v1/company", { company: a.companyId })).status).toBe(200)
    expect((await firmCall(app, cpa.key, "GET", "/v1/company", { company: b.companyId })).status).toBe(200)
    const reject = await firmCall(app, cpa.key, "POST", "/v1/firm/proposals/decide", { body: { decision: "reject", items: [{ company_id: c.companyId, proposal_id: 1 }] } })
    expect(reject.body.error.type).toBe("validation_failed")
  })

  it("locks a period in many clients, each as the caller in its own log; one failure never blocks others", async () => {
    const firm = await createFirm(app)
    const a = await app.createCompany({ name: "Lock A" })
    const b = await app.createCompany({ name: "Lock B", periods: false })
    const c = await app.createCompany({ name: "Lock C" })
    const readOnly = await app.createCompany({ name: "Lock D" })
    await grantAccess(app, a, firm)
    await grantAccess(app, b, firm)
    await grantAccess(app, readOnly, firm, ["read"])
    const cpa = await memberWithKey(app, firm, "cpa")
    const date = today()
    const body = { company_ids: [a.companyId, b.companyId, c.companyId, readOnly.companyId], date, status: "soft_locked", reason: "Month closed" }
    const preview = expectStatus(await firmCall(app, cpa.key, "POST", "/v1/firm/clients/lock-period", { key: null, body: { ...body, dry_run: true } }), 200)
    expect(preview.results.map((result: any) => result.ok)).toEqual([true, false, false, false])
    const periodsOpen = await app.query(`SELECT status FROM periods WHERE company_id = $1 AND start_date <= $2 AND end_date >= $2`, [a.companyId, date])
    expect(periodsOpen).toEqual([{ status: "open" }])
    const locked = expectStatus(await firmCall(app, cpa.key, "POST", "/v1/firm/clients/lock-period", { body }), 200)
    expect(locked.results.map((result: any) => [result.ok, result.error?.type ?? null])).toEqual([
      [true, null],
      [false, "period_not_found"],
      [false, "not_found"],
      [false, "insufficient_scope"]
    ])
    expect(locked.results[0].result.status).toBe("soft_locked")
    const log = await app.query<{ principal_type: string; reason: string }>(
      `SELECT principal_type, reason FROM audit_events WHERE company_id = $1 AND action = 'setPeriodStatus'`, [a.companyId])
    expect(log).toEqual([{ principal_type: "firm_member", reason: null }].map(() => expect.objectContaining({ principal_type: "firm_member" })))
    const chain = expectStatus(await firmCall(app, firm.adminKey, "GET", "/v1/firm/audit/events?limit=1"), 200)
    expect(chain.data[0]).toMatchObject({ action: "lockClientPeriods", reason: "Month closed" })
  })
})

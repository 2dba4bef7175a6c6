import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeTestApp, newKey, type TestApp } from "../support/index.ts"
import { createFirm, expectStatus, firmCall, grantAccess, lines, memberWithKey, today } from "./support.ts"

/**
 * The grant's ceiling decides how a firm member's writes land (ADR 0903): a member without
 * `approve` in the client (a bookkeeper, or anyone under a grant without it) proposes (202); a
 * member holding it there posts (201); a person who may approve decides.
 */

let app: TestApp
beforeAll(async () => {
  app = await makeTestApp()
})
afterAll(() => app.close())

const propose = (token: string, companyId: string, cents: number, extra: Record<string, unknown> = {}) =>
  firmCall(app, token, "POST", "/v1/journal-entries/propose", {
    company: companyId,
    body: { entry_date: today(), memo: `Entry ${cents}`, lines: lines("6070", "1010", cents), ...extra }
  })

const entriesOf = async (companyId: string) =>
  Number((await app.query<{ count: string }>(`SELECT count(*) AS count FROM journal_entries WHERE company_id = $1`, [companyId]))[0]!.count)

describe("the grant's ceiling on a firm member's writes", () => {
  it("a bookkeeper's entry waits for approval; a cpa's and an admin's post; a person approves", async () => {
    const firm = await createFirm(app)
    const client = await app.createCompany({ name: "Ceiling Co" })
    await grantAccess(app, client, firm)
    const bookkeeper = await memberWithKey(app, firm, "bookkeeper")
    const cpa = await memberWithKey(app, firm, "cpa")

    const preview = expectStatus(await propose(bookkeeper.key, client.companyId, 1200, { dry_run: true }), 200)
    expect(preview.verdict).toBe("propose")
    expect(preview.reasons.map((reason: any) => reason.type)).toContain("approval_required")

    const before = await entriesOf(client.companyId)
    const queued = expectStatus(await propose(bookkeeper.key, client.companyId, 1200), 202)
    expect(queued).toMatchObject({ status: "pending_approval", proposal: { created_by: { type: "firm_member", id: bookkeeper.id } } })
    expect(await entriesOf(client.companyId)).toBe(before)

    expect((await propose(cpa.key, client.companyId, 1300)).status).toBe(201)
    expect((await propose(firm.adminKey, client.companyId, 1400)).status).toBe(201)
    expect(await entriesOf(client.companyId)).toBe(before + 2)

    // The bookkeeper may not decide its own proposal (nor any: no approve); the cpa may.
    const byBookkeeper = await firmCall(app, bookkeeper.key, "POST", `/v1/proposals/${queued.proposal.id}/approve`, { company: client.companyId, body: {} })
    expect(byBookkeeper.status).toBe(403)
    expect(byBookkeeper.body.error.type).toBe("insufficient_scope")
    const approved = await firmCall(app, cpa.key, "POST", `/v1/proposals/${queued.proposal.id}/approve`, { company: client.companyId, body: {} })
    expect(approved.status, JSON.stringify(approved.body)).toBe(201)
    expect(await entriesOf(client.companyId)).toBe(before + 3)

    // The client's own owner approves another of the bookkeeper's proposals.
    const second = expectStatus(await propose(bookkeeper.key, client.companyId, 1500), 202)
    const byOwner = await app.call("POST", `/v1/proposals/${second.proposal.id}/approve`, { token: client.ownerKey, key: newKey(), body: {} })
    expect(byOwner.status, JSON.stringify(byOwner.body)).toBe(201)
    expect(await entriesOf(client.companyId)).toBe(before + 4)
  })

  it("a grant without approve caps every member of the firm to proposals there, and only there", async () => {
    const firm = await createFirm(app)
    const capped = await app.createCompany({ name: "Capped Co" })
    const full = await app.createCompany({ name: "Full Co" })
    await grantAccess(app, capped, firm, ["read", "propose"])
    await grantAccess(app, full, firm)
    const cpa = await memberWithKey(app, firm, "cpa")
    expectStatus(await propose(cpa.key, capped.companyId, 900), 202)
    expectStatus(await propose(firm.adminKey, capped.companyId, 901), 202)
    expectStatus(await propose(cpa.key, full.companyId, 902), 201)
    // The queue across clients shows the capped client's proposals.
    const queue = expectStatus(await firmCall(app, cpa.key, "GET", `/v1/firm/proposals?company_id=${capped.companyId}`), 200)
    expect(queue.data).toHaveLength(2)
  })

  it("a cpa's key narrowed to propose proposes too", async () => {
    const firm = await createFirm(app)
    const client = await app.createCompany({ name: "Narrow Key Co" })
    await grantAccess(app, client, firm)
    const narrow = await memberWithKey(app, firm, "cpa", ["read", "propose"])
    expectStatus(await propose(narrow.key, client.companyId, 700), 202)
  })
})

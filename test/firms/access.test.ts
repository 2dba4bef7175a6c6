import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeTestApp, newKey, type TestApp } from "../support/index.ts"
import { createFirm, expectStatus, firmAgentWithKey, firmCall, grantAccess, lines, memberWithKey, today } from "./support.ts"

let app: TestApp
beforeAll(async () => {
  app = await makeTestApp()
})
afterAll(() => app.close())

describe("grants and acting in a client", () => {
  it("a firm credential without X-Ledger-Company is told company_required; a key that is not valid stays 401", async () => {
    const firm = await createFirm(app)
    const cpa = await memberWithKey(app, firm, "cpa")
    expectStatus(await firmCall(app, cpa.key, "GET", "/v1/firm"), 200)
    for (const [method, path] of [["GET", "/v1/company"], ["GET", "/v1/accounts"], ["POST", "/v1/contacts"]] as const) {
      const refused = await firmCall(app, cpa.key, method, path, method === "POST" ? { body: { kind: "customer", name: "Nobody" } } : {})
      expect(refused.status, `${path}: ${JSON.stringify(refused.body)}`).toBe(400)
      expect(refused.body.error).toMatchObject({ type: "company_required", details: { header: "X-Ledger-Company" } })
    }
    // A firm session (the console's) the same.
    const session = expectStatus(await firmCall(app, cpa.key, "POST", "/v1/firm/sessions", { body: {} }), 201)
    const fromSession = await firmCall(app, session.secret, "GET", "/v1/company")
    expect(fromSession.status, JSON.stringify(fromSession.body)).toBe(400)
    expect(fromSession.body.error.type).toBe("company_required")
    // A token that is no credential, and a firm key that was revoked: 401 as before.
    const unknown = await firmCall(app, `ldg_${"x".repeat(43)}`, "GET", "/v1/company")
    expect(unknown.status).toBe(401)
    const revoked = await memberWithKey(app, firm, "cpa")
    expectStatus(await firmCall(app, firm.adminKey, "POST", `/v1/firm/keys/${revoked.keyId}/revoke`, { body: { reason: "Leaving" } }), 200)
    const afterRevoke = await firmCall(app, revoked.key, "GET", "/v1/company")
    expect(afterRevoke.status, JSON.stringify(afterRevoke.body)).toBe(401)
    expect(afterRevoke.body.error.type).toBe("unauthorized")
  })

  it("a firm reaches a client only through a live grant, named by X-Ledger-Company", async () => {
    const firm = await createFirm(app)
    const client = await app.createCompany({ name: "Granting Co" })
    const stranger = await app.createCompany({ name: "Stranger Co" })
    const cpa = await memberWithKey(app, firm, "cpa")
    // Before the grant, and for a company that never granted: the stranger's 404.
    const before = await firmCall(app, cpa.key, "GET", "/v1/company", { company: client.companyId })
    expect(before.status).toBe(404)
    const unknown = await firmCall(app, cpa.key, "GET", "/v1/company", { company: "00000000-0000-4000-8000-000000000000" })
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual(before.body)
    const grant = await grantAccess(app, client, firm, ["read", "propose"])
    expect(grant).toMatchObject({ firm_id: firm.firmId, scopes: ["read", "propose"], billing: "client", status: "live" })
    const company = expectStatus(await firmCall(app, cpa.key, "GET", "/v1/company", { company: client.companyId }), 200)
    expect(company.company_id).toBe(client.companyId)
    const me = expectStatus(await firmCall(app, cpa.key, "GET", "/v1/me", { company: client.companyId }), 200)
    expect(me).toMatchObject({ principal_type: "firm_member", scopes: ["read", "propose"] })
    expect((await firmCall(app, cpa.key, "GET", "/v1/company", { company: stranger.companyId })).status).toBe(404)
    // No header: the key is valid, the request names no client (400, never the 401 of a bad key).
    const headerless = await firmCall(app, cpa.key, "GET", "/v1/company")
    expect(headerless.status, JSON.stringify(headerless.body)).toBe(400)
    expect(headerless.body.error).toMatchObject({ type: "company_required", details: { header: "X-Ledger-Company" } })
    expect(headerless.body.error.message).toContain("X-Ledger-Company")
    // The grant is the ceiling: the cpa holds admin in the firm, only read and propose here.
    const admin = await firmCall(app, cpa.key, "POST", "/v1/users", { company: client.companyId, body: { name: "Nope", role: "staff" } })
    expect(admin.status).toBe(403)
    expect(admin.body.error.type).toBe("insufficient_scope")
    // Without approve here, the cpa's entry waits for a person who may approve (ADR 0903).
    const posted = await firmCall(app, cpa.key, "POST", "/v1/journal-entries/propose", {
      company: client.companyId,
      body: { entry_date: today(), memo: "Supplies", lines: lines("6070", "1010", 1250) }
    })
    expect(posted.status, JSON.stringify(posted.body)).toBe(202)
    const log = await app.query<{ principal_type: string; principal_id: string }>(
      `SELECT principal_type, principal_id FROM audit_events WHERE company_id = $1 AND action = 'proposeJournalEntry'`, [client.companyId])
    expect(log).toEqual([{ principal_type: "firm_member", principal_id: String(cpa.id) }])
  })

  it("revocation is final and takes effect on the firm's next request; its agents are unassigned", async () => {
    const firm = await createFirm(app)
    const client = await app.createCompany({ name: "Revoking Co" })
    const grant = await grantAccess(app, client, firm)
    const cpa = await memberWithKey(app, firm, "cpa")
    const agent = await firmAgentWithKey(app, firm)
    expectStatus(await firmCall(app, firm.adminKey, "POST", `/v1/firm/agents/${agent.id}/assign`, { body: { company_id: client.companyId, posting_threshold_cents: 100 } }), 200)
    expect((await firmCall(app, cpa.key, "GET", "/v1/company", { company: client.companyId })).status).toBe(200)
    expect((await firmCall(app, agent.key, "GET", "/v1/company", { company: client.companyId })).status).toBe(200)
    const billing = expectStatus(await app.call("POST", `/v1/firm-access/${grant.id}/update`, { token: client.ownerKey, key: newKey(), body: { billing: "firm" } }), 200)
    expect(billing.billing).toBe("firm")
    const revoked = expectStatus(await app.call("POST", `/v1/firm-access/${grant.id}/revoke`, { token: client.ownerKey, key: newKey(), body: { reason: "Changed accountants" } }), 200)
    expect(revoked).toMatchObject({ status: "revoked", revoked_reason: "Changed accountants" })
    expect((await firmCall(app, cpa.key, "GET", "/v1/company", { company: client.companyId })).status).toBe(404)
    expect((await firmCall(app, agent.key, "GET", "/v1/company", { company: client.companyId })).status).toBe(404)
    const agents = expectStatus(await firmCall(app, firm.adminKey, "GET", "/v1/firm/agents"), 200)
    expect(agents.data[0].assignments).toEqual([])
    expect((await app.call("POST", `/v1/firm-access/${grant.id}/revoke`, { token: client.ownerKey, key: newKey(), body: { reason: "Again" } })).status).toBe(409)
    expect((await app.call("POST", `/v1/firm-access/${grant.id}/update`, { token: client.ownerKey, key: newKey(), body: { billing: "client" } })).status).toBe(409)
    const listed = expectStatus(await app.call("GET", "/v1/firm-access", { token: client.ownerKey }), 200)
    expect(listed.data.map((item: any) => item.status)).toEqual(["revoked"])
    // Granting again makes a new grant; the old one stays revoked.
    const again = await grantAccess(app, client, firm, ["read"])
    expect(again.id).not.toBe(grant.id)
  })

  it("only the company's own people grant; a firm may give up its own access", async () => {
    const firm = await createFirm(app)
    const other = await createFirm(app, "Other Firm")
    const client = await app.createCompany({ name: "Own People Co" })
    const grant = await grantAccess(app, client, firm)
    const byFirm = await firmCall(app, firm.adminKey, "POST", "/v1/firm-access", {
      company: client.companyId,
      body: { firm_id: other.firmId, scopes: ["read"], billing: "client" }
    })
    expect(byFirm.status).toBe(403)
    expect(byFirm.body.error.type).toBe("insufficient_scope")
    const duplicate = await app.call("POST", "/v1/firm-access", { token: client.ownerKey, key: newKey(), body: { firm_id: firm.firmId, scopes: ["read"], billing: "firm" } })
    expect(duplicate.status).toBe(409)
    await grantAccess(app, client, other, ["read"])
    const seen = expectStatus(await firmCall(app, firm.adminKey, "GET", "/v1/firm-access", { company: client.companyId }), 200)
    expect(seen.data.map((item: any) => item.firm_id)).toEqual([firm.firmId])
    const givenUp = expectStatus(await firmCall(app, firm.adminKey, "POST", `/v1/firm-access/${grant.id}/revoke`, {
      company: client.companyId,
      body: { reason: "We no longer serve this client" }
    }), 200)
    expect(givenUp.revoked_by).toBe(`firm_member:${firm.adminId}`)
    expect((await firmCall(app, firm.adminKey, "GET", "/v1/company", { company: client.companyId })).status).toBe(404)
  })

  it("a firm agent over its per-client threshold proposes; kill switches stop its writes", async () => {
    const firm = await createFirm(app)
    const clientA = await app.createCompany({ name: "Agent A" })
    const clientB = await app.createCompany({ name: "Agent B" })
    await grantAccess(app, clientA, firm)
    await grantAccess(app, clientB, firm)
    const agent = await firmAgentWithKey(app, firm)
    for (const client of [clientA, clientB]) {
      expectStatus(await firmCall(app, firm.adminKey, "POST", `/v1/firm/agents/${agent.id}/assign`, { body: { company_id: client.companyId, posting_threshold_cents: 5000 } }), 200)
    }
    const propose = (companyId: string, cents: number) => firmCall(app, agent.key, "POST", "/v1/journal-entries/propose", {
      company: companyId,
      headers: agent.headers,
      body: { entry_date: today(), lines: lines("6070", "1010", cents) }
    })
    expect((await propose(clientA.companyId, 4000)).status).toBe(201)
    const queued = await propose(clientA.companyId, 6000)
    expect(queued.status).toBe(202)
    expect(queued.body.proposal.created_by).toMatchObject({ type: "firm_agent", id: agent.id })
    expectStatus(await firmCall(app, firm.adminKey, "POST", "/v1/firm/kill-switch", { body: { suspended: true, reason: "Runaway agent" } }), 200)
    for (const client of [clientA, clientB]) {
      const stopped = await propose(client.companyId, 100)
      expect(stopped.status).toBe(403)
      expect(stopped.body.error.type).toBe("kill_switch_active")
      expect(stopped.body.error.message).toBe("Agent writes are suspended by the firm's kill switch.")
    }
    // Reading goes on, and people keep working.
    expect((await firmCall(app, agent.key, "GET", "/v1/company", { company: clientA.companyId })).status).toBe(200)
    expectStatus(await firmCall(app, firm.adminKey, "POST", "/v1/firm/kill-switch", { body: { suspended: false, reason: "Fixed" } }), 200)
    expect((await propose(clientB.companyId, 100)).status).toBe(201)
    // The company's own kill switch stops the firm agent in that company only.
    expectStatus(await app.call("POST", "/v1/company/kill-switch", { token: clientA.ownerKey, key: newKey(), body: { suspended: true, reason: "Close" } }), 200)
    const closed = await propose(clientA.companyId, 100)
    expect(closed.status).toBe(403)
    expect(closed.body.error.message).toBe("Agent writes are suspended by the company's kill switch.")
    expect((await propose(clientB.companyId, 100)).status).toBe(201)
    // An agent not assigned to a granting client does not act there.
    const clientC = await app.createCompany({ name: "Agent C" })
    await grantAccess(app, clientC, firm)
    expect((await firmCall(app, agent.key, "GET", "/v1/company", { company: clientC.companyId })).status).toBe(403)
  })
})

describe("firm members in the client's people list", () => {
  it("lists the members of every firm with a live grant, read-only, with their firm, role and grant", async () => {
    const firm = await createFirm(app, "Listed Firm")
    const client = await app.createCompany({ name: "People Co" })
    const grant = await grantAccess(app, client, firm, ["read", "propose"])
    const bookkeeper = await memberWithKey(app, firm, "bookkeeper")
    const cpa = await memberWithKey(app, firm, "cpa")
    const users = expectStatus(await app.call("GET", "/v1/users", { token: client.ownerKey }), 200)
    const seats = users.data.filter((user: any) => user.firm !== undefined)
    expect(seats.map((user: any) => user.id).sort()).toEqual([firm.adminId, bookkeeper.id, cpa.id].sort())
    const shownCpa = seats.find((user: any) => user.id === cpa.id)
    // The cpa holds every scope in the firm, only what the grant allows here.
    expect(shownCpa).toMatchObject({ role: "cpa", scopes: ["read", "propose"], firm: { firm_id: firm.firmId, firm_name: "Listed Firm", grant_id: grant.id, read_only: true } })
    expect(users.data.find((user: any) => user.id === client.ownerId)).not.toHaveProperty("firm")
    // Paged with the company's own people in one order.
    const first = expectStatus(await app.call("GET", "/v1/users?limit=2", { token: client.ownerKey }), 200)
    const rest = expectStatus(await app.call("GET", `/v1/users?limit=10&cursor=${first.next_cursor}`, { token: client.ownerKey }), 200)
    expect([...first.data, ...rest.data].map((user: any) => user.id)).toEqual(users.data.map((user: any) => user.id))
    // Not editable from the client: no key for a firm member.
    const key = await app.call("POST", "/v1/keys", { token: client.ownerKey, key: newKey(), body: { principal_type: "user", user_id: cpa.id, scopes: ["read"] } })
    expect(key.status).toBeGreaterThanOrEqual(400)
    expect(key.status).toBeLessThan(500)
    // A removed member leaves the list; a revoked grant takes the firm's people out.
    expectStatus(await firmCall(app, firm.adminKey, "POST", `/v1/firm/members/${bookkeeper.id}/remove`, { body: { reason: "Left" } }), 200)
    const afterRemoval = expectStatus(await app.call("GET", "/v1/users", { token: client.ownerKey }), 200)
    expect(afterRemoval.data.map((user: any) => user.id)).not.toContain(bookkeeper.id)
    expectStatus(await app.call("POST", `/v1/firm-access/${grant.id}/revoke`, { token: client.ownerKey, key: newKey(), body: { reason: "Done" } }), 200)
    const afterRevoke = expectStatus(await app.call("GET", "/v1/users", { token: client.ownerKey }), 200)
    expect(afterRevoke.data.filter((user: any) => user.firm !== undefined)).toEqual([])
    // Another company sees none of them.
    const other = await app.createCompany({ name: "Other People Co" })
    const others = expectStatus(await app.call("GET", "/v1/users", { token: other.ownerKey }), 200)
    expect(others.data.map((user: any) => user.id)).toEqual([other.ownerId])
  })
})

import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeTestApp, newKey, type TestApp } from "../support/index.ts"
import { createFirm, expectStatus, firmCall, grantAccess, memberWithKey } from "./support.ts"

let app: TestApp
beforeAll(async () => {
  app = await makeTestApp({ clock: true })
})
afterAll(() => app.close())

const claim = (invitation: string, key = newKey()) => app.call("POST", "/v1/owner-invites/claim", { token: invitation, key, body: {} })

describe("clients a firm creates, and their owners' invitations", () => {
  it("creates a client with a firm-billed grant and an invitation; the owner claims once", async () => {
    const firm = await createFirm(app)
    const created = expectStatus(await firmCall(app, firm.adminKey, "POST", "/v1/firm/clients", {
      body: { name: "Bakery LLC", owner_name: "Bea Baker", owner_email: "bea@bakery.test", starter_chart: "retail" }
    }), 201)
    expect(created.secret).toMatch(/^ldgi_[A-Za-z0-9_-]{43}$/)
    expect(created.grant).toMatchObject({ billing: "firm", scopes: ["read", "propose", "approve", "admin"], status: "live" })
    expect(created.invitation.status).toBe("pending")
    expect(Date.parse(created.invitation.expires_at) - Date.parse(created.invitation.created_at)).toBe(14 * 86_400_000)
    expect(JSON.stringify(created)).not.toMatch(/"ldg_/)
    const companyId = created.company.company_id
    const keys = await app.query(`SELECT id FROM api_keys WHERE company_id = $1`, [companyId])
    expect(keys).toEqual([])
    // The firm works in its new client right away.
    expect(expectStatus(await firmCall(app, firm.adminKey, "GET", "/v1/company", { company: companyId }), 200).name).toBe("Bakery LLC")
    const claimKey = newKey()
    const claimed = await claim(created.secret, claimKey)
    expect(claimed.status, JSON.stringify(claimed.body)).toBe(201)
    expect(claimed.body.secret).toMatch(/^ldg_/)
    expect(claimed.body.key).toMatchObject({ principal_type: "user", user_id: created.owner.id })
    const replay = await claim(created.secret, claimKey)
    expect(replay.status).toBe(201)
    expect(replay.headers.get("idempotent-replayed")).toBe("true")
    const second = await claim(created.secret)
    expect(second.status).toBe(409)
    expect(second.body.error).toMatchObject({ type: "invitation_claimed", details: { reason: "claimed" } })
    expect(second.body.error.message).toContain("revoke the firm's access")
    const company = expectStatus(await app.call("GET", "/v1/company", { token: claimed.body.secret }), 200)
    expect(company.company_id).toBe(companyId)
    // Once claimed, no new invitation.
    const reissue = await firmCall(app, firm.adminKey, "POST", `/v1/firm/clients/${companyId}/owner-invite`, { body: {} })
    expect(reissue.body.error.type).toBe("invitation_claimed")
  })

  it("a new invitation replaces an unclaimed one; revoked access and expiry void them", async () => {
    const firm = await createFirm(app)
    const created = expectStatus(await firmCall(app, firm.adminKey, "POST", "/v1/firm/clients", { body: { name: "Cafe", owner_name: "Cy" } }), 201)
    const companyId = created.company.company_id
    const replacement = expectStatus(await firmCall(app, firm.adminKey, "POST", `/v1/firm/clients/${companyId}/owner-invite`, { body: {} }), 201)
    const old = await claim(created.secret)
    expect(old.status).toBe(401)
    expect(old.body.error.details.reason).toBe("replaced")
    // Expiry: 14 days.
    app.clock!.advance("15 days")
    const expired = await claim(replacement.secret)
    expect(expired.body.error.details.reason).toBe("expired")
    const fresh = expectStatus(await firmCall(app, firm.adminKey, "POST", `/v1/firm/clients/${companyId}/owner-invite`, { body: {} }), 201)
    // Revoked access voids the pending invitation (the firm gives it up here).
    const grant = expectStatus(await firmCall(app, firm.adminKey, "GET", "/v1/firm-access", { company: companyId }), 200).data[0]
    expectStatus(await firmCall(app, firm.adminKey, "POST", `/v1/firm-access/${grant.id}/revoke`, { company: companyId, body: { reason: "Client left" } }), 200)
    const voided = await claim(fresh.secret)
    expect(voided.body.error.details.reason).toBe("access_revoked")
    const refused = await firmCall(app, firm.adminKey, "POST", `/v1/firm/clients/${companyId}/owner-invite`, { body: {} })
    expect(refused.body.error.type).toBe("firm_access_revoked")
    // Another firm cannot issue invitations for a company it did not create.
    const other = await createFirm(app, "Other")
    expect((await firmCall(app, other.adminKey, "POST", `/v1/firm/clients/${companyId}/owner-invite`, { body: {} })).status).toBe(404)
  })

  it("the console reports every granting client, and nothing of others", async () => {
    const firm = await createFirm(app)
    const bookkeeper = await memberWithKey(app, firm, "bookkeeper")
    const a = await app.createCompany({ name: "Console A" })
    const b = await app.createCompany({ name: "Console B" })
    await app.createCompany({ name: "Not a client" })
    await grantAccess(app, a, firm)
    await grantAccess(app, b, firm, ["read"])
    const console = expectStatus(await firmCall(app, bookkeeper.key, "GET", "/v1/firm/clients?as_of=2026-03-31"), 200)
    expect(console.as_of).toBe("2026-03-31")
    expect(console.data.map((client: any) => client.name).sort()).toEqual(["Console A", "Console B"])
    for (const client of console.data) {
      expect(client).toMatchObject({ bank: { accounts: 0 }, proposals: { pending: 0 }, overdue_ar: { invoices: 0, cents: 0 }, migration: { state: "none" } })
      expect(client.last_activity_at).not.toBeNull()
    }
    const page = expectStatus(await firmCall(app, bookkeeper.key, "GET", "/v1/firm/clients?limit=1"), 200)
    expect(page.data).toHaveLength(1)
    const next = expectStatus(await firmCall(app, bookkeeper.key, "GET", `/v1/firm/clients?limit=1&cursor=${page.next_cursor}`), 200)
    expect(next.data[0].company_id).not.toBe(page.data[0].company_id)
    const close = expectStatus(await firmCall(app, bookkeeper.key, "GET", "/v1/firm/close?date=2026-03-15&unapplied_days=10"), 200)
    expect(close.data).toHaveLength(2)
    expect(close.data[0]).toMatchObject({
      unposted_bank_lines: 0,
      open_proposals: 0,
      ar_ap_tie_out: { ar_ledger_cents: 0, ar_open_documents_cents: 0, ties: true }
    })
  })

  it("a firm session ends after 8 idle hours and after 7 days however busy", async () => {
    const firm = await createFirm(app)
    const cpa = await memberWithKey(app, firm, "cpa")
    const idle = expectStatus(await firmCall(app, cpa.key, "POST", "/v1/firm/sessions", { body: {} }), 201)
    const busy = expectStatus(await firmCall(app, cpa.key, "POST", "/v1/firm/sessions", { body: {} }), 201)
    for (let hour = 0; hour < 7 * 24; hour += 7) {
      app.clock!.advance("7 hours")
      if (hour === 0) expect((await firmCall(app, idle.secret, "GET", "/v1/firm")).status).toBe(200)
      if (hour === 7) expect((await firmCall(app, idle.secret, "GET", "/v1/firm")).status).toBe(200)
      if (hour === 28) expect((await firmCall(app, idle.secret, "GET", "/v1/firm")).status).toBe(401)
      const answer = await firmCall(app, busy.secret, "GET", "/v1/firm")
      expect(answer.status, `hour ${hour + 7}`).toBe(hour + 7 < 7 * 24 ? 200 : 401)
    }
    app.clock!.advance("7 hours")
    expect((await firmCall(app, busy.secret, "GET", "/v1/firm")).status).toBe(401)
  })
})

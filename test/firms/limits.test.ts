import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeTestApp, newKey, type TestApp } from "../support/index.ts"
import { createFirm, expectStatus, firmCall, grantAccess, memberWithKey, type TestFirm } from "./support.ts"

/**
 * Firm credentials are rate limited at the firm level and in a client, and refusals of a known
 * firm credential are audited in the firm's hash-chained log, and in the client's log when the
 * request reached a client (spec 5.7, 8.1; ADR 0903).
 */

let app: TestApp
beforeAll(async () => {
  app = await makeTestApp({ rateLimits: true, clock: "2026-03-14T10:00:00Z" })
})
afterAll(() => app.close())

/** The firm log's refusals, oldest first. */
const firmRefusals = async (firm: TestFirm) =>
  (await app.query<{ action: string; principal_id: string; key_id: number; company_id: string | null; details: any }>(
    `SELECT action, principal_id, key_id::int AS key_id, company_id, details FROM firm_audit_events
     WHERE firm_id = $1 AND details->>'outcome' = 'refused' ORDER BY seq`, [firm.firmId]))

const keyWithLimit = async (firm: TestFirm, role: "cpa" | "bookkeeper", rateLimitRpm: number) => {
  const member = expectStatus(await firmCall(app, firm.adminKey, "POST", "/v1/firm/members", { body: { name: `Limited ${role}`, role } }), 201)
  const key = expectStatus(await firmCall(app, firm.adminKey, "POST", "/v1/firm/keys", {
    body: { principal_type: "member", member_id: member.id, scopes: member.scopes, rate_limit_rpm: rateLimitRpm }
  }), 201)
  return { id: member.id as number, key: key.secret as string, keyId: key.key.id as number }
}

describe("firm credentials: rate limits and audited refusals", () => {
  it("limits a firm key at the firm level and audits the first refusal in the firm's log", async () => {
    const firm = await createFirm(app)
    const limited = await keyWithLimit(firm, "cpa", 3)
    const answers = []
    for (let index = 0; index < 5; index++) answers.push(await firmCall(app, limited.key, "GET", "/v1/firm"))
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 429, 429])
    expect(answers.map((answer) => answer.headers.get("ratelimit-remaining"))).toEqual(["2", "1", "0", "0", "0"])
    expect(answers[3]!.headers.get("ratelimit-limit")).toBe("3")
    expect(Number(answers[3]!.headers.get("retry-after"))).toBeGreaterThan(0)
    expect(answers[3]!.body.error.type).toBe("rate_limited")
    // Only the first refusal of the run is audited.
    expect(await firmRefusals(firm)).toEqual([expect.objectContaining({
      action: "getFirm",
      principal_id: String(limited.id),
      key_id: limited.keyId,
      company_id: null,
      details: expect.objectContaining({ outcome: "refused", status: 429, error_type: "rate_limited" })
    })])
    // The bucket refills with time; other credentials of the firm have their own.
    expect((await firmCall(app, firm.adminKey, "GET", "/v1/firm")).status).toBe(200)
    app.clock!.advance("20 seconds")
    expect((await firmCall(app, limited.key, "GET", "/v1/firm")).status).toBe(200)
    // The chain stays whole with the refusals in it.
    expect(expectStatus(await firmCall(app, firm.adminKey, "GET", "/v1/firm/audit/verify"), 200)).toMatchObject({ valid: true, problem: null })
  })

  it("a key without a limit of its own has its firm's, else the firms' default", async () => {
    const firm = await createFirm(app)
    const first = await firmCall(app, firm.adminKey, "GET", "/v1/firm")
    expect(first.headers.get("ratelimit-limit")).toBe("1200")
    await app.query(`UPDATE firms SET rate_limit_rpm = 7 WHERE id = $1`, [firm.firmId])
    expect((await firmCall(app, firm.adminKey, "GET", "/v1/firm")).headers.get("ratelimit-limit")).toBe("7")
  })

  it("in a client, the client's plan and the key's own limit both apply; a refusal goes in both logs", async () => {
    const firm = await createFirm(app)
    const client = await app.createCompany({ name: "Limited Client", plan: "business" })
    await grantAccess(app, client, firm)
    const limited = await keyWithLimit(firm, "cpa", 2)
    const statuses = []
    for (let index = 0; index < 3; index++) statuses.push((await firmCall(app, limited.key, "GET", "/v1/company", { company: client.companyId })).status)
    expect(statuses).toEqual([200, 200, 429])
    const clientLog = await app.query<{ principal_type: string; error_type: string; status: number }>(
      `SELECT principal_type, error_type, status FROM audit_events WHERE company_id = $1 AND outcome = 'refused'`, [client.companyId])
    expect(clientLog).toEqual([{ principal_type: "firm_member", error_type: "rate_limited", status: 429 }])
    expect(await firmRefusals(firm)).toEqual([expect.objectContaining({
      action: "getCompany",
      company_id: client.companyId,
      details: expect.objectContaining({ status: 429, error_type: "rate_limited" })
    })])
  })

  it("audits in the firm's log the refusals of its known credentials: scope, ended keys, unreachable clients", async () => {
    const firm = await createFirm(app)
    const client = await app.createCompany({ name: "Audited Client" })
    const stranger = await app.createCompany({ name: "Stranger Client" })
    await grantAccess(app, client, firm, ["read"])
    const bookkeeper = await memberWithKey(app, firm, "bookkeeper")
    // A firm-level operation beyond the role.
    expect((await firmCall(app, bookkeeper.key, "POST", "/v1/firm/members", { body: { name: "X", role: "cpa" } })).status).toBe(403)
    // A company operation beyond the grant: in the client's log and the firm's.
    expect((await firmCall(app, bookkeeper.key, "POST", "/v1/contacts", { company: client.companyId, body: { name: "Acme", kind: "customer" } })).status).toBe(403)
    // A company that never granted: the stranger's 404, nothing in that company's log, the firm's log keeps it.
    expect((await firmCall(app, bookkeeper.key, "GET", "/v1/company", { company: stranger.companyId })).status).toBe(404)
    // A revoked key.
    expectStatus(await firmCall(app, firm.adminKey, "POST", `/v1/firm/keys/${bookkeeper.keyId}/revoke`, { body: { reason: "Lost" } }), 200)
    expect((await firmCall(app, bookkeeper.key, "GET", "/v1/firm")).status).toBe(401)

    const refusals = await firmRefusals(firm)
    expect(refusals.map((event) => [event.action, event.details.error_type, event.company_id])).toEqual([
      ["createFirmMember", "insufficient_scope", null],
      ["createContact", "insufficient_scope", client.companyId],
      ["getCompany", "not_found", null],
      ["getFirm", "unauthorized", null]
    ])
    expect(refusals.every((event) => event.principal_id === String(bookkeeper.id))).toBe(true)
    const clientLog = await app.query<{ action: string; principal_id: string }>(
      `SELECT action, principal_id FROM audit_events WHERE company_id = $1 AND outcome = 'refused'`, [client.companyId])
    expect(clientLog).toEqual([{ action: "createContact", principal_id: String(bookkeeper.id) }])
    expect(await app.query(`SELECT 1 FROM audit_events WHERE company_id = $1 AND principal_type = 'firm_member'`, [stranger.companyId])).toEqual([])
    expect(expectStatus(await firmCall(app, firm.adminKey, "GET", "/v1/firm/audit/verify"), 200)).toMatchObject({ valid: true })
    // A token that names nobody is not audited anywhere.
    const before = (await firmRefusals(firm)).length
    expect((await firmCall(app, `ldg_${"x".repeat(43)}`, "GET", "/v1/firm")).status).toBe(401)
    expect((await firmRefusals(firm)).length).toBe(before)
    expect(newKey()).not.toBe("")
  })
})

import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Catalog, type Operation } from "@ledger/api"
import { agentWithKey, auditEvents, createKey, createUser, expectErrorBody, makeTestApp, newKey, personWithKey, type TestApp, type TestCompany } from "../support/index.ts"

/** The company audit log (spec 5.7, DECISIONS.md): writes, refusals by known credentials, key changes. */

let app: TestApp
let company: TestCompany
beforeAll(async () => {
  app = await makeTestApp({ clock: "2026-06-01T08:00:00Z" })
  company = await app.createCompany({ name: "Audit Co", plan: "solo" })
})
afterAll(() => app.close())

const tick = () => app.clock!.advance(1_000)

describe("audit log", () => {
  it("records every change with who, what, target and reason, newest first", async () => {
    const user = await createUser(app, company.ownerKey, "accountant")
    tick()
    const agent = await agentWithKey(app, company.ownerKey, ["read", "propose"])
    tick()
    const key = await createKey(app, company.ownerKey, { principal_type: "user", user_id: user.id, scopes: ["read"] })
    tick()
    const rotated = await app.call("POST", `/v1/keys/${key.id}/rotate`, { token: company.ownerKey, key: newKey(), body: { reason: "yearly" } })
    tick()
    await app.call("POST", `/v1/keys/${rotated.body.key.id}/revoke`, { token: company.ownerKey, key: newKey(), body: { reason: "lost laptop" } })
    tick()
    await app.call("POST", `/v1/agents/${agent.agent.id}/revoke`, { token: company.ownerKey, key: newKey(), body: { reason: "retired" } })
    tick()
    await app.call("POST", "/v1/company/fiscal-year", { token: company.ownerKey, key: newKey(), body: { start_month: 4, reason: "April year" } })
    tick()
    const plan = await app.call("POST", `/v1/operator/companies/${company.companyId}/plan`, {
      token: app.operatorToken,
      body: { plan: "advanced", reason: "upgraded by sales" }
    })
    expect(plan.status).toBe(200)

    const events = (await auditEvents(app, company.ownerKey)).filter((event) => event.outcome === "ok")
    const ownerKeyId = (await app.call("GET", "/v1/me", { token: company.ownerKey })).body.key_id
    const byOwner = { principal_type: "user", principal_id: String(company.ownerId), key_id: ownerKeyId, via: "http" }
    expect(events.map((event) => event.action)).toEqual([
      "setCompanyPlan",
      "setFiscalYear",
      "revokeAgent",
      "revokeKey",
      "rotateKey",
      "createKey",
      "createKey",
      "createAgent",
      "createUser",
      "createCompany"
    ])
    expect(events[0]).toMatchObject({
      principal_type: "operator",
      principal_id: null,
      reason: "upgraded by sales",
      target_type: "company",
      target_id: company.companyId,
      details: { plan_before: "solo", plan_after: "advanced" }
    })
    expect(events[1]).toMatchObject({ ...byOwner, reason: "April year", details: expect.objectContaining({ start_month_after: 4 }) })
    expect(events[2]).toMatchObject({ ...byOwner, target_type: "agent", target_id: String(agent.agent.id), reason: "retired" })
    expect(events[3]).toMatchObject({ ...byOwner, target_type: "api_key", target_id: String(rotated.body.key.id), reason: "lost laptop" })
    expect(events[4]).toMatchObject({
      ...byOwner,
      target_id: String(key.id),
      reason: "yearly",
      details: expect.objectContaining({ successor_key_id: rotated.body.key.id, overlap_seconds: 86_400 })
    })
    expect(events[5]).toMatchObject({ ...byOwner, target_id: String(key.id) })
    expect(events[8]).toMatchObject({ ...byOwner, target_type: "user", target_id: String(user.id) })
    expect(events[9]).toMatchObject({ principal_type: "operator", target_id: company.companyId })
    for (const event of events.slice(1, 9)) expect(event.details.idempotency_key).toEqual(expect.any(String))
    for (let index = 1; index < events.length; index++) {
      expect(events[index - 1].id).toBeGreaterThan(events[index].id)
      expect(Date.parse(events[index - 1].occurred_at)).toBeGreaterThanOrEqual(Date.parse(events[index].occurred_at))
    }
  })

  it("records refusals by known credentials: scope, people-only, validation, unreadable bodies, ended keys", async () => {
    const reader = await personWithKey(app, company.ownerKey, "staff", ["read"])
    const agent = await agentWithKey(app, company.ownerKey, ["read", "propose"])
    const revoked = await createKey(app, company.ownerKey, { principal_type: "user", user_id: reader.user.id, scopes: ["read"] })
    await app.call("POST", `/v1/keys/${revoked.id}/revoke`, { token: company.ownerKey, key: newKey(), body: { reason: "ended" } })
    tick()
    const refusals: Array<[string, () => Promise<{ status: number; body: any }>]> = [
      ["insufficient_scope", () => app.call("POST", "/v1/users", { token: reader.key.secret, key: newKey(), body: { name: "x", role: "staff" } })],
      ["invalid_request", () => app.call("POST", "/v1/users", { token: company.ownerKey, key: newKey(), body: { name: "x", role: "king" } })],
      ["invalid_request", () => app.call("GET", "/v1/users?limit=0", { token: company.ownerKey })],
      ["not_found", () => app.call("GET", "/v1/keys/1", { token: company.ownerKey })],
      ["idempotency_key_required", () => app.call("POST", "/v1/users", { token: company.ownerKey, body: { name: "x", role: "staff" } })],
      ["agent_model_required", () => app.call("POST", `/v1/keys/${agent.key.id}/rotate`, { token: agent.key.secret, key: newKey(), body: {} })],
      ["unsupported_media_type", () => app.call("POST", "/v1/users", {
        token: company.ownerKey,
        key: newKey(),
        rawBody: "name=x",
        headers: { "content-type": "application/x-www-form-urlencoded" }
      })],
      ["invalid_request", () => app.call("POST", "/v1/users", { token: company.ownerKey, key: newKey(), rawBody: "{\"name\":" })],
      ["unauthorized", () => app.call("GET", "/v1/me", { token: revoked.secret })]
    ]
    for (const [type, send] of refusals) {
      const result = await send()
      expectErrorBody(result.body, type)
      tick()
    }
    const events = await auditEvents(app, company.ownerKey)
    const refused = events.filter((event) => event.outcome === "refused").slice(0, refusals.length).reverse()
    expect(refused.map((event) => event.error_type)).toEqual(refusals.map(([type]) => type))
    expect(refused[0]).toMatchObject({ action: "createUser", status: 403, key_id: reader.key.id, details: { required_scope: "admin" } })
    expect(refused[1].details.issues).toEqual(expect.arrayContaining([expect.objectContaining({ path: ["body", "role"] })]))
    expect(refused[5]).toMatchObject({ principal_type: "agent", principal_id: String(agent.agent.id) })
    expect(refused[6]).toMatchObject({ action: "createUser", status: 415 })
    expect(refused[8]).toMatchObject({ action: "getMe", status: 401, key_id: revoked.id })
  })

  it("records a people-only refusal of an agent", async () => {
    const peopleOnly = (Catalog.operations as ReadonlyArray<Operation.Any>).filter((operation) =>
      operation.peopleOnly && operation.credential === "company"
    )
    const agent = await agentWithKey(app, company.ownerKey, ["read", "propose", "approve", "admin"])
    for (const operation of peopleOnly) {
      const result = await app.call(operation.method, operation.path.replace(/\{\w+\}/g, "1"), {
        token: agent.key.secret,
        ...(operation.method === "POST" ? { key: newKey(), body: {} } : {}),
        headers: { "x-agent-model": "test-model-1" }
      })
      expectErrorBody(result.body, "insufficient_scope")
    }
    const events = await auditEvents(app, company.ownerKey)
    const refused = events.filter((event) => event.key_id === agent.key.id && event.error_type === "insufficient_scope")
    expect(refused.map((event) => event.action).sort()).toEqual(peopleOnly.map((operation) => operation.id).sort())
  })

  it("never records a stranger's refusal or another company's events", async () => {
    const before = (await auditEvents(app, company.ownerKey)).length
    await app.call("GET", "/v1/me", { token: "ldg_" + "x".repeat(43) })
    await app.call("GET", "/v1/me")
    const other = await app.createCompany({ name: "Not Audit Co" })
    await app.call("POST", "/v1/users", { token: other.ownerKey, key: newKey(), body: { name: "theirs", role: "staff" } })
    const after = await auditEvents(app, company.ownerKey)
    expect(after.length).toBe(before)
    expect(after.some((event) => event.details?.company_id === other.companyId)).toBe(false)
    const theirs = await auditEvents(app, other.ownerKey)
    expect(theirs.map((event) => event.action)).toEqual(["createUser", "createCompany"])
  })

  it("pages newest first with limit and cursor, and with before", async () => {
    const all = await auditEvents(app, company.ownerKey)
    expect(all.length).toBeGreaterThan(10)
    const seen: Array<number> = []
    let cursor: string | null = null
    let pages = 0
    do {
      const page: { status: number; body: any } = await app.call(
        "GET",
        `/v1/audit/events?limit=3${cursor === null ? "" : `&cursor=${cursor}`}`,
        { token: company.ownerKey }
      )
      expect(page.status).toBe(200)
      expect(page.body.data.length).toBeLessThanOrEqual(3)
      expect(page.body.has_more).toBe(page.body.next_cursor !== null)
      seen.push(...page.body.data.map((event: { id: number }) => event.id))
      cursor = page.body.next_cursor
      pages++
    } while (cursor !== null)
    expect(seen).toEqual(all.map((event) => event.id))
    expect(pages).toBe(Math.ceil(all.length / 3))

    const pivot = all[4].id
    const before = await app.call("GET", `/v1/audit/events?before=${pivot}&limit=2`, { token: company.ownerKey })
    expect(before.body.data.map((event: { id: number }) => event.id)).toEqual([all[5].id, all[6].id])
    const badCursor = await app.call("GET", "/v1/audit/events?cursor=not-ours", { token: company.ownerKey })
    expect(badCursor.status).toBe(400)
    expectErrorBody(badCursor.body, "invalid_request")
    const tooMany = await app.call("GET", "/v1/audit/events?limit=1001", { token: company.ownerKey })
    expect(tooMany.status).toBe(400)
  })
})

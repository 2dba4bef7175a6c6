import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { agentWithKey, auditEvents, createAgent, createKey, createUser, expectErrorBody, makeTestApp, newKey, personWithKey, type TestApp, type TestCompany } from "../support/index.ts"

/** Scopes and roles (spec 5.2, docs/decisions/0004-roles-and-scopes.md), agent identity and the kill switch. */

let app: TestApp
let company: TestCompany
const model = { "x-agent-model": "test-model-1" }

beforeAll(async () => {
  app = await makeTestApp()
  company = await app.createCompany({ name: "Scopes Co" })
})
afterAll(() => app.close())

describe("roles", () => {
  it("maps owner and cpa to admin, accountant to approve, staff to propose", async () => {
    const expected = {
      owner: ["read", "propose", "approve", "admin"],
      cpa: ["read", "propose", "approve", "admin"],
      accountant: ["read", "propose", "approve"],
      staff: ["read", "propose"]
    } as const
    for (const [role, scopes] of Object.entries(expected)) {
      const user = await createUser(app, company.ownerKey, role as keyof typeof expected)
      expect(user.scopes).toEqual(scopes)
    }
  })

  it("refuses a key beyond its holder's role or agent scopes", async () => {
    const staff = await createUser(app, company.ownerKey, "staff")
    for (const scopes of [["admin"], ["read", "approve"]]) {
      const refused = await app.call("POST", "/v1/keys", {
        token: company.ownerKey,
        key: newKey(),
        body: { principal_type: "user", user_id: staff.id, scopes }
      })
      expect(refused.status).toBe(422)
      expectErrorBody(refused.body, "validation_failed")
    }
    const accountant = await createUser(app, company.ownerKey, "accountant")
    const noAdmin = await app.call("POST", "/v1/keys", {
      token: company.ownerKey,
      key: newKey(),
      body: { principal_type: "user", user_id: accountant.id, scopes: ["admin"] }
    })
    expect(noAdmin.status).toBe(422)
    const agent = await createAgent(app, company.ownerKey, { scopes: ["read"] })
    const beyondAgent = await app.call("POST", "/v1/keys", {
      token: company.ownerKey,
      key: newKey(),
      body: { principal_type: "agent", agent_id: agent.id, scopes: ["propose"] }
    })
    expect(beyondAgent.status).toBe(422)
    const missingHolder = await app.call("POST", "/v1/keys", {
      token: company.ownerKey,
      key: newKey(),
      body: { principal_type: "agent", scopes: ["read"] }
    })
    expect(missingHolder.status).toBe(422)
    const otherCompany = await app.createCompany({ name: "Elsewhere" })
    const foreign = await app.call("POST", "/v1/keys", {
      token: company.ownerKey,
      key: newKey(),
      body: { principal_type: "user", user_id: otherCompany.ownerId, scopes: ["read"] }
    })
    expect(foreign.status).toBe(422)
  })
})

describe("scopes", () => {
  it("refuses a write to a read key with insufficient_scope, naming the scope needed", async () => {
    const { key } = await personWithKey(app, company.ownerKey, "owner", ["read"])
    const refused = await app.call("POST", "/v1/users", { token: key.secret, key: newKey(), body: { name: "Nope", role: "staff" } })
    expect(refused.status).toBe(403)
    expectErrorBody(refused.body, "insufficient_scope")
    expect(refused.body.error.details).toEqual({ required_scope: "admin" })
    expect((await app.call("GET", "/v1/users", { token: key.secret })).status).toBe(200)
  })

  it("lets an approve key do no admin work", async () => {
    const { key } = await personWithKey(app, company.ownerKey, "accountant")
    for (const [path, body] of [
      ["/v1/agents", { name: "x", scopes: ["read"], posting_threshold_cents: 0 }],
      ["/v1/company/kill-switch", { suspended: true, reason: "no" }],
      ["/v1/keys", { principal_type: "user", user_id: company.ownerId, scopes: ["read"] }]
    ] as const) {
      const refused = await app.call("POST", path, { token: key.secret, key: newKey(), body })
      expect(refused.status, path).toBe(403)
      expectErrorBody(refused.body, "insufficient_scope")
    }
  })

  it("shows a non-admin only its own keys; an admin sees all", async () => {
    const first = await personWithKey(app, company.ownerKey, "staff")
    const second = await personWithKey(app, company.ownerKey, "accountant")
    const agent = await agentWithKey(app, company.ownerKey, ["read"])
    const own = await app.call("GET", "/v1/keys", { token: first.key.secret })
    expect(own.body.data.map((key: { id: number }) => key.id)).toEqual([first.key.id])
    const filtered = await app.call("GET", `/v1/keys?user_id=${second.user.id}`, { token: first.key.secret })
    expect(filtered.body.data).toEqual([])
    const others = await app.call("GET", `/v1/keys/${second.key.id}`, { token: first.key.secret })
    expect(others.status).toBe(404)
    const agentOwn = await app.call("GET", "/v1/keys", { token: agent.key.secret })
    expect(agentOwn.body.data.map((key: { id: number }) => key.id)).toEqual([agent.key.id])
    const all = await app.call("GET", "/v1/keys", { token: company.ownerKey })
    const ids = all.body.data.map((key: { id: number }) => key.id)
    expect(ids).toEqual(expect.arrayContaining([first.key.id, second.key.id, agent.key.id]))
    for (const key of all.body.data) expect(key).not.toHaveProperty("secret")
    expect(JSON.stringify(all.body)).not.toContain(first.key.secret)
  })

  it("never shows another company's records", async () => {
    const other = await app.createCompany({ name: "Neighbour Co" })
    const theirKeys = await app.call("GET", "/v1/keys", { token: other.ownerKey })
    const theirKeyId = theirKeys.body.data[0].id
    const probe = await app.call("GET", `/v1/keys/${theirKeyId}`, { token: company.ownerKey })
    expect(probe.status).toBe(404)
    expectErrorBody(probe.body, "not_found")
    const missing = await app.call("GET", "/v1/keys/999999999", { token: company.ownerKey })
    expect(missing.body).toEqual(probe.body)
    const revoke = await app.call("POST", `/v1/keys/${theirKeyId}/revoke`, { token: company.ownerKey, key: newKey(), body: { reason: "x" } })
    expect(revoke.status).toBe(404)
    expect((await app.call("GET", "/v1/me", { token: other.ownerKey })).status).toBe(200)
  })
})

describe("agents", () => {
  it("refuses an agent's write without X-Agent-Model, and accepts it with one", async () => {
    const { key } = await agentWithKey(app, company.ownerKey, ["read"])
    const refused = await app.call("POST", `/v1/keys/${key.id}/rotate`, { token: key.secret, key: newKey(), body: {} })
    expect(refused.status).toBe(400)
    expectErrorBody(refused.body, "agent_model_required")
    const blank = await app.call("POST", `/v1/keys/${key.id}/rotate`, {
      token: key.secret,
      key: newKey(),
      body: {},
      headers: { "x-agent-model": "   " }
    })
    expectErrorBody(blank.body, "agent_model_required")
    expect((await app.call("GET", "/v1/me", { token: key.secret })).status).toBe(200)
    const accepted = await app.call("POST", `/v1/keys/${key.id}/rotate`, {
      token: key.secret,
      key: newKey(),
      body: {},
      headers: { ...model, "x-agent-run-id": "run-7" }
    })
    expect(accepted.status).toBe(201)
  })

  it("suspends agent writes, not people's, while the kill switch is on", async () => {
    const { key } = await agentWithKey(app, company.ownerKey, ["read", "propose", "approve", "admin"])
    const suspend = await app.call("POST", "/v1/company/kill-switch", {
      token: company.ownerKey,
      key: newKey(),
      body: { suspended: true, reason: "agent loop" }
    })
    expect(suspend.status).toBe(200)
    expect(suspend.body.kill_switch).toMatchObject({ suspended: true, reason: "agent loop" })

    const agentWrite = await app.call("POST", "/v1/users", { token: key.secret, key: newKey(), body: { name: "A", role: "staff" }, headers: model })
    expect(agentWrite.status).toBe(403)
    expectErrorBody(agentWrite.body, "kill_switch_active")
    expect((await app.call("GET", "/v1/users", { token: key.secret })).status).toBe(200)
    const personWrite = await app.call("POST", "/v1/users", { token: company.ownerKey, key: newKey(), body: { name: "P", role: "staff" } })
    expect(personWrite.status).toBe(201)
    // An agent cannot lift the switch that holds it.
    const agentResume = await app.call("POST", "/v1/company/kill-switch", {
      token: key.secret,
      key: newKey(),
      body: { suspended: false, reason: "let me out" },
      headers: model
    })
    expectErrorBody(agentResume.body, "kill_switch_active")

    const resume = await app.call("POST", "/v1/company/kill-switch", {
      token: company.ownerKey,
      key: newKey(),
      body: { suspended: false, reason: "fixed" }
    })
    expect(resume.body.kill_switch.suspended).toBe(false)
    const afterResume = await app.call("POST", "/v1/users", { token: key.secret, key: newKey(), body: { name: "A", role: "staff" }, headers: model })
    expect(afterResume.status).toBe(201)
    const events = await auditEvents(app, company.ownerKey)
    expect(events.filter((event) => event.action === "setKillSwitch" && event.outcome === "ok").map((event) => event.reason))
      .toEqual(["fixed", "agent loop"])
    expect(events.find((event) => event.error_type === "kill_switch_active")).toMatchObject({ principal_type: "agent", agent_model: "test-model-1" })
  })

  it("reports who the caller is", async () => {
    const { agent, key } = await agentWithKey(app, company.ownerKey, ["read", "propose"])
    const who = await app.call("GET", "/v1/me", { token: key.secret })
    expect(who.body).toMatchObject({
      principal_type: "agent",
      id: agent.id,
      role: null,
      scopes: ["read", "propose"],
      key_id: key.id,
      posting_threshold_cents: 10_000,
      company: { company_id: company.companyId }
    })
    const read = await createKey(app, company.ownerKey, { principal_type: "agent", agent_id: agent.id, scopes: ["read"] })
    expect((await app.call("GET", "/v1/me", { token: read.secret })).body.scopes).toEqual(["read"])
  })
})

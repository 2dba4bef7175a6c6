import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { agentWithKey, auditEvents, createKey, expectErrorBody, makeTestApp, newKey, personWithKey, type TestApp, type TestCompany } from "../support/index.ts"

/** Key lifecycle (spec 3.9, 5.1, 5.7): revocation, expiry and rotation take effect on the next request. */

let app: TestApp
let company: TestCompany
const agentHeaders = { "x-agent-model": "test-model-1" }

beforeAll(async () => {
  app = await makeTestApp({ clock: "2026-05-04T10:00:00Z" })
  company = await app.createCompany({ name: "Keys Co" })
})
afterAll(() => app.close())

const me = (token: string) => app.call("GET", "/v1/me", { token })

const refusalsOf = async (keyId: number) =>
  (await auditEvents(app, company.ownerKey)).filter((event) => event.key_id === keyId && event.outcome === "refused")

describe("API keys", () => {
  it("stops a revoked key on the very next request, and audits the refusal", async () => {
    const { key } = await personWithKey(app, company.ownerKey, "accountant")
    expect((await me(key.secret)).status).toBe(200)
    const revoked = await app.call("POST", `/v1/keys/${key.id}/revoke`, {
      token: company.ownerKey,
      key: newKey(),
      body: { reason: "left the firm" }
    })
    expect(revoked.status).toBe(200)
    expect(revoked.body).toMatchObject({ id: key.id, status: "revoked", revoked_reason: "left the firm" })
    const after = await me(key.secret)
    expect(after.status).toBe(401)
    expectErrorBody(after.body, "unauthorized")
    expect(await refusalsOf(key.id)).toEqual([
      expect.objectContaining({ action: "getMe", status: 401, error_type: "unauthorized", principal_type: "user" })
    ])
    const again = await app.call("POST", `/v1/keys/${key.id}/revoke`, { token: company.ownerKey, key: newKey(), body: { reason: "twice" } })
    expect(again.status).toBe(409)
  })

  it("stops an expired key at its expiry", async () => {
    const { key } = await personWithKey(app, company.ownerKey, "staff")
    const oneDay = await createKey(app, company.ownerKey, {
      principal_type: "user",
      user_id: key.body.key.user_id,
      scopes: ["read"],
      expires_in_days: 1
    })
    expect(Date.parse(oneDay.body.key.expires_at) - app.clock!.now()).toBe(86_400_000)
    app.clock!.advance(86_400_000 - 1)
    expect((await me(oneDay.secret)).status).toBe(200)
    app.clock!.advance(1)
    const expired = await me(oneDay.secret)
    expect(expired.status).toBe(401)
    expect(expired.body.error.message).toMatch(/expired/)
    expect(await refusalsOf(oneDay.id)).toHaveLength(1)
    const listed = await app.call("GET", `/v1/keys/${oneDay.id}`, { token: company.ownerKey })
    expect(listed.body.status).toBe("expired")
  })

  it("gives people 365 days and agents 30 by default, and agents at most 90", async () => {
    const person = await personWithKey(app, company.ownerKey, "staff")
    expect(Date.parse(person.key.body.key.expires_at) - app.clock!.now()).toBe(365 * 86_400_000)
    const { agent, key } = await agentWithKey(app, company.ownerKey)
    expect(Date.parse(key.body.key.expires_at) - app.clock!.now()).toBe(30 * 86_400_000)
    const tooLong = await app.call("POST", "/v1/keys", {
      token: company.ownerKey,
      key: newKey(),
      body: { principal_type: "agent", agent_id: agent.id, scopes: ["read"], expires_in_days: 91 }
    })
    expect(tooLong.status).toBe(422)
    expectErrorBody(tooLong.body, "validation_failed")
    const longest = await createKey(app, company.ownerKey, { principal_type: "agent", agent_id: agent.id, scopes: ["read"], expires_in_days: 90 })
    expect(Date.parse(longest.body.key.expires_at) - app.clock!.now()).toBe(90 * 86_400_000)
  })

  it("stops every key of a revoked agent", async () => {
    const { agent, key } = await agentWithKey(app, company.ownerKey)
    const second = await createKey(app, company.ownerKey, { principal_type: "agent", agent_id: agent.id, scopes: ["read"] })
    expect((await me(key.secret)).status).toBe(200)
    expect((await me(second.secret)).status).toBe(200)
    const revoked = await app.call("POST", `/v1/agents/${agent.id}/revoke`, {
      token: company.ownerKey,
      key: newKey(),
      body: { reason: "misbehaved" }
    })
    expect(revoked.status).toBe(200)
    expect(revoked.body).toMatchObject({ status: "revoked", revoked_reason: "misbehaved" })
    for (const secret of [key.secret, second.secret]) {
      const result = await me(secret)
      expect(result.status).toBe(401)
      expectErrorBody(result.body, "unauthorized")
    }
    const newKeyForRevoked = await app.call("POST", "/v1/keys", {
      token: company.ownerKey,
      key: newKey(),
      body: { principal_type: "agent", agent_id: agent.id, scopes: ["read"] }
    })
    expect(newKeyForRevoked.status).toBe(422)
    const events = await auditEvents(app, company.ownerKey)
    expect(events.find((event) => event.action === "revokeAgent")).toMatchObject({
      outcome: "ok",
      reason: "misbehaved",
      target_id: String(agent.id),
      details: expect.objectContaining({ keys_revoked: 2 })
    })
  })

  it("keeps a rotated key working until its overlap ends, and not after", async () => {
    const { key } = await personWithKey(app, company.ownerKey, "accountant")
    const rotated = await app.call("POST", `/v1/keys/${key.id}/rotate`, {
      token: key.secret,
      key: newKey(),
      body: { overlap_seconds: 3_600, reason: "routine" }
    })
    expect(rotated.status).toBe(201)
    const successor = rotated.body as { key: any; secret: string }
    expect(successor.secret).not.toBe(key.secret)
    expect(successor.key).toMatchObject({
      rotated_from_key_id: key.id,
      scopes: key.body.key.scopes,
      user_id: key.body.key.user_id,
      status: "active"
    })
    const old = await app.call("GET", `/v1/keys/${key.id}`, { token: successor.secret })
    expect(old.body).toMatchObject({ status: "rotating", rotated_to_key_id: successor.key.id })
    expect(Date.parse(old.body.overlap_ends_at) - app.clock!.now()).toBe(3_600_000)

    app.clock!.advance(3_600_000 - 1)
    expect((await me(key.secret)).status).toBe(200)
    app.clock!.advance(1)
    expect((await me(key.secret)).status).toBe(401)
    expect((await me(successor.secret)).status).toBe(200)
    const ended = await app.call("GET", `/v1/keys/${key.id}`, { token: successor.secret })
    expect(ended.body.status).toBe("rotated")
    const rotateAgain = await app.call("POST", `/v1/keys/${key.id}/rotate`, { token: company.ownerKey, key: newKey(), body: {} })
    expect(rotateAgain.status).toBe(409)
  })

  it("ends the old key at once with overlap 0, and overlaps 24 hours by default", async () => {
    const { key } = await personWithKey(app, company.ownerKey, "staff")
    const rotated = await app.call("POST", `/v1/keys/${key.id}/rotate`, { token: key.secret, key: newKey(), body: { overlap_seconds: 0 } })
    expect(rotated.status).toBe(201)
    expect((await me(key.secret)).status).toBe(401)
    expect((await me(rotated.body.secret)).status).toBe(200)

    const again = await app.call("POST", `/v1/keys/${rotated.body.key.id}/rotate`, { token: rotated.body.secret, key: newKey(), body: {} })
    expect(again.status).toBe(201)
    const previous = await app.call("GET", `/v1/keys/${rotated.body.key.id}`, { token: again.body.secret })
    expect(Date.parse(previous.body.overlap_ends_at) - app.clock!.now()).toBe(86_400_000)
    const tooLong = await app.call("POST", `/v1/keys/${again.body.key.id}/rotate`, {
      token: again.body.secret,
      key: newKey(),
      body: { overlap_seconds: 604_801 }
    })
    expect(tooLong.status).toBe(400)
    expectErrorBody(tooLong.body, "invalid_request")
  })

  it("lets an agent rotate its own key, but not another's, and not change its own rate limit", async () => {
    const mine = await agentWithKey(app, company.ownerKey, ["read"])
    const theirs = await agentWithKey(app, company.ownerKey, ["read"])
    const own = await app.call("POST", `/v1/keys/${mine.key.id}/rotate`, {
      token: mine.key.secret,
      key: newKey(),
      body: { overlap_seconds: 60 },
      headers: agentHeaders
    })
    expect(own.status).toBe(201)
    expect(own.body.key).toMatchObject({ agent_id: mine.agent.id, scopes: ["read"] })
    expect(Date.parse(own.body.key.expires_at) - app.clock!.now()).toBe(30 * 86_400_000)
    const other = await app.call("POST", `/v1/keys/${theirs.key.id}/rotate`, {
      token: own.body.secret,
      key: newKey(),
      body: {},
      headers: agentHeaders
    })
    expect(other.status).toBe(404)
    expectErrorBody(other.body, "not_found")
    const rateLimit = await app.call("POST", `/v1/keys/${own.body.key.id}/rotate`, {
      token: own.body.secret,
      key: newKey(),
      body: { rate_limit_rpm: 10_000 },
      headers: agentHeaders
    })
    expect(rateLimit.status).toBe(403)
    expectErrorBody(rateLimit.body, "insufficient_scope")
  })

  it("records when a key was last used, to the minute", async () => {
    const { key } = await personWithKey(app, company.ownerKey, "staff")
    expect(key.body.key.last_used_at).toBeNull()
    await me(key.secret)
    const used = await app.call("GET", `/v1/keys/${key.id}`, { token: key.secret })
    expect(used.body.last_used_at).toBe(new Date(app.clock!.now()).toISOString())
  })
})

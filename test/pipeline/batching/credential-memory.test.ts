import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { agentWithThreshold, auditEvents, createKey, createPerson, expectErrorBody, makeTestApp, newKey, type TestApp, type TestCompany } from "../../support/index.ts"
import { propose, simpleLines } from "../../support/postings.ts"

/**
 * Credentials remembered for the group commit
 * (docs/decisions/0713-credentials-remembered-for-group-commit.md). A key's second posting takes its
 * actor from the pipeline's memory; whatever changed in the key, its company, its user or its agent
 * since must be seen by that posting as by a fully authenticated one. Each case posts once (the key
 * is remembered), changes something, then posts again.
 */

let app: TestApp
let company: TestCompany
beforeAll(async () => {
  app = await makeTestApp({ clock: "2026-03-14T10:00:00Z" })
  company = await app.createCompany({ name: "Remembered Co", starter_chart: "general" })
})
afterAll(() => app?.close())

const date = "2026-03-14"
const body = (cents: number) => ({ entry_date: date, lines: simpleLines("6070", "1010", cents) })

const entriesCount = async () =>
  Number((await app.query<{ count: string }>(`SELECT count(*) AS count FROM journal_entries WHERE company_id = $1`, [
    company.companyId
  ]))[0]!.count)

/** The refusals audited for this key's postings. */
const refusalsOf = async (keyId: number) =>
  (await auditEvents(app, company.ownerKey)).filter((event) =>
    event.key_id === keyId && event.outcome === "refused" && event.action === "proposeJournalEntry"
  )

/** A person of the company and a key of theirs that may post, with these settings of the key. */
const posterKey = async (target: TestApp, of: TestCompany, settings: Record<string, unknown> = {}) => {
  const person = await createPerson(target, of, "accountant", ["read"])
  return createKey(target, of.ownerKey, { principal_type: "user", user_id: person.id, scopes: ["read", "propose"], ...settings })
}

describe("credentials remembered for the group commit", () => {
  it("stops a key revoked since its last posting, writes nothing, and audits the refusal", async () => {
    const key = await posterKey(app, company)
    const keyId = key.id
    expect((await propose(app, key.secret, body(100))).status).toBe(201)
    expect((await propose(app, key.secret, body(101))).status).toBe(201)
    const revoked = await app.call("POST", `/v1/keys/${keyId}/revoke`, { token: company.ownerKey, key: newKey(), body: { reason: "left" } })
    expect(revoked.status).toBe(200)
    const before = await entriesCount()
    const refused = await propose(app, key.secret, body(102))
    expect(refused.status).toBe(401)
    expectErrorBody(refused.body, "unauthorized")
    expect(await entriesCount()).toBe(before)
    // Audited once, by the run that read the key afresh.
    expect(await refusalsOf(keyId)).toEqual([expect.objectContaining({ status: 401, error_type: "unauthorized" })])
  })

  it("stops an agent's postings when the kill switch is thrown, and lets them through when it is lifted", async () => {
    const agent = await agentWithThreshold(app, company, { thresholdCents: 100_000 })
    const first = await propose(app, agent.key, body(200), { headers: agent.headers })
    expect(first.status, JSON.stringify(first.body)).toBe(201)
    const suspend = await app.call("POST", "/v1/company/kill-switch", {
      token: company.ownerKey,
      key: newKey(),
      body: { suspended: true, reason: "agent loop" }
    })
    expect(suspend.status).toBe(200)
    const before = await entriesCount()
    const refused = await propose(app, agent.key, body(201), { headers: agent.headers })
    expect(refused.status).toBe(403)
    expectErrorBody(refused.body, "kill_switch_active")
    expect(await entriesCount()).toBe(before)
    const resume = await app.call("POST", "/v1/company/kill-switch", {
      token: company.ownerKey,
      key: newKey(),
      body: { suspended: false, reason: "fixed" }
    })
    expect(resume.status).toBe(200)
    expect((await propose(app, agent.key, body(202), { headers: agent.headers })).status).toBe(201)
  })

  it("stops a revoked agent", async () => {
    const agent = await agentWithThreshold(app, company, { thresholdCents: 100_000 })
    expect((await propose(app, agent.key, body(300), { headers: agent.headers })).status).toBe(201)
    await app.call("POST", `/v1/agents/${agent.id}/revoke`, { token: company.ownerKey, key: newKey(), body: { reason: "done" } })
    const refused = await propose(app, agent.key, body(301), { headers: agent.headers })
    expect(refused.status).toBe(401)
    expectErrorBody(refused.body, "unauthorized")
  })

  it("decides by the key, user and agent as they are now, whatever changed them", async () => {
    // Changed under the API (no operation changes these yet): every column authentication decides
    // by is part of the key's remembered state.
    const agent = await agentWithThreshold(app, company, { thresholdCents: 100_000 })
    expect((await propose(app, agent.key, body(400), { headers: agent.headers })).status).toBe(201)
    await app.query(`UPDATE agents SET posting_threshold_cents = 0 WHERE company_id = $1 AND id = $2`, [company.companyId, agent.id])
    const queued = await propose(app, agent.key, body(401), { headers: agent.headers })
    expect(queued.status).toBe(202)
    expect(queued.body.proposal).toBeDefined()

    const person = await createPerson(app, company, "accountant", ["read", "propose"])
    expect((await propose(app, person.key, body(402))).status).toBe(201)
    await app.query(`UPDATE users SET name = 'Renamed Person' WHERE company_id = $1 AND id = $2`, [company.companyId, person.id])
    const renamed = await propose(app, person.key, body(403))
    expect(renamed.status).toBe(201)
    expect(renamed.body.posted_by).toMatchObject({ name: "Renamed Person" })

    await app.query(`UPDATE api_keys SET scopes = '["read"]' WHERE company_id = $1 AND user_id = $2`, [company.companyId, person.id])
    const narrowed = await propose(app, person.key, body(404))
    expect(narrowed.status).toBe(403)
    expectErrorBody(narrowed.body, "insufficient_scope")
    // And the other way: a refusal is never decided on what was remembered.
    await app.query(`UPDATE api_keys SET scopes = '["read", "propose"]' WHERE company_id = $1 AND user_id = $2`, [
      company.companyId,
      person.id
    ])
    expect((await propose(app, person.key, body(405))).status).toBe(201)
  })

  it("stops a key at its expiry, and reads it afresh once its last use is a minute old", async () => {
    const shortLived = await posterKey(app, company, { expires_in_days: 1 })
    expect((await propose(app, shortLived.secret, body(500))).status).toBe(201)
    const lastUse = async () =>
      (await app.query<{ last_used_at: Date }>(`SELECT last_used_at FROM api_keys WHERE company_id = $1 AND id = $2`, [
        company.companyId,
        shortLived.id
      ]))[0]!.last_used_at
    const first = new Date(await lastUse()).getTime()
    app.clock!.advance("30 seconds")
    expect((await propose(app, shortLived.secret, body(501))).status).toBe(201)
    expect(new Date(await lastUse()).getTime()).toBe(first)
    app.clock!.advance("30 seconds")
    expect((await propose(app, shortLived.secret, body(502))).status).toBe(201)
    expect(new Date(await lastUse()).getTime()).toBe(first + 60_000)
    app.clock!.advance(86_400_000 - 60_000)
    const expired = await propose(app, shortLived.secret, body(503))
    expect(expired.status).toBe(401)
    expect(expired.body.error.message).toMatch(/expired/)
  })

  it("replays a key's retry and refuses its reuse for another request, as a full authentication does", async () => {
    const person = await createPerson(app, company, "accountant", ["read"])
    const keys = await Promise.all([0, 1].map(() =>
      createKey(app, company.ownerKey, { principal_type: "user", user_id: person.id, scopes: ["read", "propose"] })
    ))
    // Both keys post once, so both are remembered.
    for (const [index, key] of keys.entries()) expect((await propose(app, key.secret, body(600 + index))).status).toBe(201)
    const idempotencyKey = newKey()
    const first = await propose(app, keys[0]!.secret, body(610), { key: idempotencyKey })
    expect(first.status).toBe(201)
    const before = await entriesCount()
    // A retry with the same secret is known to have been answered: its statement replays it. With
    // the person's other key it is not: its batch refuses itself on the taken record, and the fresh
    // run replays it. Either way the same answer, and nothing written twice.
    for (const key of [keys[0]!, keys[1]!, keys[1]!]) {
      const retry = await propose(app, key.secret, body(610), { key: idempotencyKey })
      expect(retry.status).toBe(201)
      expect(retry.headers.get("idempotent-replayed")).toBe("true")
      expect(retry.body).toEqual(first.body)
    }
    for (const key of keys) {
      const reused = await propose(app, key.secret, body(611), { key: idempotencyKey })
      expect(reused.status).toBe(409)
      expectErrorBody(reused.body, "idempotency_conflict")
    }
    expect(await entriesCount()).toBe(before)
  })

  it("takes each posting from the key's rate limit once, whichever way it was authenticated", async () => {
    const limitedApp = await makeTestApp({ rateLimits: true, clock: "2026-03-14T10:00:00Z" })
    try {
      const limitedCompany = await limitedApp.createCompany({ name: "Limited Co", starter_chart: "general", plan: "business" })
      const limited = await posterKey(limitedApp, limitedCompany, { rate_limit_rpm: 4 })
      const remaining: Array<string | null> = []
      const statuses: Array<number> = []
      // The third runs twice (from memory, then afresh: a dry run is never batched) and counts once.
      for (const request of [body(700), body(701), { ...body(702), dry_run: true }, body(703), body(704), body(705)]) {
        const answer = await propose(limitedApp, limited.secret, request)
        statuses.push(answer.status)
        remaining.push(answer.headers.get("ratelimit-remaining"))
      }
      expect(statuses).toEqual([201, 201, 200, 201, 429, 429])
      expect(remaining).toEqual(["3", "2", "1", "0", "0", "0"])
      // Only the first refusal of a run of them is audited, once.
      const refusals = (await auditEvents(limitedApp, limitedCompany.ownerKey)).filter((event) =>
        event.key_id === limited.id && event.outcome === "refused"
      )
      expect(refusals).toEqual([expect.objectContaining({ status: 429, error_type: "rate_limited" })])
    } finally {
      await limitedApp.close()
    }
  })
})

import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { agentModel, agentWithKey, newKey } from "../support/index.ts"
import {
  type AuthApp,
  connectedApp,
  createFirm,
  form,
  grantFirmAccess,
  makeAiApp,
  type Owner,
  ownerSignedIn,
  pkce,
  redirectUri,
  registerClient
} from "../support/ai-apps.ts"
import { ConnectionRules } from "@ledger/engine/rules"

/**
 * A `post` app's bounds in the posting's transaction (ADR 1702): the daily cap under concurrent
 * calls, the allowed accounts and equity; the firm kill switch over a firm connection's agents
 * (spec 5.7); the 7216 gate over company API-key agents (spec 4.4).
 */

let app: AuthApp
let owner: Owner
beforeAll(async () => {
  app = await makeAiApp()
  owner = await ownerSignedIn(app)
}, 240_000)
afterAll(() => app.close())

const today = () => new Date().toISOString().slice(0, 10)
const entry = (token: string, cents: number, debit = "6070", credit = "1010", extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  app.call("POST", "/v1/journal-entries/propose", {
    token, key: newKey(), headers: { "x-agent-model": agentModel, ...headers },
    body: { entry_date: today(), lines: [{ account: debit, debit_cents: cents }, { account: credit, credit_cents: cents }], ...extra }
  })

const postedToday = async (agentId: number, companyId: string) =>
  Number((await app.query<{ sum: string | null }>(
    "SELECT coalesce(sum(total_cents), 0)::text AS sum FROM journal_entries WHERE company_id = $1 AND posted_by_type = 'agent' AND posted_by_id = $2",
    [companyId, agentId]
  ))[0]!.sum)

describe("the daily cap, counted in the posting's transaction", () => {
  it("20 concurrent postings whose sum crosses the cap never post more than the cap; the rest are proposed", async () => {
    const cap = 10_000
    const { connection, tokens } = await connectedApp(app, owner, "post", { per_entry_cap_cents: 5_000, daily_cap_cents: cap })
    const amounts = Array.from({ length: 20 }, (_, index) => 700 + (index % 5) * 300) // 700 to 1,900: 26,000 in all
    const answers = await Promise.all(amounts.map((cents) => entry(tokens.access_token, cents)))
    for (const answer of answers) expect([201, 202], JSON.stringify(answer.body)).toContain(answer.status)
    const posted = answers.flatMap((answer, index) => answer.status === 201 ? [amounts[index]!] : [])
    const total = posted.reduce((sum, cents) => sum + cents, 0)
    expect(total).toBeLessThanOrEqual(cap)
    expect(posted.length).toBeGreaterThan(0)
    expect(await postedToday(connection.agent_id, owner.company.companyId)).toBe(total)
    const counted = await app.query<{ posted_cents: string }>("SELECT posted_cents::text FROM ai_connection_usage WHERE connection_id = $1", [connection.id])
    expect(Number(counted[0]!.posted_cents)).toBe(total)
    // What was proposed says why; an amount just past what is left is proposed too.
    const proposed = answers.find((answer) => answer.status === 202)!
    const why = await app.query<{ reasons: unknown }>("SELECT reasons FROM proposals WHERE company_id = $1 AND id = $2", [owner.company.companyId, proposed.body.proposal.id])
    expect(JSON.stringify(why[0]?.reasons)).toContain("over_daily_cap")
    const remaining = cap - total
    const next = await entry(tokens.access_token, remaining + 1)
    expect(next.status).toBe(202)
    if (remaining > 0) expect((await entry(tokens.access_token, remaining)).status).toBe(201)
  })

  it("a dry run previews the cap without counting", async () => {
    const { connection, tokens } = await connectedApp(app, owner, "post", { daily_cap_cents: 1_000 })
    const preview = await entry(tokens.access_token, 1_500, "6070", "1010", { dry_run: true })
    expect(preview.status).toBe(200)
    expect(preview.body.verdict).toBe("propose")
    expect(preview.body.reasons.map((reason: any) => reason.type)).toContain("over_daily_cap")
    expect((await entry(tokens.access_token, 900, "6070", "1010", { dry_run: true })).body.verdict).toBe("post")
    expect(await app.query("SELECT 1 FROM ai_connection_usage WHERE connection_id = $1", [connection.id])).toHaveLength(0)
  })

  it("the cap rule adds up: a posting fits exactly when the day's sum stays within the cap", () => {
    fc.assert(fc.property(fc.option(fc.nat(1_000_000), { nil: null }), fc.nat(1_000_000), fc.integer({ min: 1, max: 1_000_000 }), (cap, posted, total) => {
      const refusal = ConnectionRules.dailyCapRefusal(cap, posted, total)
      expect(refusal === null).toBe(cap === null || posted + total <= cap)
    }))
  })
})

describe("allowed accounts and equity, when posting", () => {
  it("posts within the allowed accounts, proposes an entry touching any other or equity", async () => {
    const { tokens } = await connectedApp(app, owner, "post", { per_entry_cap_cents: 5_000, account_codes: ["6070", "6010", "1010"] })
    expect((await entry(tokens.access_token, 1_000)).status).toBe(201)
    const outside = await entry(tokens.access_token, 1_000, "6000", "1010")
    expect(outside.status, JSON.stringify(outside.body)).toBe(202)
    const reasons = await app.query<{ reasons: unknown }>("SELECT reasons FROM proposals WHERE company_id = $1 AND id = $2", [owner.company.companyId, outside.body.proposal.id])
    expect(JSON.stringify(reasons[0]?.reasons)).toContain("account_not_allowed")

    const any = await connectedApp(app, owner, "post")
    expect((await entry(any.tokens.access_token, 1_000, "6000", "1010")).status).toBe(201)
    const equity = await entry(any.tokens.access_token, 1_000, "3020", "1010")
    expect(equity.status, JSON.stringify(equity.body)).toBe(202)
    const preview = await entry(any.tokens.access_token, 1_000, "3020", "1010", { dry_run: true })
    expect(preview.body.reasons.map((reason: any) => reason.type)).toContain("equity_account_not_allowed")
  })

  it("the accounts rule: equity never, and only listed codes when there is a list", () => {
    const account = fc.record({ code: fc.constantFrom("1010", "3020", "6000", "6070"), type: fc.constantFrom("asset", "equity", "expense") })
    fc.assert(fc.property(fc.option(fc.subarray(["1010", "6000", "6070"]), { nil: null }), fc.array(account, { minLength: 2, maxLength: 6 }), (allowed, accounts) => {
      const refusal = ConnectionRules.accountsRefusal(allowed, accounts)
      const fine = accounts.every((a) => a.type !== "equity" && (allowed === null || allowed.includes(a.code)))
      expect(refusal === null).toBe(fine)
    }))
  })
})

describe("a firm's kill switch", () => {
  it("suspends the writes of the firm's AI connections in its clients, and resuming lets them write again", async () => {
    const firm = await createFirm(app)
    await grantFirmAccess(app, owner.company, firm.firmId)
    const session = (await app.call("POST", "/v1/firm/sessions", { token: firm.adminKey, key: newKey(), body: {} })).body.secret as string
    const client = await registerClient(app)
    const { verifier, challenge } = pkce()
    const created = await app.call("POST", "/v1/firm/ai-connections", {
      token: session, key: newKey(),
      body: { client_id: client.client_id, redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: "S256", level: "suggest", company_ids: [owner.company.companyId] }
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const tokens = await form(app, "/oauth/token", { grant_type: "authorization_code", code: created.body.code, code_verifier: verifier, client_id: client.client_id, redirect_uri: redirectUri })
    const token = tokens.body.access_token as string
    expect((await entry(token, 500)).status).toBe(202)

    const thrown = await app.call("POST", "/v1/firm/kill-switch", { token: firm.adminKey, key: newKey(), body: { suspended: true, reason: "Incident" } })
    expect(thrown.status, JSON.stringify(thrown.body)).toBe(200)
    const stopped = await entry(token, 500)
    expect(stopped.status, JSON.stringify(stopped.body)).toBe(403)
    expect(stopped.body.error.type).toBe("kill_switch_active")
    // Reads go on; the company's own agents are not the firm's.
    expect((await app.call("GET", "/v1/accounts", { token })).status).toBe(200)
    const own = await connectedApp(app, owner, "suggest")
    expect((await entry(own.tokens.access_token, 500)).status).toBe(202)

    await app.call("POST", "/v1/firm/kill-switch", { token: firm.adminKey, key: newKey(), body: { suspended: false, reason: "Resolved" } })
    expect((await entry(token, 500)).status).toBe(202)
  })
})

describe("the 7216 gate over company API-key agents", () => {
  it("keeps an agent out while its provider is undeclared or not covered, and lets it in once a signed consent covers it", async () => {
    const gated = await ownerSignedIn(app)
    const { agent, key } = await agentWithKey(app, gated.company.ownerKey)
    const read = () => app.call("GET", "/v1/accounts", { token: key.secret })
    const set = (path: string, body: unknown, token = gated.company.ownerKey) => app.call("POST", path, { token, key: newKey(), body })
    expect((await read()).status).toBe(200)
    expect((await set("/v1/company/ai-7216", { required: true, reason: "Preparer policy" })).status).toBe(200)

    const undeclared = await read()
    expect(undeclared.status).toBe(403)
    expect(undeclared.body.error.type).toBe("consent_required")
    expect(undeclared.body.error.message).toContain("declare this agent's AI provider")
    // A write (possibly in a group commit) is kept out too.
    expect((await entry(key.secret, 100)).body.error?.type).toBe("consent_required")

    await set(`/v1/agents/${agent.id}/ai-provider`, { ai_provider: "provider_c" })
    const uncovered = await read()
    expect(uncovered.status).toBe(403)
    expect(uncovered.body.error.message).toContain("provider_c")

    const requested = await set("/v1/company/ai-consents", { providers: ["provider_c"], data_categories: ["books"], purposes: ["bookkeeping"] })
    expect(requested.status, JSON.stringify(requested.body)).toBe(201)
    const signed = await set(`/v1/company/ai-consents/${requested.body.id}/sign`, { typed_name: "Pat Owner", accepted_providers: ["provider_c"] }, gated.session)
    expect(signed.status, JSON.stringify(signed.body)).toBe(200)
    expect((await read()).status).toBe(200)
    expect((await entry(key.secret, 100)).status).toBe(201)

    // Revoked: kept out again on the next request. A self-hosted model needs no consent.
    expect((await set(`/v1/company/ai-consents/${requested.body.id}/revoke`, { reason: "Stopped" })).status).toBe(200)
    expect((await entry(key.secret, 100)).body.error?.type).toBe("consent_required")
    await set(`/v1/agents/${agent.id}/ai-provider`, { ai_provider: "self_hosted" })
    expect((await read()).status).toBe(200)
    // The people of the company are never gated.
    expect((await app.call("GET", "/v1/accounts", { token: gated.company.ownerKey })).status).toBe(200)
  })
})

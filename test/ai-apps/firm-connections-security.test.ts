import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { agentModel, newKey, type TestCompany } from "../support/index.ts"
import { type AuthApp, createFirm, form, makeAiApp, pkce, redirectUri, registerClient } from "../support/ai-apps.ts"
import { connectMcp } from "../support/mcp.ts"

/**
 * A firm AI connection is the firm's (spec 4.3): a client sees only its own part of it and never
 * changes it; its token reaches a client only through the firm's live grant there and holds no
 * more than the grant allows (spec 5.2); only a firm admin creates or changes one.
 */

let app: AuthApp
beforeAll(async () => {
  app = await makeAiApp()
}, 240_000)
afterAll(() => app.close())

type Firm = Awaited<ReturnType<typeof createFirm>>

const call = (token: string, method: "GET" | "POST", path: string, body?: unknown, company?: string) =>
  app.call(method, path, {
    token,
    ...(method === "POST" ? { key: newKey() } : {}),
    ...(body === undefined ? {} : { body }),
    headers: { "x-agent-model": agentModel, ...(company === undefined ? {} : { "x-ledger-company": company }) }
  })

const grant = async (company: TestCompany, firm: Firm, scopes: ReadonlyArray<string>) => {
  const result = await call(company.ownerKey, "POST", "/v1/firm-access", { firm_id: firm.firmId, scopes, billing: "client", reason: "Our accountants" })
  expect(result.status, JSON.stringify(result.body)).toBe(201)
  return result.body.id as number
}

const sessionOf = async (key: string) => (await call(key, "POST", "/v1/firm/sessions", {})).body.secret as string

/** A firm session approves a connection to `companies` at `suggest`; the firm's key then sets `level`. */
const firmConnection = async (firm: Firm, companies: ReadonlyArray<string>, level: "read" | "suggest" | "post") => {
  const client = await registerClient(app)
  const { verifier, challenge } = pkce()
  const created = await call(await sessionOf(firm.adminKey), "POST", "/v1/firm/ai-connections", {
    client_id: client.client_id, redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: "S256",
    state: "s", level: "suggest", company_ids: companies
  })
  expect(created.status, JSON.stringify(created.body)).toBe(201)
  const id = created.body.connection.id as number
  if (level !== "suggest") expect((await call(firm.adminKey, "POST", `/v1/firm/ai-connections/${id}/level`, { level })).status).toBe(200)
  const tokens = await form(app, "/oauth/token", { grant_type: "authorization_code", code: created.body.code, code_verifier: verifier, client_id: client.client_id, redirect_uri: redirectUri })
  expect(tokens.status, JSON.stringify(tokens.body)).toBe(200)
  return { id, client, access: tokens.body.access_token as string, refresh: tokens.body.refresh_token as string }
}

const entry = (token: string, company: string) =>
  call(token, "POST", "/v1/journal-entries/propose", {
    entry_date: new Date().toISOString().slice(0, 10), lines: [{ account: "6070", debit_cents: 500 }, { account: "1010", credit_cents: 500 }]
  }, company)

describe("a client's view of a firm connection", () => {
  it("shows only the client's own part, and refuses the client's level change and disconnect", async () => {
    const firm = await createFirm(app)
    const b = await app.createCompany()
    const c = await app.createCompany()
    await grant(b, firm, ["read"])
    await grant(c, firm, ["read", "propose"])
    const { id, access } = await firmConnection(firm, [b.companyId, c.companyId], "suggest")

    const raised = await call(b.ownerKey, "POST", `/v1/ai-connections/${id}/level`, { level: "post" })
    expect(raised.status, JSON.stringify(raised.body)).toBe(403)
    expect(raised.body.error.type).toBe("forbidden")
    expect((await entry(access, c.companyId)).status).toBe(202)
    const cut = await call(b.ownerKey, "POST", `/v1/ai-connections/${id}/disconnect`, { reason: "Not ours" })
    expect(cut.status, JSON.stringify(cut.body)).toBe(403)
    expect((await call(access, "GET", "/v1/company", undefined, c.companyId)).status).toBe(200)

    const seen = await call(c.ownerKey, "GET", `/v1/ai-connections/${id}`)
    expect(seen.status).toBe(200)
    expect(seen.body.company_ids).toEqual([c.companyId])
    expect(seen.body.level).toBe("suggest")
    const listed = (await call(b.ownerKey, "GET", "/v1/ai-connections")).body.data.find((x: any) => x.id === id)
    expect(listed.company_ids).toEqual([b.companyId])
  })
})

describe("a firm connection's token under the client's grant", () => {
  it("stops reaching a client once the grant is revoked, over REST, after a refresh, and over MCP", async () => {
    const firm = await createFirm(app)
    const b = await app.createCompany()
    const grantId = await grant(b, firm, ["read", "propose"])
    const { client, access, refresh } = await firmConnection(firm, [b.companyId], "suggest")
    const mcp = await connectMcp(app, access)
    try {
      expect((await mcp.callTool({ name: "get_company", arguments: {} })).isError).not.toBe(true)
      expect((await call(access, "GET", "/v1/company", undefined, b.companyId)).status).toBe(200)
      expect((await call(b.ownerKey, "POST", `/v1/firm-access/${grantId}/revoke`, { reason: "Changed accountants" })).status).toBe(200)

      const read = await call(access, "GET", "/v1/company", undefined, b.companyId)
      expect(read.status, JSON.stringify(read.body)).toBe(404)
      expect((await entry(access, b.companyId)).status).toBe(404)
      const viaMcp = await mcp.callTool({ name: "get_company", arguments: {} }).then((result) => result.isError === true, () => true)
      expect(viaMcp).toBe(true)

      const refreshed = await form(app, "/oauth/token", { grant_type: "refresh_token", refresh_token: refresh, client_id: client.client_id })
      // Refused, or a token that reaches nothing there.
      const reaches = refreshed.status === 200 && (await call(refreshed.body.access_token, "GET", "/v1/company", undefined, b.companyId)).status !== 404
      expect(reaches).toBe(false)
    } finally {
      await mcp.close()
    }
  })

  it("holds no more than the grant allows: a post connection under a read-only grant only reads", async () => {
    const firm = await createFirm(app)
    const b = await app.createCompany()
    const c = await app.createCompany()
    await grant(b, firm, ["read"])
    await grant(c, firm, ["read", "propose"])
    const { access } = await firmConnection(firm, [b.companyId, c.companyId], "post")

    expect((await call(access, "GET", "/v1/accounts", undefined, b.companyId)).status).toBe(200)
    const posted = await entry(access, b.companyId)
    expect(posted.status, JSON.stringify(posted.body)).toBe(403)
    expect(posted.body.error.type).toBe("insufficient_scope")
    const contact = await call(access, "POST", "/v1/contacts", { kind: "customer", name: "Globex", email: "g@example.test" }, b.companyId)
    expect(contact.status, JSON.stringify(contact.body)).toBe(403)
    // Where the grant allows writes, the firm's chosen level applies.
    expect((await entry(access, c.companyId)).status).toBe(201)
  })
})

describe("firm connections are a firm admin's", () => {
  it("refuses a cpa creating, changing or disconnecting one", async () => {
    const firm = await createFirm(app)
    const b = await app.createCompany()
    await grant(b, firm, ["read", "propose"])
    const { id } = await firmConnection(firm, [b.companyId], "suggest")
    const member = await call(firm.adminKey, "POST", "/v1/firm/members", { name: "A cpa", role: "cpa" })
    expect(member.status, JSON.stringify(member.body)).toBe(201)
    const key = await call(firm.adminKey, "POST", "/v1/firm/keys", { principal_type: "member", member_id: member.body.id, scopes: member.body.scopes })
    expect(key.status, JSON.stringify(key.body)).toBe(201)
    const cpa = key.body.secret as string

    const client = await registerClient(app)
    const created = await call(await sessionOf(cpa), "POST", "/v1/firm/ai-connections", {
      client_id: client.client_id, redirect_uri: redirectUri, code_challenge: pkce().challenge, code_challenge_method: "S256",
      level: "suggest", company_ids: [b.companyId]
    })
    expect(created.status, JSON.stringify(created.body)).toBe(403)
    expect((await call(cpa, "POST", `/v1/firm/ai-connections/${id}/level`, { level: "read" })).status).toBe(403)
    expect((await call(cpa, "POST", `/v1/firm/ai-connections/${id}/disconnect`, { reason: "x" })).status).toBe(403)
    // Reading the firm's connections stays open to its members.
    expect((await call(cpa, "GET", "/v1/firm/ai-connections")).status).toBe(200)
  })
})

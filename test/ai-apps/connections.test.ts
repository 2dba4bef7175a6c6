import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { newKey, type TestCompany } from "../support/index.ts"
import { approve, type AuthApp, base, connectedApp, form, makeAiApp, type Owner, ownerSignedIn, pkce, redirectUri, registerClient } from "../support/ai-apps.ts"

/** AI app connections (spec 4.3): approval refusals, the token endpoint's refusals, levels, disconnect, firm connections. */

let app: AuthApp
let owner: Owner
beforeAll(async () => {
  app = await makeAiApp()
  owner = await ownerSignedIn(app)
}, 240_000)
afterAll(() => app.close())

const request = (clientId: string, challenge: string, extra: Record<string, unknown> = {}) => ({
  client_id: clientId, redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: "S256", ...extra
})

describe("the metadata and the 401 challenge", () => {
  it("publishes protected-resource and authorization-server metadata and challenges /mcp without a token", async () => {
    const resource = await (await app.fetch(new Request(`${base}/.well-known/oauth-protected-resource`))).json() as any
    expect(resource).toMatchObject({ resource: `${base}/mcp`, authorization_servers: [base] })
    const server = await (await app.fetch(new Request(`${base}/.well-known/oauth-authorization-server`))).json() as any
    expect(server.code_challenge_methods_supported).toEqual(["S256"])
    expect(server.token_endpoint).toBe(`${base}/oauth/token`)
    const mcp = await app.fetch(new Request(`${base}/mcp`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }))
    expect(mcp.status).toBe(401)
    expect(mcp.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${base}/.well-known/oauth-protected-resource"`)
  })
})

describe("approval and code exchange refusals", () => {
  it("refuses plain PKCE, unknown clients and redirect URIs that do not match exactly, at authorize and at approval", async () => {
    const client = await registerClient(app)
    const { challenge } = pkce()
    const authorize = (params: Record<string, string>) =>
      app.fetch(new Request(`${base}/oauth/authorize?${new URLSearchParams({ response_type: "code", client_id: client.client_id, redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: "S256", ...params })}`, { redirect: "manual" }))
    expect((await authorize({})).status).toBe(302)
    const plain = await authorize({ code_challenge_method: "plain" })
    expect(new URL(plain.headers.get("location")!).searchParams.get("error")).toBe("invalid_request")
    expect((await authorize({ redirect_uri: `${redirectUri}/` })).status).toBe(400)
    expect((await authorize({ client_id: "ldgc_nobody" })).status).toBe(400)

    expect((await approve(app, owner, request(client.client_id, challenge, { code_challenge_method: "plain" }))).body.error.type).toBe("invalid_code_challenge")
    expect((await approve(app, owner, request(client.client_id, challenge, { redirect_uri: "http://127.0.0.1:33418/callback?x=1" }))).body.error.type).toBe("invalid_redirect_uri")
    expect((await approve(app, owner, request("ldgc_unknown", challenge))).body.error.type).toBe("invalid_client")
    // An API key is no browser session: the consent screen is the person's own.
    const byKey = await app.call("POST", "/v1/ai-connections", { token: owner.company.ownerKey, key: newKey(), body: request(client.client_id, challenge) })
    expect(byKey.status).toBe(403)
    expect((await approve(app, owner, request(client.client_id, challenge, { account_codes: ["3000"] }))).body.error.type).toBe("equity_account_refused")
  })

  it("refuses a wrong verifier, a wrong redirect URI, another client and a reused code (which revokes its tokens)", async () => {
    const client = await registerClient(app)
    const { verifier, challenge } = pkce()
    const code = (await approve(app, owner, request(client.client_id, challenge))).body.code as string
    const exchange = (fields: Record<string, string>) =>
      form(app, "/oauth/token", { grant_type: "authorization_code", code, code_verifier: verifier, client_id: client.client_id, redirect_uri: redirectUri, ...fields })
    // The first refusal marks the code used: a code is single use whatever happens.
    const wrongVerifier = await exchange({ code_verifier: pkce().verifier })
    expect(wrongVerifier).toMatchObject({ status: 400, body: { error: "invalid_grant" } })
    const again = await exchange({})
    expect(again.status).toBe(400)

    const second = pkce()
    const code2 = (await approve(app, owner, request(client.client_id, second.challenge))).body.code as string
    const redirect = await form(app, "/oauth/token", { grant_type: "authorization_code", code: code2, code_verifier: second.verifier, client_id: client.client_id, redirect_uri: "http://127.0.0.1:1/other" })
    expect(redirect.body.error).toBe("invalid_grant")

    const third = pkce()
    const code3 = (await approve(app, owner, request(client.client_id, third.challenge))).body.code as string
    const fields = { grant_type: "authorization_code", code: code3, code_verifier: third.verifier, client_id: client.client_id, redirect_uri: redirectUri }
    const tokens = await form(app, "/oauth/token", fields)
    expect(tokens.status).toBe(200)
    expect((await app.call("GET", "/v1/accounts", { token: tokens.body.access_token })).status).toBe(200)
    expect((await form(app, "/oauth/token", fields)).body.error).toBe("invalid_grant")
    expect((await app.call("GET", "/v1/accounts", { token: tokens.body.access_token })).status).toBe(401)
    expect((await form(app, "/oauth/token", { grant_type: "password" })).body.error).toBe("unsupported_grant_type")
  })
})

describe("levels and disconnect", () => {
  it("maps levels to the agent's scopes and threshold; a level change ends access tokens; disconnect is final", async () => {
    const { connection, tokens, client } = await connectedApp(app, owner, "post", { per_entry_cap_cents: 50_000, daily_cap_cents: 200_000 })
    expect(connection).toMatchObject({ level: "post", scopes: ["read", "propose"], per_entry_cap_cents: 50_000, status: "active" })
    const [agent] = await app.query<{ scopes: unknown; posting_threshold_cents: unknown }>(
      "SELECT scopes, posting_threshold_cents FROM agents WHERE company_id = $1 AND id = $2", [owner.company.companyId, connection.agent_id])
    expect(Number(agent!.posting_threshold_cents)).toBe(50_000)
    const listed = await app.call("GET", "/v1/ai-connections", { token: owner.company.ownerKey })
    expect(listed.body.data.map((c: any) => c.id)).toContain(connection.id)

    const changed = await app.call("POST", `/v1/ai-connections/${connection.id}/level`, { token: owner.company.ownerKey, key: newKey(), body: { level: "read" } })
    expect(changed.status, JSON.stringify(changed.body)).toBe(200)
    expect(changed.body.scopes).toEqual(["read"])
    expect((await app.call("GET", "/v1/accounts", { token: tokens.access_token })).status).toBe(401)
    const refreshed = await form(app, "/oauth/token", { grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: client.client_id })
    expect(refreshed.body.scope).toBe("ledger:read")
    expect((await app.call("GET", "/v1/accounts", { token: refreshed.body.access_token })).status).toBe(200)

    const ended = await app.call("POST", `/v1/ai-connections/${connection.id}/disconnect`, { token: owner.company.ownerKey, key: newKey(), body: { reason: "No longer used" } })
    expect(ended.body.status).toBe("disconnected")
    expect((await app.call("GET", "/v1/accounts", { token: refreshed.body.access_token })).status).toBe(401)
    expect((await form(app, "/oauth/token", { grant_type: "refresh_token", refresh_token: refreshed.body.refresh_token, client_id: client.client_id })).body.error).toBe("invalid_grant")
    const mcp = await app.fetch(new Request(`${base}/mcp`, { method: "POST", headers: { authorization: `Bearer ${refreshed.body.access_token}`, "content-type": "application/json" }, body: "{}" }))
    expect(mcp.status).toBe(401)
    expect(mcp.headers.get("www-authenticate")).toContain('error="invalid_token"')
    expect((await app.call("POST", `/v1/ai-connections/${connection.id}/disconnect`, { token: owner.company.ownerKey, key: newKey(), body: { reason: "again" } })).body.error.type).toBe("connection_ended")
    expect((await app.call("GET", "/v1/ai-connections", { token: owner.company.ownerKey })).body.data.map((c: any) => c.id)).not.toContain(connection.id)
    expect((await app.call("GET", `/v1/ai-connections?include_ended=true`, { token: owner.company.ownerKey })).body.data.map((c: any) => c.id)).toContain(connection.id)
    expect((await app.call("GET", `/v1/ai-connections/${connection.id}`, { token: owner.company.ownerKey })).body.disconnect_reason).toBe("No longer used")
  })

  it("keeps other companies' connections out of sight", async () => {
    const other = await app.createCompany()
    const { connection } = await connectedApp(app, owner, "read")
    expect((await app.call("GET", `/v1/ai-connections/${connection.id}`, { token: other.ownerKey })).status).toBe(404)
  })
})

const firmCall = (token: string, method: "GET" | "POST", path: string, body?: unknown) =>
  app.call(method, path, { token, ...(method === "POST" ? { key: newKey() } : {}), ...(body === undefined ? {} : { body }) })

const createFirm = async () => {
  const result = await app.call("POST", "/v1/firms", { token: app.operatorToken, key: newKey(), body: { name: "AI Firm CPAs", admin_name: "Ada Admin" } })
  expect(result.status, JSON.stringify(result.body)).toBe(201)
  return { firmId: result.body.firm.id as number, adminKey: result.body.secret as string }
}

const grantAccess = async (company: TestCompany, firmId: number) => {
  const result = await app.call("POST", "/v1/firm-access", {
    token: company.ownerKey, key: newKey(), body: { firm_id: firmId, scopes: ["read", "propose", "approve", "admin"], billing: "client", reason: "Our accountants" }
  })
  expect(result.status, JSON.stringify(result.body)).toBe(201)
}

describe("firm connections", () => {
  it("needs a firm member's browser session to approve; lists the firm's connections", async () => {
    const firm = await createFirm()
    await grantAccess(owner.company, firm.firmId)
    const client = await registerClient(app)
    const byKey = await firmCall(firm.adminKey, "POST", "/v1/firm/ai-connections", { ...request(client.client_id, pkce().challenge), company_ids: [owner.company.companyId] })
    expect(byKey.status).toBe(403)
    const listed = await firmCall(firm.adminKey, "GET", "/v1/firm/ai-connections")
    expect(listed.status, JSON.stringify(listed.body)).toBe(200)
    expect(listed.body.data).toEqual([])
    expect((await firmCall(firm.adminKey, "POST", "/v1/firm/ai-connections/1/level", { level: "read" })).status).toBe(404)
    expect((await firmCall(firm.adminKey, "POST", "/v1/firm/ai-connections/1/disconnect", { reason: "x" })).status).toBe(404)
  })

  it("creates one agent per client from a firm admin's session; the token names the client; level and disconnect apply in every client", async () => {
    const firm = await createFirm()
    const second = await app.createCompany()
    await grantAccess(owner.company, firm.firmId)
    await grantAccess(second, firm.firmId)
    const session = (await firmCall(firm.adminKey, "POST", "/v1/firm/sessions", {})).body.secret as string
    expect(session).toMatch(/^ldgf_/)
    const client = await registerClient(app)
    const { verifier, challenge } = pkce()
    const created = await firmCall(session, "POST", "/v1/firm/ai-connections", {
      ...request(client.client_id, challenge), level: "suggest", company_ids: [owner.company.companyId, second.companyId]
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    expect(created.body.connection.kind).toBe("firm")
    expect(created.body.connection.company_ids).toHaveLength(2)
    const tokens = await form(app, "/oauth/token", { grant_type: "authorization_code", code: created.body.code, code_verifier: verifier, client_id: client.client_id, redirect_uri: redirectUri })
    const token = tokens.body.access_token as string
    const inClient = (company: string | null) =>
      app.call("GET", "/v1/company", { token, headers: company === null ? {} : { "x-ledger-company": company } })
    expect((await inClient(second.companyId)).status).toBe(200)
    expect((await inClient(null)).status).toBe(401)
    // The client sees the firm's connection reaching it.
    const seen = await app.call("GET", "/v1/ai-connections", { token: second.ownerKey })
    expect(seen.body.data.map((c: any) => c.id)).toContain(created.body.connection.id)

    const id = created.body.connection.id
    const changed = await firmCall(firm.adminKey, "POST", `/v1/firm/ai-connections/${id}/level`, { level: "read" })
    expect(changed.status, JSON.stringify(changed.body)).toBe(200)
    expect((await inClient(second.companyId)).status).toBe(401)
    const ended = await firmCall(firm.adminKey, "POST", `/v1/firm/ai-connections/${id}/disconnect`, { reason: "Engagement over" })
    expect(ended.body.status).toBe("disconnected")
    const agents = await app.query<{ status: string }>("SELECT a.status FROM agents a JOIN ai_connection_agents x ON x.company_id = a.company_id AND x.agent_id = a.id WHERE x.connection_id = $1", [id])
    expect(agents.map((agent) => agent.status)).toEqual(["revoked", "revoked"])
    expect((await firmCall(firm.adminKey, "GET", "/v1/firm/ai-connections?include_ended=true")).body.data.map((c: any) => c.id)).toContain(id)
  })
})

describe("one code, exchanged twice at once", () => {
  it("gives tokens once", async () => {
    const client = await registerClient(app)
    const { verifier, challenge } = pkce()
    const code = (await approve(app, owner, request(client.client_id, challenge))).body.code as string
    const fields = { grant_type: "authorization_code", code, code_verifier: verifier, client_id: client.client_id, redirect_uri: redirectUri }
    const answers = await Promise.all([form(app, "/oauth/token", fields), form(app, "/oauth/token", fields), form(app, "/oauth/token", fields)])
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1)
  })
})

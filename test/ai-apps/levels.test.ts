import { createHash } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { agentModel, connectMcp, newKey } from "../support/index.ts"
import { approve, type AuthApp, connectedApp, form, makeAiApp, type Owner, ownerSignedIn, pkce, redirectUri, registerClient } from "../support/ai-apps.ts"

/** Levels through the governed write path and the MCP tool list; step-up for post; code expiry; revocation. */

let app: AuthApp
let owner: Owner
beforeAll(async () => {
  app = await makeAiApp()
  owner = await ownerSignedIn(app)
}, 240_000)
afterAll(() => app.close())

const today = () => new Date().toISOString().slice(0, 10)
const propose = (token: string, cents: number) =>
  app.call("POST", "/v1/journal-entries/propose", {
    token, key: newKey(), headers: { "x-agent-model": agentModel },
    body: { entry_date: today(), lines: [{ account: "6070", debit_cents: cents }, { account: "1010", credit_cents: cents }] }
  })

describe("levels in action", () => {
  it("post posts within the per-entry cap (201) and proposes over it (202); suggest always proposes; read may not write", async () => {
    const post = await connectedApp(app, owner, "post", { per_entry_cap_cents: 5_000 })
    const within = await propose(post.tokens.access_token, 4_000)
    expect(within.status, JSON.stringify(within.body)).toBe(201)
    const over = await propose(post.tokens.access_token, 6_000)
    expect(over.status, JSON.stringify(over.body)).toBe(202)
    expect(over.body.proposal.created_by).toMatchObject({ type: "agent", id: post.connection.agent_id })

    // The daily cap: 4,000 posted of 9,000 leaves 5,000; then 4,500 posts and 1,000 more is proposed.
    const capped = await connectedApp(app, owner, "post", { per_entry_cap_cents: 5_000, daily_cap_cents: 9_000 })
    expect((await propose(capped.tokens.access_token, 4_000)).status).toBe(201)
    expect((await propose(capped.tokens.access_token, 4_500)).status).toBe(201)
    expect((await propose(capped.tokens.access_token, 1_000)).status).toBe(202)

    const suggest = await connectedApp(app, owner, "suggest")
    expect((await propose(suggest.tokens.access_token, 1)).status).toBe(202)

    const read = await connectedApp(app, owner, "read")
    const refused = await propose(read.tokens.access_token, 1)
    expect(refused.status).toBe(403)
    expect(refused.body.error.type).toBe("insufficient_scope")
  })

  it("sizes the MCP tool list to the level", async () => {
    const read = await connectedApp(app, owner, "read")
    const suggest = await connectedApp(app, owner, "suggest")
    const toolsOf = async (token: string) => {
      const client = await connectMcp(app, token, { "x-agent-model": agentModel, "x-ledger-toolsets": "all" })
      const names = (await client.listTools()).tools.map((tool) => tool.name)
      await client.close()
      return names
    }
    const readTools = await toolsOf(read.tokens.access_token)
    const suggestTools = await toolsOf(suggest.tokens.access_token)
    expect(readTools.some((name) => name.startsWith("list_"))).toBe(true)
    expect(readTools).not.toContain("propose_journal_entry")
    expect(suggestTools.length).toBeGreaterThan(readTools.length)
    // Never the consent screen's approval, nor people-only tools.
    expect(suggestTools).not.toContain("create_ai_connection")
  })
})

describe("step-up, code expiry and revocation", () => {
  it("asks a session without a recent step-up to confirm before approving post", async () => {
    const stale = await ownerSignedIn(app)
    const hash = createHash("sha256").update(stale.session).digest("hex")
    await app.query("UPDATE auth_sessions SET stepped_up_at = now() - interval '1 hour' WHERE secret_hash = $1", [hash])
    const client = await registerClient(app)
    const body = { client_id: client.client_id, redirect_uri: redirectUri, code_challenge: pkce().challenge, code_challenge_method: "S256" }
    const refused = await approve(app, stale, { ...body, level: "post" })
    expect(refused.status).toBe(403)
    expect(refused.body.error.type).toBe("step_up_required")
    expect((await approve(app, stale, { ...body, level: "suggest" })).status).toBe(201)
  })

  it("refuses an expired code, and revokes a refresh token with its family (RFC 7009)", async () => {
    const client = await registerClient(app)
    const { verifier, challenge } = pkce()
    const approval = await app.call("POST", "/v1/ai-connections", {
      token: (await ownerSignedIn(app)).session, key: newKey(),
      body: { client_id: client.client_id, redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: "S256", level: "read" }
    })
    await app.query("UPDATE oauth_codes SET expires_at = now() - interval '1 second' WHERE client_id = $1", [client.client_id])
    const expired = await form(app, "/oauth/token", { grant_type: "authorization_code", code: approval.body.code, code_verifier: verifier, client_id: client.client_id, redirect_uri: redirectUri })
    expect(expired.body).toMatchObject({ error: "invalid_grant", error_description: "The authorization code has expired." })

    const { client: revoking, tokens } = await connectedApp(app, owner, "read")
    expect((await form(app, "/oauth/revoke", { token: tokens.refresh_token })).status).toBe(200)
    expect((await app.call("GET", "/v1/accounts", { token: tokens.access_token })).status).toBe(401)
    expect((await form(app, "/oauth/token", { grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: revoking.client_id })).body.error).toBe("invalid_grant")
    expect((await form(app, "/oauth/revoke", { token: "ldgrt_unknown" })).status).toBe(200)
  })
})

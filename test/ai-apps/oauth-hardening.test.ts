import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { approve, type AuthApp, base, connectedApp, createFirm, form, makeAiApp, type Owner, ownerSignedIn, pkce, redirectUri, registerClient } from "../support/ai-apps.ts"
import { newKey } from "../support/index.ts"

/**
 * The authorization server refuses what an attacker tried: a token bound to another resource
 * (RFC 8707 invalid_target), a refresh without the public client's id, a redirect URI with
 * userinfo; and `/mcp` refuses a presented credential that is not good, even for tools/list.
 */

let app: AuthApp
let owner: Owner
beforeAll(async () => {
  app = await makeAiApp()
  owner = await ownerSignedIn(app)
}, 240_000)
afterAll(() => app.close())

const evil = "https://evil.example/mcp"

describe("RFC 8707 resource", () => {
  it("answers an unknown resource at authorize with an invalid_target redirect; its own endpoint, normalized, goes on", async () => {
    const client = await registerClient(app)
    const { challenge } = pkce()
    const authorize = (resource: string) =>
      app.fetch(new Request(`${base}/oauth/authorize?${new URLSearchParams({ response_type: "code", client_id: client.client_id, redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: "S256", state: "s1", resource })}`, { redirect: "manual" }))
    const refused = await authorize(evil)
    expect(refused.status).toBe(302)
    const back = new URL(refused.headers.get("location")!)
    expect(`${back.origin}${back.pathname}`).toBe(redirectUri)
    expect(back.searchParams.get("error")).toBe("invalid_target")
    expect(back.searchParams.get("state")).toBe("s1")
    for (const own of [`${base}/mcp`, "HTTP://LEDGER.TEST:80/mcp/"]) {
      const consent = await authorize(own)
      expect(new URL(consent.headers.get("location")!).pathname).toBe("/connect")
    }
  })

  it("gives no token for an approval bound to another resource, nor for another resource named at the token endpoint", async () => {
    const client = await registerClient(app)
    const exchange = async (approvedResource: string | undefined, asked: Record<string, string> = {}) => {
      const { verifier, challenge } = pkce()
      const approval = await approve(app, owner, {
        client_id: client.client_id, redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: "S256", level: "read", resource: approvedResource
      })
      expect(approval.status, JSON.stringify(approval.body)).toBe(201)
      return form(app, "/oauth/token", {
        grant_type: "authorization_code", code: approval.body.code, code_verifier: verifier, client_id: client.client_id, redirect_uri: redirectUri, ...asked
      })
    }
    const bound = await exchange(evil)
    expect(bound.status).toBe(400)
    expect(bound.body.error).toBe("invalid_target")
    const asked = await exchange(undefined, { resource: evil })
    expect(asked.status).toBe(400)
    expect(asked.body.error).toBe("invalid_target")
    const own = await exchange(`${base}/mcp`, { resource: `${base}/mcp` })
    expect(own.status, JSON.stringify(own.body)).toBe(200)
    const refreshed = await form(app, "/oauth/token", { grant_type: "refresh_token", refresh_token: own.body.refresh_token, client_id: client.client_id, resource: evil })
    expect(refreshed.body.error).toBe("invalid_target")
  })
})

describe("refresh and registration", () => {
  it("refuses a refresh without the public client's client_id, and leaves the token good", async () => {
    const { client, tokens } = await connectedApp(app, owner)
    const anonymous = await form(app, "/oauth/token", { grant_type: "refresh_token", refresh_token: tokens.refresh_token })
    expect(anonymous.status).toBe(400)
    expect(anonymous.body.error).toBe("invalid_request")
    const named = await form(app, "/oauth/token", { grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: client.client_id })
    expect(named.status, JSON.stringify(named.body)).toBe(200)
  })

  it("refuses redirect URIs with userinfo", async () => {
    for (const uri of ["https://user:pw@app.example/cb", "https://user@app.example/cb", "http://x@127.0.0.1:33418/callback"]) {
      const response = await app.fetch(new Request(`${base}/oauth/register`, {
        method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ redirect_uris: [uri] })
      }))
      expect(response.status, uri).toBe(400)
      expect(((await response.json()) as { error: string }).error).toBe("invalid_redirect_uri")
    }
  })
})

const toolsList = (authorization: string) =>
  app.fetch(new Request(`${base}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" })
  }))

describe("/mcp with a credential that is not good", () => {
  it("answers tools/list 401 invalid_token to a garbage, malformed, revoked or signed-out credential; good ones list", async () => {
    const { client, tokens } = await connectedApp(app, owner)
    await form(app, "/oauth/revoke", { token: tokens.access_token, client_id: client.client_id })
    const session = (await ownerSignedIn(app)).session
    expect((await app.call("POST", "/v1/auth/sign-out", { token: session, key: newKey() })).status).toBeLessThan(300)
    for (const authorization of ["Bearer garbage", "Basic dXNlcjpwdw==", `Bearer ${tokens.access_token}`, `Bearer ${session}`]) {
      const refused = await toolsList(authorization)
      expect(refused.status, authorization).toBe(401)
      expect(refused.headers.get("www-authenticate")).toContain('error="invalid_token"')
      expect(refused.headers.get("www-authenticate")).toContain(`resource_metadata="${base}/.well-known/oauth-protected-resource"`)
    }
    const firm = await createFirm(app)
    for (const good of [owner.company.ownerKey, firm.adminKey]) {
      const listed = await toolsList(`Bearer ${good}`)
      expect(listed.status).toBe(200)
    }
  })
})

describe("the consent screen's Decline (issue 38 item 15)", () => {
  const get = (path: string) => app.fetch(new Request(`${base}${path}`, { redirect: "manual" }))

  it("sends the browser back to the app with error=access_denied and the state, creating nothing", async () => {
    const client = await registerClient(app)
    const { challenge } = pkce()
    const state = "s t&ate=1/é"
    // The consent screen's address, as authorize sends the browser there.
    const authorized = await get(`/oauth/authorize?${new URLSearchParams({
      response_type: "code", client_id: client.client_id, redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: "S256", state
    })}`)
    const consent = new URL(authorized.headers.get("location")!)
    expect(consent.pathname).toBe("/connect")
    const codes = async () => Number((await app.query<{ count: string }>(`SELECT count(*) AS count FROM oauth_codes`))[0]!.count)
    const before = await codes()
    const params = new URLSearchParams({ client_id: consent.searchParams.get("client_id")!, redirect_uri: consent.searchParams.get("redirect_uri")!, state: consent.searchParams.get("state")! })
    const declined = await get(`/oauth/decline?${params}`)
    expect(declined.status).toBe(302)
    const back = new URL(declined.headers.get("location")!)
    expect(`${back.origin}${back.pathname}`).toBe(redirectUri)
    expect(back.searchParams.get("error")).toBe("access_denied")
    expect(back.searchParams.get("state")).toBe(state)
    expect(back.searchParams.get("code")).toBeNull()
    expect(await codes()).toBe(before)
    // Without a state, none is invented.
    const stateless = await get(`/oauth/decline?${new URLSearchParams({ client_id: client.client_id, redirect_uri: redirectUri })}`)
    expect(new URL(stateless.headers.get("location")!).searchParams.has("state")).toBe(false)
  })

  it("shows an error, never a redirect, for a redirect URI the client did not register or an unknown client", async () => {
    const client = await registerClient(app)
    for (const [query, error] of [
      [{ client_id: client.client_id, redirect_uri: "https://evil.example/callback", state: "x" }, "invalid_request"],
      [{ client_id: client.client_id, redirect_uri: `${redirectUri}/`, state: "x" }, "invalid_request"],
      [{ client_id: "ldgc_unknown", redirect_uri: redirectUri, state: "x" }, "invalid_client"],
      [{ redirect_uri: redirectUri }, "invalid_client"]
    ] as const) {
      const refused = await get(`/oauth/decline?${new URLSearchParams(query)}`)
      expect(refused.status, JSON.stringify(query)).toBe(400)
      expect(refused.headers.get("location")).toBeNull()
      expect(((await refused.json()) as { error: string }).error).toBe(error)
    }
  })
})

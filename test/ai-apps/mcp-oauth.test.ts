import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { type OAuthClientProvider, UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { approve, type AuthApp, base, form, makeAiApp, ownerSignedIn, redirectUri } from "../support/ai-apps.ts"

/**
 * The official MCP TypeScript SDK client, with its OAuth client provider, against Ledger over
 * HTTP: discovery from a 401, registration, authorize (the test plays the person approving),
 * the code exchange, tools/list; then refresh, reuse detection and disconnect.
 */

class MemoryProvider implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined
  saved: OAuthTokens | undefined
  verifier = ""
  authorizationUrl: URL | undefined
  get redirectUrl() {
    return redirectUri
  }
  get clientMetadata(): OAuthClientMetadata {
    return { client_name: "SDK test client", redirect_uris: [redirectUri], grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], token_endpoint_auth_method: "none" }
  }
  clientInformation() {
    return this.client
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info
  }
  tokens() {
    return this.saved
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier
  }
  codeVerifier() {
    return this.verifier
  }
}

let app: AuthApp
beforeAll(async () => {
  app = await makeAiApp()
}, 240_000)
afterAll(() => app.close())

const transportFor = (provider: OAuthClientProvider) =>
  new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
    authProvider: provider,
    // Every tool the app may use (`all`), to see what its level leaves out (the default list is small, ADR 2200).
    requestInit: { headers: { "x-ledger-toolsets": "all" } },
    fetch: (input: string | URL | Request, init?: RequestInit) => app.fetch(new Request(input, init))
  })

describe("an MCP client connects through OAuth", () => {
  it("discovers, registers, is approved, exchanges the code and lists tools; refresh rotates; reuse kills the family; disconnect ends it", async () => {
    const owner = await ownerSignedIn(app)
    const provider = new MemoryProvider()
    const first = new Client({ name: "sdk-oauth", version: "1.0.0" })
    await expect(first.connect(transportFor(provider))).rejects.toBeInstanceOf(UnauthorizedError)
    expect(provider.client?.client_id).toMatch(/^ldgc_/)
    const authorization = provider.authorizationUrl!
    expect(authorization.pathname).toBe("/oauth/authorize")
    expect(authorization.searchParams.get("code_challenge_method")).toBe("S256")

    // The browser follows the authorization URL to the consent screen; the person approves.
    const redirect = await app.fetch(new Request(authorization, { redirect: "manual" }))
    expect(redirect.status).toBe(302)
    const consent = new URL(redirect.headers.get("location")!)
    expect(consent.pathname).toBe("/connect")
    const approval = await approve(app, owner, {
      client_id: consent.searchParams.get("client_id"),
      redirect_uri: consent.searchParams.get("redirect_uri"),
      code_challenge: consent.searchParams.get("code_challenge"),
      code_challenge_method: consent.searchParams.get("code_challenge_method"),
      resource: consent.searchParams.get("resource") ?? undefined,
      state: consent.searchParams.get("state") ?? undefined,
      level: "read"
    })
    expect(approval.status, JSON.stringify(approval.body)).toBe(201)
    const back = new URL(approval.body.redirect_to)
    expect(back.searchParams.get("code")).toBe(approval.body.code)

    const transport = transportFor(provider)
    await transport.finishAuth(approval.body.code)
    expect(provider.saved?.access_token).toMatch(/^ldgat_/)
    const client = new Client({ name: "sdk-oauth", version: "1.0.0" })
    await client.connect(transport)
    const tools = (await client.listTools()).tools.map((tool) => tool.name)
    expect(tools.length).toBeGreaterThan(0)
    // A read-level app sees reads only.
    expect(tools).not.toContain("create_item")
    expect(tools).toContain("list_accounts")
    const accounts = await client.callTool({ name: "list_accounts", arguments: {} })
    expect(accounts.isError ?? false, JSON.stringify(accounts)).toBe(false)
    await client.close()

    // A refresh rotates; the old refresh token used again revokes the whole family.
    const firstRefresh = provider.saved!.refresh_token!
    const rotated = await form(app, "/oauth/token", { grant_type: "refresh_token", refresh_token: firstRefresh, client_id: provider.client!.client_id })
    expect(rotated.status).toBe(200)
    expect(rotated.body.refresh_token).not.toBe(firstRefresh)
    const works = await app.call("GET", "/v1/ai-connections", { token: rotated.body.access_token })
    expect(works.status).toBe(403) // people only, but the token authenticated
    const reused = await form(app, "/oauth/token", { grant_type: "refresh_token", refresh_token: firstRefresh, client_id: provider.client!.client_id })
    expect(reused.status).toBe(400)
    expect(reused.body.error).toBe("invalid_grant")
    const dead = await app.call("GET", "/v1/accounts", { token: rotated.body.access_token })
    expect(dead.status).toBe(401)
    const deadRefresh = await form(app, "/oauth/token", { grant_type: "refresh_token", refresh_token: rotated.body.refresh_token, client_id: provider.client!.client_id })
    expect(deadRefresh.body.error).toBe("invalid_grant")
  })
})

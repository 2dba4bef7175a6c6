import * as oauth from "oauth4webapi"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { approve, type AuthApp, base, makeAiApp, type Owner, ownerSignedIn, redirectUri } from "../support/ai-apps.ts"

/**
 * oauth4webapi, a second OAuth client written by others, against Ledger over HTTP: resource and
 * authorization-server discovery, dynamic registration, PKCE authorize through the consent
 * screen's approval, the code exchange, refresh with rotation, reuse detection and revocation; and
 * the refusals of a wrong verifier, a wrong redirect URI, an expired code and a reused code.
 */

let app: AuthApp
let owner: Owner
beforeAll(async () => {
  app = await makeAiApp()
  owner = await ownerSignedIn(app)
}, 240_000)
afterAll(() => app.close())

/** The library's requests go to the in-process server; plain http is fine for a test host. */
const options = () => ({
  [oauth.allowInsecureRequests]: true,
  [oauth.customFetch]: (url: string, init: oauth.CustomFetchOptions<string, unknown>) =>
    app.fetch(new Request(url, { method: init.method, headers: init.headers, body: init.body as BodyInit | null, redirect: "manual" }))
})

const clientAuth = oauth.None()

/** Discovery from the MCP endpoint's 401, as an MCP client does it, then registration. */
const discoverAndRegister = async () => {
  const unauthenticated = await app.fetch(new Request(`${base}/mcp`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }))
  expect(unauthenticated.status).toBe(401)
  const challenge = unauthenticated.headers.get("www-authenticate") ?? ""
  const metadataUrl = /resource_metadata="([^"]+)"/u.exec(challenge)?.[1]
  expect(metadataUrl).toBe(`${base}/.well-known/oauth-protected-resource`)

  const resource = await oauth.processResourceDiscoveryResponse(new URL(`${base}/mcp`), await oauth.resourceDiscoveryRequest(new URL(`${base}/mcp`), options()))
  expect(resource.authorization_servers).toEqual([base])
  const issuer = new URL(resource.authorization_servers![0]!)
  const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { ...options(), algorithm: "oauth2" }))
  expect(as.code_challenge_methods_supported).toEqual(["S256"])

  const registered = await oauth.processDynamicClientRegistrationResponse(await oauth.dynamicClientRegistrationRequest(as, {
    client_name: "oauth4webapi test client",
    redirect_uris: [redirectUri],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none"
  }, options()))
  expect(registered.client_id).toMatch(/^ldgc_/)
  const client: oauth.Client = { client_id: registered.client_id, token_endpoint_auth_method: "none" }
  return { as, client }
}

/** The browser goes to the authorization endpoint and on to the consent screen, where the person approves. */
const authorizeAndApprove = async (as: oauth.AuthorizationServer, client: oauth.Client, level = "read") => {
  const verifier = oauth.generateRandomCodeVerifier()
  const state = oauth.generateRandomState()
  const url = new URL(as.authorization_endpoint!)
  url.searchParams.set("client_id", client.client_id)
  url.searchParams.set("redirect_uri", redirectUri)
  url.searchParams.set("response_type", "code")
  url.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(verifier))
  url.searchParams.set("code_challenge_method", "S256")
  url.searchParams.set("resource", `${base}/mcp`)
  url.searchParams.set("state", state)
  const toConsent = await app.fetch(new Request(url, { redirect: "manual" }))
  expect(toConsent.status).toBe(302)
  const consent = new URL(toConsent.headers.get("location")!)
  expect(consent.pathname).toBe("/connect")
  const approval = await approve(app, owner, {
    client_id: consent.searchParams.get("client_id"),
    redirect_uri: consent.searchParams.get("redirect_uri"),
    code_challenge: consent.searchParams.get("code_challenge"),
    code_challenge_method: consent.searchParams.get("code_challenge_method"),
    resource: consent.searchParams.get("resource"),
    state: consent.searchParams.get("state"),
    level
  })
  expect(approval.status, JSON.stringify(approval.body)).toBe(201)
  // What the redirect URI receives, checked by the library (state, no error).
  const callback = oauth.validateAuthResponse(as, client, new URL(approval.body.redirect_to), state)
  return { verifier, callback, code: approval.body.code as string, connection: approval.body.connection }
}

const exchange = async (as: oauth.AuthorizationServer, client: oauth.Client, callback: URLSearchParams, verifier: string, redirect = redirectUri) =>
  oauth.processAuthorizationCodeResponse(as, client, await oauth.authorizationCodeGrantRequest(as, client, clientAuth, callback, redirect, verifier, options()))

/** The OAuth error a refused request answered, as the library reports it. */
const refusal = async (attempt: Promise<unknown>) => {
  const error = await attempt.then(() => null, (caught: unknown) => caught)
  expect(error).toBeInstanceOf(oauth.ResponseBodyError)
  return (error as oauth.ResponseBodyError).error
}

describe("oauth4webapi as an independent client", () => {
  it("discovers, registers, authorizes with PKCE, exchanges, refreshes with rotation, detects reuse and revokes", async () => {
    const { as, client } = await discoverAndRegister()
    const { verifier, callback } = await authorizeAndApprove(as, client)
    const tokens = await exchange(as, client, callback, verifier)
    expect(tokens.token_type).toBe("bearer")
    expect(tokens.access_token).toMatch(/^ldgat_/)
    expect(tokens.refresh_token).toMatch(/^ldgrt_/)
    expect(tokens.scope).toBe("ledger:read")

    const read = await oauth.protectedResourceRequest(tokens.access_token, "GET", new URL(`${base}/v1/accounts`), new Headers(), null, options())
    expect(read.status).toBe(200)

    // Rotation: a new pair; the old access token still works until it expires, the old refresh token never again.
    const rotated = await oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, clientAuth, tokens.refresh_token!, options()))
    expect(rotated.refresh_token).not.toBe(tokens.refresh_token)
    expect((await app.call("GET", "/v1/accounts", { token: rotated.access_token })).status).toBe(200)
    const second = await oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, clientAuth, rotated.refresh_token!, options()))

    // Reuse of a spent refresh token kills the family: every token issued since ends.
    expect(await refusal(oauth.refreshTokenGrantRequest(as, client, clientAuth, rotated.refresh_token!, options())
      .then((response) => oauth.processRefreshTokenResponse(as, client, response)))).toBe("invalid_grant")
    expect((await app.call("GET", "/v1/accounts", { token: second.access_token })).status).toBe(401)
    expect(await refusal(oauth.refreshTokenGrantRequest(as, client, clientAuth, second.refresh_token!, options())
      .then((response) => oauth.processRefreshTokenResponse(as, client, response)))).toBe("invalid_grant")

    // Revocation (RFC 7009) of a fresh family's refresh token ends its access token too.
    const again = await authorizeAndApprove(as, client)
    const fresh = await exchange(as, client, again.callback, again.verifier)
    expect(await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, clientAuth, fresh.refresh_token!, options()))).toBeUndefined()
    expect((await app.call("GET", "/v1/accounts", { token: fresh.access_token })).status).toBe(401)
    expect(await refusal(oauth.refreshTokenGrantRequest(as, client, clientAuth, fresh.refresh_token!, options())
      .then((response) => oauth.processRefreshTokenResponse(as, client, response)))).toBe("invalid_grant")
  })

  it("refuses a wrong PKCE verifier, a wrong redirect URI, an expired code and a reused code", async () => {
    const { as, client } = await discoverAndRegister()

    const wrongVerifier = await authorizeAndApprove(as, client)
    expect(await refusal(exchange(as, client, wrongVerifier.callback, oauth.generateRandomCodeVerifier()))).toBe("invalid_grant")
    // A refused exchange spends the code.
    expect(await refusal(exchange(as, client, wrongVerifier.callback, wrongVerifier.verifier))).toBe("invalid_grant")

    const wrongRedirect = await authorizeAndApprove(as, client)
    expect(await refusal(exchange(as, client, wrongRedirect.callback, wrongRedirect.verifier, "http://127.0.0.1:33418/elsewhere"))).toBe("invalid_grant")

    const expired = await authorizeAndApprove(as, client)
    await app.query("UPDATE oauth_codes SET expires_at = now() - interval '1 second' WHERE connection_id = $1", [expired.connection.id])
    expect(await refusal(exchange(as, client, expired.callback, expired.verifier))).toBe("invalid_grant")

    const reused = await authorizeAndApprove(as, client)
    const first = await exchange(as, client, reused.callback, reused.verifier)
    expect((await app.call("GET", "/v1/accounts", { token: first.access_token })).status).toBe(200)
    expect(await refusal(exchange(as, client, reused.callback, reused.verifier))).toBe("invalid_grant")
    // The reuse revoked what the code gave.
    expect((await app.call("GET", "/v1/accounts", { token: first.access_token })).status).toBe(401)
  })
})

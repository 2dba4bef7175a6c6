import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect, Layer } from "effect"
import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { HttpClientDocuments } from "@ledger/server/adapters"
import { AiApps } from "@ledger/engine"
import { approve, type AuthApp, base, form, makeAiApp, type Owner, ownerSignedIn, pkce, redirectUri } from "../support/ai-apps.ts"

/**
 * OAuth client ID metadata documents (MCP authorization spec; ADR 1706): a client id that is a URL
 * is fetched through the webhooks' checked transport, judged, cached for its max-age and used
 * like a registered client. The metadata server here is on loopback, which only a test's fetcher
 * admits; the server's own refuses it.
 */

let app: AuthApp
let owner: Owner
let metadata: Server
let origin = ""
const hits = new Map<string, number>()
const documents = new Map<string, { status?: number; body: string; headers?: Record<string, string> }>()

const serve = (path: string, document: unknown, headers: Record<string, string> = { "cache-control": "max-age=600" }, status = 200) =>
  documents.set(path, { status, body: typeof document === "string" ? document : JSON.stringify(document), headers })

const documentOf = (path: string, extra: Record<string, unknown> = {}) => ({
  client_id: `${origin}${path}`,
  client_name: "Metadata Client",
  redirect_uris: [redirectUri],
  grant_types: ["authorization_code", "refresh_token"],
  response_types: ["code"],
  token_endpoint_auth_method: "none",
  ...extra
})

beforeAll(async () => {
  metadata = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://x").pathname
    hits.set(path, (hits.get(path) ?? 0) + 1)
    const found = documents.get(path)
    if (found === undefined) {
      response.writeHead(404).end()
      return
    }
    response.writeHead(found.status ?? 200, { "content-type": "application/json", ...found.headers }).end(found.body)
  })
  await new Promise<void>((resolve) => metadata.listen(0, "127.0.0.1", resolve))
  origin = `http://127.0.0.1:${(metadata.address() as AddressInfo).port}`
  app = await makeAiApp(Layer.succeed(HttpClientDocuments.ClientDocuments)(HttpClientDocuments.make({ allowPrivate: true })))
  owner = await ownerSignedIn(app)
}, 240_000)
afterAll(async () => {
  await app.close()
  await new Promise((resolve) => metadata.close(resolve))
})

const authorize = (clientId: string, challenge: string, redirect = redirectUri) => {
  const url = new URL(`${base}/oauth/authorize`)
  for (const [name, value] of Object.entries({
    response_type: "code", client_id: clientId, redirect_uri: redirect, code_challenge: challenge, code_challenge_method: "S256", state: "s1"
  })) url.searchParams.set(name, value)
  return app.fetch(new Request(url, { redirect: "manual" }))
}

describe("client ID metadata documents", () => {
  it("are advertised, fetched once while cached, used through approval and token exchange, and refetched when stale", async () => {
    const asMetadata = await (await app.fetch(new Request(`${base}/.well-known/oauth-authorization-server`))).json() as Record<string, unknown>
    expect(asMetadata.client_id_metadata_document_supported).toBe(true)

    serve("/client.json", documentOf("/client.json"))
    const clientId = `${origin}/client.json`
    const { verifier, challenge } = pkce()
    const first = await authorize(clientId, challenge)
    expect(first.status, await first.clone().text()).toBe(302)
    const consent = new URL(first.headers.get("location")!)
    expect(consent.pathname).toBe("/connect")
    expect(consent.searchParams.get("client_name")).toBe("Metadata Client")
    expect(consent.searchParams.get("client_id")).toBe(clientId)
    expect((await authorize(clientId, challenge)).status).toBe(302)
    expect(hits.get("/client.json")).toBe(1)

    // A redirect URI the document does not list is shown as an error, never redirected to.
    const elsewhere = await authorize(clientId, challenge, "http://127.0.0.1:9/evil")
    expect(elsewhere.status).toBe(400)
    expect(elsewhere.headers.get("location")).toBeNull()

    const approval = await approve(app, owner, { client_id: clientId, redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: "S256", level: "read" })
    expect(approval.status, JSON.stringify(approval.body)).toBe(201)
    expect(approval.body.connection.client_id).toBe(clientId)
    const tokens = await form(app, "/oauth/token", { grant_type: "authorization_code", code: approval.body.code, code_verifier: verifier, client_id: clientId, redirect_uri: redirectUri })
    expect(tokens.status, JSON.stringify(tokens.body)).toBe(200)
    expect((await app.call("GET", "/v1/accounts", { token: tokens.body.access_token })).status).toBe(200)

    // Past its cache time the document is read again, and its new redirect URIs apply.
    serve("/client.json", documentOf("/client.json", { redirect_uris: ["http://127.0.0.1:33418/other"] }))
    await app.query("UPDATE oauth_clients SET document_expires_at = now() - interval '1 second' WHERE client_id = $1", [clientId])
    expect((await authorize(clientId, challenge)).status).toBe(400)
    expect(hits.get("/client.json")).toBe(2)
    expect((await authorize(clientId, challenge, "http://127.0.0.1:33418/other")).status).toBe(302)
  })

  it("refuses documents that do not name their own URL, list no usable redirect URI, claim a secret, are too large, redirect or fail", async () => {
    const refused = async (path: string) => {
      const answer = await authorize(`${origin}${path}`, pkce().challenge)
      expect(answer.status).toBe(400)
      const body = await answer.json() as { error: string; error_description: string }
      expect(body.error).toBe("invalid_client")
      return body.error_description
    }
    serve("/other-id.json", { ...documentOf("/other-id.json"), client_id: `${origin}/client.json` })
    expect(await refused("/other-id.json")).toContain("its own URL")
    serve("/fragment-redirect.json", documentOf("/fragment-redirect.json", { redirect_uris: ["https://app.example/cb#x"] }))
    expect(await refused("/fragment-redirect.json")).toContain("redirect URI")
    serve("/secret.json", documentOf("/secret.json", { token_endpoint_auth_method: "client_secret_basic" }))
    expect(await refused("/secret.json")).toContain("public client")
    serve("/big.json", documentOf("/big.json", { padding: "x".repeat(HttpClientDocuments.documentBytesMax) }))
    expect(await refused("/big.json")).toContain("larger than")
    serve("/moved.json", "", { location: `${origin}/client.json` }, 302)
    expect(await refused("/moved.json")).toContain("302")
    serve("/not-json.json", "<html>")
    expect(await refused("/not-json.json")).toContain("not JSON")
    expect(await refused("/missing.json")).toContain("404")
    // Nothing refused is kept.
    expect(await app.query("SELECT 1 FROM oauth_clients WHERE client_id LIKE $1", [`${origin}/%.json`])).toHaveLength(1)
  })

  it("the server's own fetcher refuses loopback and private addresses, and a client id must be https with a path", async () => {
    const production = HttpClientDocuments.make({ allowPrivate: false })
    for (const url of [`${origin}/client.json`, `https://127.0.0.1:${new URL(origin).port}/client.json`, "https://169.254.169.254/latest", "https://localhost/x"]) {
      const result = await Effect.runPromise(Effect.result(production.fetch(url)))
      expect(result._tag, url).toBe("Failure")
    }
    expect(hits.get("/client.json")).toBe(2)
    const { clientIdProblem } = AiApps.ClientDocuments
    expect(clientIdProblem("http://app.example/client.json", false)).toContain("https")
    expect(clientIdProblem("https://app.example/", false)).toContain("path")
    expect(clientIdProblem("https://app.example/a/../client.json", false)).not.toBeNull()
    expect(clientIdProblem("https://user:pw@app.example/client.json", false)).not.toBeNull()
    expect(clientIdProblem("https://app.example/client.json", false)).toBeNull()
  })

  it("cache times stay within a minute and a day", () => {
    fc.assert(fc.property(fc.option(fc.oneof(fc.nat(10_000_000).map((age) => `public, max-age=${age}`), fc.constantFrom("no-store", "private", "")), { nil: null }), (header) => {
      const seconds = AiApps.ClientDocuments.cacheSecondsOf(header)
      expect(seconds).toBeGreaterThanOrEqual(AiApps.ClientDocuments.cacheSecondsMin)
      expect(seconds).toBeLessThanOrEqual(AiApps.ClientDocuments.cacheSecondsMax)
    }))
  })
})

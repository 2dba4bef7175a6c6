import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Limits } from "@ledger/api"
import { type AuthApp, base, connectedApp, makeAiApp, ownerSignedIn, pkce, redirectUri, registerClient } from "../support/ai-apps.ts"

/**
 * Dynamic client registration is a door anyone may knock at (issue 41 item 4, ADR 2300): it is
 * limited in total over an hour, whatever the addresses, and a registration no connection names is
 * forgotten `Limits.oauthUnusedClientHours` later (unknown at once, deleted by later
 * registrations). The per-address limit and the metadata bounds are tested over real HTTP
 * (test/server/public-doors.test.ts).
 */

let app: AuthApp
beforeAll(async () => {
  app = await makeAiApp(undefined, { clock: "2026-06-01T09:00:00Z" })
}, 240_000)
afterAll(() => app?.close())

const register = () =>
  app.fetch(new Request(`${base}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_name: "Any client", redirect_uris: [redirectUri] })
  }))

const authorize = (clientId: string) =>
  app.fetch(new Request(`${base}/oauth/authorize?${new URLSearchParams({
    response_type: "code", client_id: clientId, redirect_uri: redirectUri, code_challenge: pkce().challenge, code_challenge_method: "S256"
  })}`, { redirect: "manual" }))

describe("unused registrations", () => {
  it("are unknown a day on and deleted by a later registration; a connected client stays", async () => {
    const owner = await ownerSignedIn(app)
    const { client: connected } = await connectedApp(app, owner)
    const unused = await registerClient(app)
    expect((await authorize(unused.client_id)).status).toBe(302)

    app.clock!.advance(`${Limits.oauthUnusedClientHours} hours`)
    app.clock!.advance("1 minute")
    const unknown = await authorize(unused.client_id)
    expect(unknown.status).toBe(400)
    expect(((await unknown.json()) as { error: string }).error).toBe("invalid_client")
    expect((await authorize(connected.client_id)).status).toBe(302)

    app.clock!.advance("2 hours")
    await registerClient(app)
    expect(await app.query("SELECT client_id FROM oauth_clients WHERE client_id = $1", [unused.client_id])).toEqual([])
    expect(await app.query("SELECT client_id FROM oauth_clients WHERE client_id = $1", [connected.client_id])).toHaveLength(1)
  })
})

describe("registration in total", () => {
  it("answers 429 with Retry-After once the server took its registrations for the hour, and again an hour on", async () => {
    // An hour past the registrations of the test before: none of them counts.
    app.clock!.advance("61 minutes")
    const limit = Limits.oauthRegistrationsPerHour
    let created = 0
    for (let index = 0; index < limit; index++) if ((await register()).status === 201) created++
    expect(created).toBe(limit)
    const refused = await register()
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0)
    expect(((await refused.json()) as { error: string }).error).toBe("rate_limited")
    app.clock!.advance("61 minutes")
    expect((await register()).status).toBe(201)
  }, 240_000)
})

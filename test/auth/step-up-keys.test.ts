import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { newKey } from "../support/index.ts"
import { type AuthApp, makeAuthApp, personWithEmail, signInByEmail } from "../support/sign-in.ts"

/**
 * Keys are a sensitive change (spec 5.5, issue 22 item 6): in a browser session, creating,
 * rotating and revoking one needs a step-up within 10 minutes (signing in counts as one). An API
 * key is no session: its scopes are its rules.
 */

let app: AuthApp
beforeAll(async () => {
  app = await makeAuthApp({ clock: "2026-03-02T09:00:00Z" })
}, 120_000)
afterAll(() => app?.close())

describe("step-up on keys", () => {
  it("lets a fresh session manage keys, and asks a stale one to step up first", async () => {
    const company = await app.createCompany({ name: "Step-up Keys Co" })
    const person = await personWithEmail(app, company)
    const { secret } = await signInByEmail(app, person.email)
    const agent = await app.call("POST", "/v1/agents", { token: company.ownerKey, key: newKey(), body: { name: "Bot", scopes: ["read"], posting_threshold_cents: 0 } })
    expect(agent.status).toBe(201)
    const keyFor = (token: string) =>
      app.call("POST", "/v1/keys", { token, key: newKey(), body: { principal_type: "agent", agent_id: agent.body.id, scopes: ["read"] } })

    const fresh = await keyFor(secret)
    expect(fresh.status, JSON.stringify(fresh.body)).toBe(201)

    app.clock!.advance("11 minutes")
    const stale = await keyFor(secret)
    expect(stale.status).toBe(403)
    expect(stale.body.error.type).toBe("step_up_required")
    const revoke = await app.call("POST", `/v1/keys/${fresh.body.key.id}/revoke`, { token: secret, key: newKey(), body: { reason: "test" } })
    expect(revoke.body.error.type).toBe("step_up_required")
    const rotate = await app.call("POST", `/v1/keys/${fresh.body.key.id}/rotate`, { token: secret, key: newKey(), body: {} })
    expect(rotate.body.error.type).toBe("step_up_required")

    // The owner's API key is no browser session: unchanged.
    expect((await keyFor(company.ownerKey)).status).toBe(201)
  })
})

import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Auth, type Operation } from "@ledger/api"
import { agentWithKey, personWithKey, type TestCompany } from "../support/index.ts"
import { type AuthApp, expectStatus, firmCall, grantAccess, makeAuthApp, newFirm, personWithEmail, signInByEmail } from "../support/sign-in.ts"

/**
 * Every security operation (generated from the catalog: those that need the person's own browser
 * session) refuses API keys, agent keys, and sessions that ended (signed out, revoked, idle,
 * expired). Each gets a body its schema accepts, so the refusal is the credential's.
 */

const samples: Record<string, unknown> = {
  signOut: {},
  stepUpChallenge: {},
  stepUp: { totp_code: "123456" },
  passkeyRegistrationOptions: {},
  addPasskey: { credential: { id: "AA", rawId: "AA", type: "public-key", response: { clientDataJSON: "e30", attestationObject: "oA" } } },
  removePasskey: {},
  enrolTotp: {},
  confirmTotp: { code: "123456" },
  disableTotp: { code: "123456" },
  createRecoveryCodes: {},
  revokeOtherSessions: {},
  changeEmail: {}
}

const securityOperations = (Auth.operations as ReadonlyArray<Operation.Any>).filter((operation) => operation.browserSessionOnly)
const pathOf = (operation: Operation.Any) => operation.path.replace("{id}", "1")

let app: AuthApp
let company: TestCompany

beforeAll(async () => {
  app = await makeAuthApp({ clock: true })
  company = await app.createCompany({ name: "Refusals Co" })
})
afterAll(() => app.close())

const call = (operation: Operation.Any, token: string, headers: Record<string, string> = {}) =>
  app.call(operation.method, pathOf(operation), { token, headers, ...(operation.method === "POST" ? { body: samples[operation.id] } : {}) })

describe("security operations take only the person's own live browser session", () => {
  it("covers every security operation and none is an MCP tool", () => {
    expect(securityOperations.length).toBe(13)
    for (const operation of securityOperations) {
      expect(operation.mcpTool).toBe(false)
      if (operation.method === "POST") expect(samples, operation.id).toHaveProperty(operation.id)
    }
  })

  it("refuses a person's API key and an agent's key with insufficient_scope", async () => {
    const person = await personWithKey(app, company.ownerKey, "owner")
    const agent = await agentWithKey(app, company.ownerKey, ["read", "propose"])
    for (const operation of securityOperations) {
      for (const token of [company.ownerKey, person.key.secret]) {
        const result = await call(operation, token)
        expect(result.status, `${operation.id}: ${JSON.stringify(result.body)}`).toBe(403)
        expect(result.body.error.type).toBe("insufficient_scope")
      }
      const byAgent = await call(operation, agent.key.secret, { "x-agent-model": "test-model/1.0" })
      expect(byAgent.status, operation.id).toBe(403)
      expect(byAgent.body.error.type).toBe("insufficient_scope")
    }
  })

  it("refuses a firm member's key, a console session opened with it (even in a client) and a firm agent's key", async () => {
    const firm = await newFirm(app)
    await grantAccess(app, company, firm)
    const opened = expectStatus(await firmCall(app, firm.adminKey, "POST", "/v1/firm/sessions", { body: {} }), 201)
    const agent = expectStatus(await firmCall(app, firm.adminKey, "POST", "/v1/firm/agents", { body: { name: "Sorter", scopes: ["read", "propose"] } }), 201)
    const agentKey = expectStatus(await firmCall(app, firm.adminKey, "POST", "/v1/firm/keys", {
      body: { principal_type: "agent", firm_agent_id: agent.id, scopes: ["read", "propose"] }
    }), 201).secret as string
    for (const operation of securityOperations) {
      const tries = [
        await call(operation, firm.adminKey),
        await call(operation, firm.adminKey, { "x-ledger-company": company.companyId }),
        await call(operation, opened.secret),
        await call(operation, opened.secret, { "x-ledger-company": company.companyId }),
        await call(operation, agentKey, { "x-ledger-company": company.companyId, "x-agent-model": "test-model/1.0" })
      ]
      for (const result of tries) {
        expect([401, 403, 404], `${operation.id}: ${JSON.stringify(result.body)}`).toContain(result.status)
      }
      // The console session is known: its refusal says why.
      expect(tries[2]!.body.error.type, operation.id).toBe("insufficient_scope")
    }
  })

  it("refuses a signed-out, a revoked, an idle and an expired session with 401", async () => {
    const person = await personWithEmail(app, company)
    const signedOut = await signInByEmail(app, person.email)
    const revoked = await signInByEmail(app, person.email)
    const keeper = await signInByEmail(app, person.email)
    expect((await app.call("POST", "/v1/auth/sign-out", { token: signedOut.secret, body: {} })).status).toBe(200)
    expect((await app.call("POST", "/v1/me/sessions/revoke-others", { token: keeper.secret, body: { reason: "test" } })).body.revoked).toBe(1)
    for (const operation of securityOperations) {
      for (const token of [signedOut.secret, revoked.secret]) {
        const result = await call(operation, token)
        expect(result.status, operation.id).toBe(401)
        expect(result.body.error.type).toBe("unauthorized")
      }
    }
    // Idle: 8 hours without use ends it, though it is younger than 7 days.
    app.clock!.advance("8 hours")
    app.clock!.advance("1 minute")
    for (const operation of securityOperations) expect((await call(operation, keeper.secret)).status, operation.id).toBe(401)
  })

  it("ends a session kept in use at 7 days", async () => {
    const person = await personWithEmail(app, company)
    const session = await signInByEmail(app, person.email)
    for (let hours = 7; hours < 7 * 24; hours += 7) {
      app.clock!.advance("7 hours")
      if ((await app.call("GET", "/v1/me/security", { token: session.secret })).status !== 200) throw new Error(`ended early at ${hours} h`)
    }
    app.clock!.advance("7 hours")
    const late = await app.call("GET", "/v1/me/security", { token: session.secret })
    expect(late.status).toBe(401)
    expect(late.body.error.message).toMatch(/expired/u)
  })
})

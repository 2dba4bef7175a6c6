import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { allTools, connectMcp, type TestCompany } from "../support/index.ts"
import { type AuthApp, makeAuthApp, personWithEmail, signInByEmail } from "../support/sign-in.ts"

/**
 * Over MCP: no sign-in or security operation is a tool (spec 4.14: NMCP), and a person's session
 * works as the Bearer credential of the company's tools like a key of theirs, until it ends.
 */

let app: AuthApp
let company: TestCompany

beforeAll(async () => {
  app = await makeAuthApp()
  company = await app.createCompany({ name: "MCP Sign-in Co" })
})
afterAll(() => app.close())

describe("sessions over MCP", () => {
  it("offers no sign-in tool and serves a session's calls until it is signed out", async () => {
    const person = await personWithEmail(app, company)
    const signedIn = await signInByEmail(app, person.email)
    // Every tool the session may use (`all`): none of them signs in.
    const client = await connectMcp(app, signedIn.secret, allTools)
    const tools = (await client.listTools()).tools.map((tool) => tool.name)
    for (const name of ["request_email_link", "sign_in_with_passkey", "get_security", "step_up", "sign_out", "enrol_totp"]) {
      expect(tools).not.toContain(name)
    }
    const accounts = await client.callTool({ name: "list_accounts", arguments: {} })
    expect(accounts.isError ?? false, JSON.stringify(accounts)).toBe(false)
    await client.close()

    expect((await app.call("POST", "/v1/auth/sign-out", { token: signedIn.secret, body: {} })).status).toBe(200)
    // A signed-out session is a credential that is no longer good: /mcp refuses it before any method.
    await expect(connectMcp(app, signedIn.secret)).rejects.toThrow()
    const refused = await app.fetch(new Request("http://ledger.test/mcp", {
      method: "POST",
      headers: { authorization: `Bearer ${signedIn.secret}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "list_accounts", arguments: {} } })
    }))
    expect(refused.status).toBe(401)
    expect(refused.headers.get("www-authenticate")).toContain('error="invalid_token"')
  })
})

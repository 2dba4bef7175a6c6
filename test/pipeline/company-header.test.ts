import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeTestApp, newKey, type TestApp } from "../support/index.ts"

/**
 * Issue 19 item 5: `X-Ledger-Company` picks the client a firm credential acts in. A company's own
 * credential naming another company was silently ignored, so a caller who believed it wrote in
 * company B wrote in company A. It is refused, audited, and nothing is written.
 */

let app: TestApp
beforeAll(async () => {
  app = await makeTestApp()
}, 120_000)
afterAll(() => app?.close())

const account = (code: string) => ({ code, name: `Header ${code}`, type: "expense" })

describe("X-Ledger-Company with a company credential", () => {
  it("refuses a header naming another company, writes nothing, and audits the refusal", async () => {
    const a = await app.createCompany({ name: "Header A" })
    const b = await app.createCompany({ name: "Header B" })
    const refused = await app.call("POST", "/v1/accounts", {
      token: a.ownerKey,
      key: newKey(),
      body: account("6950"),
      headers: { "x-ledger-company": b.companyId }
    })
    expect(refused.status).toBe(400)
    expect(refused.body.error.type).toBe("invalid_request")
    expect(refused.body.error.details.header).toBe("X-Ledger-Company")

    // Neither company got the account.
    for (const company of [a, b]) {
      const listed = await app.call("GET", "/v1/accounts?limit=200", { token: company.ownerKey })
      expect(listed.body.data.map((row: { code: string }) => row.code)).not.toContain("6950")
    }
    // Reads are refused the same way: the caller would otherwise read A's books as B's.
    const read = await app.call("GET", "/v1/accounts", { token: a.ownerKey, headers: { "x-ledger-company": b.companyId } })
    expect(read.status).toBe(400)

    const audit = await app.call("GET", "/v1/audit/events?limit=50", { token: a.ownerKey })
    expect(audit.status).toBe(200)
    expect(JSON.stringify(audit.body.data)).toContain("invalid_request")
  })

  it("accepts a header naming the credential's own company", async () => {
    const a = await app.createCompany({ name: "Header Own" })
    const created = await app.call("POST", "/v1/accounts", {
      token: a.ownerKey,
      key: newKey(),
      body: account("6951"),
      headers: { "x-ledger-company": a.companyId }
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
  })
})

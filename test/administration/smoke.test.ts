import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeTestApp, newKey, type TestApp } from "../support/index.ts"

let app: TestApp
beforeAll(async () => {
  app = await makeTestApp()
})
afterAll(() => app.close())

describe("foundation smoke", () => {
  it("answers /health without a credential", async () => {
    const result = await app.call("GET", "/health")
    expect(result.status).toBe(200)
    expect(result.body).toMatchObject({ status: "ok", database: "ok", storage: app.storage })
  })

  it("creates a company whose owner key reads the company", async () => {
    const company = await app.createCompany({ name: "Smoke Co" })
    const me = await app.call("GET", "/v1/me", { token: company.ownerKey })
    expect(me.status).toBe(200)
    expect(me.body.company.company_id).toBe(company.companyId)
    expect(me.body.principal_type).toBe("user")
    const replay = await app.call("POST", "/v1/users", { token: company.ownerKey, key: newKey(), body: { name: "Bo", role: "staff" } })
    expect(replay.status).toBe(201)
  })
})

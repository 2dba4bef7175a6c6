import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Limits } from "@ledger/api"
import { makeTestApp, newKey, type TestApp } from "../support/index.ts"

/**
 * A statement is a file: its import takes a body far past the ordinary 1 MB limit
 * (Limits.statementBodyBytesMax), while every other operation keeps the ordinary one.
 */
let app: TestApp
beforeAll(async () => {
  app = await makeTestApp()
})
afterAll(() => app.close())

const statement = (lines: number): string => {
  const rows = ["Date,Description,Amount"]
  for (let index = 0; index < lines; index++) {
    const day = String(1 + (index % 28)).padStart(2, "0")
    rows.push(`2026-03-${day},Card purchase number ${index} at a shop with a long name,-${1 + (index % 900)}.${String(index % 100).padStart(2, "0")}`)
  }
  return `${rows.join("\n")}\n`
}

describe("statement import body size", () => {
  it("imports a statement larger than the ordinary body limit over HTTP, and no other body that large", async () => {
    const company = await app.createCompany()
    const bank = await app.call("POST", "/v1/bank-accounts", {
      token: company.ownerKey,
      key: newKey(),
      body: { name: "Operating", kind: "checking", ledger_account: "1010" }
    })
    expect(bank.status).toBe(201)
    const content = statement(25_000)
    expect(content.length).toBeGreaterThan(Limits.requestBodyBytesMax)

    const imported = await app.call("POST", `/v1/bank-accounts/${bank.body.id}/imports`, {
      token: company.ownerKey,
      key: newKey(),
      body: { format: "csv", content }
    })
    expect(imported.status).toBe(201)
    expect(imported.body.lines_imported).toBe(25_000)

    const tooLarge = await app.call("POST", "/v1/users", {
      token: company.ownerKey,
      key: newKey(),
      body: { name: "x".repeat(Limits.requestBodyBytesMax + 10), role: "staff" }
    })
    expect(tooLarge.status).toBe(413)
    expect(tooLarge.body.error.type).toBe("payload_too_large")
  })
})

import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeTestApp, newKey, type TestApp } from "../support/index.ts"

/**
 * Issue 19 item 7: two 60 MB statement imports without any credential slowed every other request,
 * because bodies were read and parsed before authentication. A route that takes more than the
 * common body limit now checks the credential from the headers first: a caller without a valid one
 * is refused before a byte of its body is read. The proof: a body that never ends. Read first, the
 * request would never be answered; checked first, it is refused at once.
 */

let app: TestApp
beforeAll(async () => {
  app = await makeTestApp()
}, 120_000)
afterAll(() => app?.close())

/** A request body that sends one chunk and then nothing, forever. */
const endless = () =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode("{\"format\":\"csv\",\"content\":\"" + "a".repeat(64 * 1024)))
    }
  })

const importWith = (token: string | null, bankAccountId = 1) => {
  const headers = new Headers({ "content-type": "application/json", "idempotency-key": newKey() })
  if (token !== null) headers.set("authorization", `Bearer ${token}`)
  return app.fetch(new Request(`http://ledger.test/v1/bank-accounts/${bankAccountId}/imports`, {
    method: "POST",
    headers,
    body: endless(),
    duplex: "half"
  } as RequestInit))
}

describe("large bodies wait for a valid credential", () => {
  it("refuses a missing or wrong credential without reading the body", async () => {
    const missing = await importWith(null)
    expect(missing.status).toBe(401)
    expect(missing.headers.get("connection")).toBe("close")
    expect((await missing.json()).error.type).toBe("unauthorized")
    const wrong = await importWith(`ldg_${"x".repeat(43)}`)
    expect(wrong.status).toBe(401)
  })

  it("still reads the body of a valid credential (a small import goes through as before)", async () => {
    const company = await app.createCompany({ name: "Big Body Co" })
    const account = await app.call("POST", "/v1/accounts", { token: company.ownerKey, key: newKey(), body: { code: "1090", name: "Import bank", type: "asset", subtype: "bank" } })
    expect(account.status).toBe(201)
    const bank = await app.call("POST", "/v1/bank-accounts", { token: company.ownerKey, key: newKey(), body: { name: "Import", kind: "checking", ledger_account: "1090" } })
    expect(bank.status).toBe(201)
    const content = "Date,Amount,Description\n2026-03-02,-12.50,Coffee\n"
    // Sent chunked (no Content-Length), so the credential is checked first and the body then read.
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(JSON.stringify({ format: "csv", content, dry_run: true })))
        controller.close()
      }
    })
    const response = await app.fetch(new Request(`http://ledger.test/v1/bank-accounts/${bank.body.id}/imports`, {
      method: "POST",
      headers: { authorization: `Bearer ${company.ownerKey}`, "content-type": "application/json" },
      body,
      duplex: "half"
    } as RequestInit))
    expect(response.status, await response.clone().text()).toBe(200)
    expect((await response.json()).lines).toHaveLength(1)
  })
})

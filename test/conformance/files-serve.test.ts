import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { isPdf, newKey } from "../support/index.ts"
import { freshStore, type RunningServer, startServer, type Store } from "../support/server-process.ts"

/**
 * `ledger serve` itself (the Node server, not the in-process handler): what `curl -OJ` saves of an
 * invoice PDF and a report CSV.
 */
describe("files from ledger serve", () => {
  const operatorToken = `operator-files-${Date.now()}`
  let store: Store
  let running: RunningServer
  beforeAll(async () => {
    store = await freshStore()
    running = await startServer(store, { ...(store.kind === "pglite" ? { LEDGER_DATA_DIR: "memory" } : {}), LEDGER_OPERATOR_TOKEN: operatorToken })
  }, 240_000)
  afterAll(async () => {
    await running?.stop()
    await store?.remove()
  })

  it("serves an invoice PDF and a report CSV as files with their length", async () => {
    const call = async (method: string, path: string, token: string, body?: unknown) => {
      const response = await fetch(`${running.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "idempotency-key": newKey() },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
      return response.json() as Promise<any>
    }
    const company = await call("POST", "/v1/companies", operatorToken, { name: "Serve Files", owner_name: "Owner", plan: "owned" })
    const key = company.secret as string
    const customer = await call("POST", "/v1/contacts", key, { kind: "customer", name: "Acme" })
    const invoice = await call("POST", "/v1/invoices", key, { contact_id: customer.id, doc_date: "2026-03-01", lines: [{ description: "Work", amount_cents: 1000 }] })
    for (const [path, type] of [[`/v1/documents/${invoice.id}/pdf`, "application/pdf"], ["/v1/reports/trial-balance?as_of=2026-03-31&format=csv", "text/csv; charset=utf-8"]] as const) {
      const response = await fetch(`${running.url}${path}`, { headers: { authorization: `Bearer ${key}`, accept: "*/*" } })
      const bytes = new Uint8Array(await response.arrayBuffer())
      expect(response.status).toBe(200)
      expect(response.headers.get("content-type")).toBe(type)
      expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="[^"]+\.(pdf|csv)"$/)
      expect(Number(response.headers.get("content-length"))).toBe(bytes.byteLength)
      if (type === "application/pdf") expect(isPdf(bytes)).toBe(true)
      else expect(new TextDecoder().decode(bytes).split("\r\n")[0]).toBe("Code,Name,Type,Debit,Credit")
    }
  }, 120_000)
})

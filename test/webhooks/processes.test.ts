import { randomBytes } from "node:crypto"
import { describe, expect, it } from "vitest"
import { freshStore, startServer } from "../support/server-process.ts"
import { startReceiver, verify } from "./support.ts"

/**
 * Two `ledger serve` processes on one PostgreSQL database deliver each event exactly once between
 * them (issue 23): both run workers, and jobs are claimed with row locks. PostgreSQL only: embedded
 * PGlite is one process by design.
 */

const onPostgres = (process.env.DATABASE_URL ?? "") !== ""

describe.skipIf(!onPostgres)("two server processes", () => {
  it("deliver each event once between them", async () => {
    const store = await freshStore()
    const receiver = await startReceiver()
    const operatorToken = `operator-${randomBytes(12).toString("hex")}`
    const env = {
      LEDGER_OPERATOR_TOKEN: operatorToken,
      LEDGER_MASTER_KEY: randomBytes(32).toString("base64"),
      LEDGER_WEBHOOK_ALLOW_PRIVATE: "true",
      LEDGER_ACCESS_LOG: "off"
    }
    const first = await startServer(store, env)
    const second = await startServer(store, env)
    try {
      const call = async (url: string, path: string, token: string, body: unknown, key: string) => {
        const response = await fetch(`${url}${path}`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "idempotency-key": key, "content-type": "application/json" },
          body: JSON.stringify(body)
        })
        return { status: response.status, body: await response.json() as any }
      }
      const company = await call(first.url, "/v1/companies", operatorToken, { name: "Two Processes Co", owner_name: "Owner" }, "two-processes-company")
      expect(company.status).toBe(201)
      const owner = company.body.secret as string
      const endpoint = await call(first.url, "/v1/webhooks", owner, { url: receiver.url, event_types: ["entry.posted"] }, "two-processes-endpoint")
      expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201)
      const postings = 12
      for (let index = 0; index < postings; index++) {
        // Half the postings through each process.
        const url = index % 2 === 0 ? first.url : second.url
        const today = new Date().toISOString().slice(0, 10)
        const posted = await call(url, "/v1/journal-entries/propose", owner, {
          entry_date: today,
          lines: [{ account: "6070", debit_cents: 100 + index }, { account: "1010", credit_cents: 100 + index }]
        }, `two-processes-entry-${index}`)
        expect(posted.status, JSON.stringify(posted.body)).toBe(201)
      }
      const deadline = Date.now() + 60_000
      while (new Set(receiver.received.map((delivery) => delivery.body.id)).size < postings && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 250))
      }
      // A moment more: a second delivery of any event would show now.
      await new Promise((resolve) => setTimeout(resolve, 3_000))
      const ids = receiver.received.map((delivery) => delivery.body.id)
      expect(new Set(ids).size).toBe(postings)
      expect(ids).toHaveLength(postings)
      for (const delivery of receiver.received) expect((await verify(delivery, endpoint.body.secret, Date.now())).valid).toBe(true)
    } finally {
      await first.stop()
      await second.stop()
      await receiver.close()
      await store.remove()
    }
  }, 300_000)
})

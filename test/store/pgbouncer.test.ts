import { randomBytes } from "node:crypto"
import { describe, expect, it } from "vitest"
import { call, createCompany, entriesWithMemo, idempotencyStorm, today } from "../support/processes/calls.ts"
import * as PgBouncer from "../support/processes/pgbouncer.ts"
import { freshStore, startServer } from "../support/server-process.ts"

/**
 * `ledger serve` behind Debian's PgBouncer in transaction pooling (issue 43 item 5,
 * docs/decisions/2401-pgbouncer-transaction-pooling.md): with LEDGER_DATABASE_POOLER=transaction
 * it migrates, posts, replays idempotent requests, reverses (a transaction-scoped advisory lock)
 * and reads balances, with two processes sharing the port and PgBouncer's pool smaller than theirs,
 * so one client connection's statements meet several server connections. Named prepared
 * statements would fail here ("prepared statement ... does not exist"); session state (SET,
 * LISTEN, session advisory locks) would leak between clients, and the engine uses none.
 */

const databaseUrl = process.env.DATABASE_URL ?? ""
const skipped = databaseUrl === ""
  ? "DATABASE_URL is unset (PgBouncer pools PostgreSQL)"
  : PgBouncer.binary() === null
  ? "pgbouncer is not installed (apt-get install pgbouncer)"
  : null
if (skipped !== null) console.log(`test/store/pgbouncer.test.ts skipped: ${skipped}`)

describe.skipIf(skipped !== null)("behind a transaction-pooling PgBouncer", () => {
  it("serves postings, idempotent replays, reversals and balances", async () => {
    const store = await freshStore()
    const bouncer = await PgBouncer.start(databaseUrl)
    const operatorToken = `operator-${randomBytes(12).toString("hex")}`
    let server: Awaited<ReturnType<typeof startServer>> | undefined
    try {
      server = await startServer(store, {
        DATABASE_URL: bouncer.url(store.databaseUrl!),
        LEDGER_DATABASE_POOLER: "transaction",
        LEDGER_PROCESSES: "2",
        LEDGER_OPERATOR_TOKEN: operatorToken,
        LEDGER_RATE_LIMITS: "off",
        LEDGER_ACCESS_LOG: "off"
      })
      const { companyId, owner } = await createCompany(server.url, operatorToken, "Pooled Co")

      // 10 keys sent 3 times each at once: one entry per key, every answer to a key alike.
      const storm = await idempotencyStorm(server.url, owner, "pooled", 10, 3)
      for (const [at, answers] of storm) {
        for (const answer of answers) expect([201, 409], `key ${at}: ${answer.text}`).toContain(answer.status)
        expect(new Set(answers.filter((answer) => answer.status === 201).map((answer) => answer.text)).size).toBeLessThanOrEqual(1)
      }
      // A calm replay of every key answers the entry it made.
      const entryIds = new Set<number>()
      for (let at = 0; at < 10; at++) {
        const replay = await call(server.url, "POST", "/v1/journal-entries/propose", {
          token: owner,
          key: `pooled-key-${at}`,
          body: { entry_date: today(), memo: `pooled ${at}`, lines: [{ account: "6070", debit_cents: 100 + at }, { account: "1010", credit_cents: 100 + at }] }
        })
        expect(replay.status, replay.text).toBe(201)
        entryIds.add(replay.body.id)
      }
      expect(entryIds.size).toBe(10)
      expect(await entriesWithMemo(store, companyId, "pooled")).toBe(10)

      // A reversal takes a transaction-scoped advisory lock on its entry.
      const reversed = await call(server.url, "POST", `/v1/journal-entries/${[...entryIds][0]}/reverse`, { token: owner, key: `pooled-reverse-${Date.now()}`, body: {} })
      expect(reversed.status, reversed.text).toBe(201)

      // Balances read back what was posted: 9 entries standing, 100 + 1 + ... + 109 less the reversed one.
      const accounts = await call(server.url, "GET", "/v1/accounts?include_balances=true", { token: owner })
      expect(accounts.status, accounts.text).toBe(200)
      const balance = (code: string) => accounts.body.data.find((account: any) => account.code === code).balance_cents as number
      const reversedCents = (await call(server.url, "GET", `/v1/journal-entries/${[...entryIds][0]}`, { token: owner })).body.lines[0].debit_cents as number
      const posted = Array.from({ length: 10 }, (_, at) => 100 + at).reduce((sum, cents) => sum + cents, 0) - reversedCents
      expect(balance("6070")).toBe(posted)
      expect(balance("1010")).toBe(-posted)

      expect(server.output()).not.toMatch(/prepared statement .* does not exist/)
      expect(await server.stop()).toBe(0)
    } finally {
      await server?.kill()
      await bouncer.stop()
      await store.remove()
    }
  }, 600_000)
})

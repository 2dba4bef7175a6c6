import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { freshStore, runLedger, type Store, withStore } from "../support/server-process.ts"

/**
 * `ledger firm-audit-head FIRM_ID` for real, against a store (a PGlite folder, or a fresh
 * PostgreSQL database when DATABASE_URL is set): the head an operator records outside the
 * database (docs/decisions/0903-firm-requests-limited-audited-anchored.md).
 */

const slow = 300_000

let store: Store
beforeAll(async () => {
  store = await freshStore()
  await run(["migrate"])
}, slow)
afterAll(async () => {
  await store?.remove()
}, slow)

const run = (args: ReadonlyArray<string>) => runLedger(store, args)

describe("ledger firm-audit-head", () => {
  it("prints the firm's head as one JSON line, and refuses an unknown firm or no id", async () => {
    const hash = "ab".repeat(32)
    const firmId = await withStore(store, (sql) => sql<{ id: string }>`INSERT INTO firms (name, audit_seq, audit_head, created_at)
        VALUES ('Anchored CPAs', 42, ${hash}, now()) RETURNING id`).then((rows) => Number(rows[0]!.id))
    const printed = await run(["firm-audit-head", String(firmId)])
    expect(printed.code, printed.stderr).toBe(0)
    const head = JSON.parse(printed.stdout.trim().split("\n").at(-1)!)
    expect(head).toMatchObject({ firm_id: firmId, head_seq: 42, head_hash: hash })
    expect(Date.parse(head.as_of)).not.toBeNaN()
    const unknown = await run(["firm-audit-head", String(firmId + 1_000_000)])
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toContain("no firm")
    const missing = await run(["firm-audit-head"])
    expect(missing.code).toBe(2)
  }, slow)
})

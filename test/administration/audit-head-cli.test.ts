import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { freshStore, runLedger, type Store, withStore } from "../support/server-process.ts"

/**
 * `ledger audit-head COMPANY_ID` for real, against a store (a PGlite folder, or a fresh PostgreSQL
 * database when DATABASE_URL is set): the company log's head an operator records outside the
 * database (docs/decisions/2310-company-audit-hash-chain.md).
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

describe("ledger audit-head", () => {
  it("prints the company's head as one JSON line, and refuses an unknown company or no id", async () => {
    const companyId = "00000000-0000-4000-8000-00000000a1d1"
    const hash = await withStore(store, (sql) => Effect.gen(function*() {
      yield* sql`INSERT INTO companies (company_id, name, plan, starter_chart, periods, created_at)
        VALUES (${companyId}, 'Anchored Co', 'owned', 'empty', false, now())`
      for (const action of ["first", "second"]) {
        yield* sql`INSERT INTO audit_events (company_id, occurred_at, action, outcome, status, principal_type, via)
          VALUES (${companyId}, now(), ${action}, 'ok', 200, 'operator', 'engine')`
      }
      const rows = yield* sql<{ hash: string }>`SELECT hash FROM audit_events WHERE company_id = ${companyId} AND seq = 2`
      return rows[0]!.hash
    }))
    const printed = await run(["audit-head", companyId])
    expect(printed.code, printed.stderr).toBe(0)
    const head = JSON.parse(printed.stdout.trim().split("\n").at(-1)!)
    expect(head).toMatchObject({ company_id: companyId, head_seq: 2, head_hash: hash })
    expect(Date.parse(head.as_of)).not.toBeNaN()
    const unknown = await run(["audit-head", "00000000-0000-4000-8000-00000000a1d2"])
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toContain("no company")
    expect((await run(["audit-head"])).code).toBe(2)
  }, slow)
})

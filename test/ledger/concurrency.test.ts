import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { makeTestApp, newKey, type TestApp, type TestCompany } from "../support/index.ts"
import { propose, simpleLines, today } from "./support.ts"

/**
 * A posting and a hard lock of its period never both commit with the posting unseen by the lock:
 * postings hold the period row FOR SHARE, status changes take it FOR UPDATE. Shown on PostgreSQL
 * by interleaving real transactions (PGlite has a single connection, so nothing interleaves there).
 */

const onPostgres = process.env.DATABASE_URL !== undefined && process.env.DATABASE_URL !== ""

let app: TestApp
let company: TestCompany
let period: { id: number; start_date: string; end_date: string }
beforeAll(async () => {
  if (!onPostgres) return
  app = await makeTestApp()
  company = await app.createCompany({ name: "Concurrency Co" })
  const periods = (await app.call("GET", "/v1/periods?limit=100", { token: company.ownerKey })).body.data
  period = periods.find((candidate: { start_date: string; end_date: string }) => candidate.start_date <= today() && today() <= candidate.end_date)
})
afterAll(async () => {
  if (onPostgres) await app.close()
})

/** Runs `body` in a transaction of its own that stays open until `release` is called. */
const holdTransaction = (body: (sql: SqlClient.SqlClient) => Effect.Effect<unknown, unknown>) => {
  let release!: () => void
  const released = new Promise<void>((resolve) => {
    release = resolve
  })
  let ready!: () => void
  const holding = new Promise<void>((resolve) => {
    ready = resolve
  })
  const done = app.runtime.runPromise(Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql.withTransaction(Effect.gen(function*() {
      yield* body(sql)
      yield* Effect.sync(ready)
      yield* Effect.promise(() => released)
    }))
  }))
  return { holding, release, done }
}

/** Settles with its order of completion. */
const track = <A>(order: Array<string>, name: string, promise: Promise<A>) =>
  promise.then((value) => {
    order.push(name)
    return value
  })

const pause = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds))

describe.skipIf(!onPostgres)("posting against a concurrent hard lock (PostgreSQL)", () => {
  it("a posting that arrives while the lock is being taken waits for it, then is refused", async () => {
    const lock = holdTransaction((sql) =>
      Effect.gen(function*() {
        yield* sql`SELECT id FROM periods WHERE company_id = ${company.companyId} AND id = ${period.id} FOR UPDATE`
        yield* sql`UPDATE periods SET status = 'hard_locked' WHERE company_id = ${company.companyId} AND id = ${period.id}`
      })
    )
    await lock.holding
    const order: Array<string> = []
    const posting = track(order, "posting", propose(app, company.ownerKey, { entry_date: today(), lines: simpleLines("6070", "1010", 100) }))
    try {
      await pause(400)
      expect(order).toEqual([])
    } finally {
      lock.release()
    }
    await lock.done
    const result = await posting
    expect(result.status).toBe(422)
    expect(result.body.error.type).toBe("period_hard_locked")
    // Reopened as the spec allows: a reason and a person's stamp in the statement (migrations 0032, 0039).
    await app.query(`UPDATE periods SET status = 'open', status_reason = 'test reopens', status_changed_at = now(),
      status_changed_by = 'user:1' WHERE company_id = $1 AND id = $2`, [company.companyId, period.id])
  })

  it("a lock that arrives while a posting is in flight waits for the posting to commit", async () => {
    // A first posting creates the daily-total row the second one will have to update.
    expect((await propose(app, company.ownerKey, { entry_date: today(), lines: simpleLines("6070", "1010", 100) })).status).toBe(201)
    const account = (await app.query<{ id: string }>(`SELECT id FROM accounts WHERE company_id = $1 AND code = '1010'`, [company.companyId]))[0]!
    // Holding that row stalls the second posting after it has taken the period FOR SHARE.
    const blocker = holdTransaction((sql) =>
      sql`SELECT 1 FROM account_daily_totals WHERE company_id = ${company.companyId} AND account_id = ${account.id}
        AND day = ${today()} FOR UPDATE`
    )
    await blocker.holding
    const order: Array<string> = []
    const posting = track(order, "posting", propose(app, company.ownerKey, { entry_date: today(), lines: simpleLines("6070", "1010", 250) }))
    await pause(400)
    const locking = track(order, "lock", app.call("POST", `/v1/periods/${period.id}/status`, {
      token: company.ownerKey,
      key: newKey(),
      body: { status: "hard_locked", reason: "Month end" }
    }))
    try {
      await pause(400)
      expect(order).toEqual([])
    } finally {
      blocker.release()
    }
    await blocker.done
    const [posted, locked] = await Promise.all([posting, locking])
    expect(posted.status).toBe(201)
    expect(locked.status).toBe(200)
    expect(order).toEqual(["posting", "lock"])
    // The lock committed after the posting: the entry is in, and nothing more gets in.
    const entry = await app.call("GET", `/v1/journal-entries/${posted.body.id}`, { token: company.ownerKey })
    expect(entry.body.total_cents).toBe(250)
    const after = await propose(app, company.ownerKey, { entry_date: today(), lines: simpleLines("6070", "1010", 100) })
    expect(after.body.error.type).toBe("period_hard_locked")
  })
})

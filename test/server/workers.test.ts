import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Worker from "@ledger/server/workers"
import { makeTestApp, type TestApp } from "../support/index.ts"

/**
 * The worker loop drains a backlog at the speed its jobs run: full batches run back to back, and
 * only a batch that comes back short lets the loop rest until its next poll.
 */

let app: TestApp
beforeAll(async () => {
  app = await makeTestApp()
}, 120_000)
afterAll(() => app?.close())

const waiting = async (kind: string) =>
  Number((await app.query<{ n: string }>(`SELECT count(*) AS n FROM jobs WHERE kind = $1 AND status = 'pending'`, [kind]))[0]!.n)

describe("the worker loop", () => {
  it("runs full batches back to back in one pass, where one batch ran per poll before", async () => {
    const kind = `test.backlog.${Date.now()}`
    // Jobs of a kind no worker knows: each is given up at once, which is all this needs of a job.
    await app.query(
      `INSERT INTO jobs (kind, company_id, run_at, max_attempts, created_at) SELECT $1, NULL, now() - interval '1 minute', 1, now() FROM generate_series(1, 25)`,
      [kind]
    )
    const options = { ...Worker.defaults, id: "backlog-worker", batchSize: 10 }
    expect(await app.runtime.runPromise(Worker.runOnce(options) as Effect.Effect<number>)).toBe(10)
    expect(await waiting(kind)).toBe(15)
    expect(await app.runtime.runPromise(Worker.pass(options) as Effect.Effect<number>)).toBe(15)
    expect(await waiting(kind)).toBe(0)
  })
})

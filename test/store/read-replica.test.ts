import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ReadReplica } from "@ledger/engine"
import { expect201, makeTestApp, newKey, type TestApp, type TestCompany } from "../support/index.ts"
import * as StreamingReplica from "./streaming-replica.ts"

/**
 * Reports on a read replica (issue 43 item 6, ADR 2410): a real streaming replica, made with
 * PostgreSQL's own tools (test/support/streaming-replica.ts), under an app whose reports read it
 * while it is fresh. What answered is proved by the standby itself: it logs every statement with
 * the connection's application name (`ledger-reports` for the replica's connections), and while
 * its replay is paused it visibly lacks what the primary has.
 */

const tools = StreamingReplica.binaries()
const skipReason = (process.env.DATABASE_URL ?? "") === ""
  ? "DATABASE_URL is unset (the read replica is PostgreSQL's)"
  : "missing" in tools
  ? tools.missing
  : null
if (skipReason !== null) console.log(`read-replica test skipped: ${skipReason}`)

/** The replica may be this far behind for a report to read it. */
const maxStalenessMs = 3000

let cluster: StreamingReplica.StreamingReplica | undefined
let app: TestApp | undefined
let north: TestCompany
let south: TestCompany
let schema: string

const status = () => app!.runtime.runPromise(Effect.gen(function*() {
  return yield* (yield* ReadReplica.ReadReplica).status
}))
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The trial balance of a company, with the status counters read just before and after it. */
const trialBalance = async (company: TestCompany) => {
  const before = await status()
  const body = await report(company)
  const after = await status()
  return {
    body,
    onReplica: after.readsOnReplica - before.readsOnReplica,
    onPrimary: after.readsOnPrimary - before.readsOnPrimary
  }
}

/** Reads until the replica serves one (it has replayed the company's writes), at most `attempts` times. */
const untilOnReplica = async (company: TestCompany, attempts = 100) => {
  for (let attempt = 0; attempt < attempts; attempt++) {
    const read = await trialBalance(company)
    if (read.onReplica === 1) return read
    await sleep(100)
  }
  throw new Error("no report was read from the replica")
}

const post = async (company: TestCompany, entryDate: string, memo: string, debit: string, credit: string, cents: number) => {
  const lines = [{ account: debit, debit_cents: cents }, { account: credit, credit_cents: cents }]
  const result = await app!.call("POST", "/v1/journal-entries/propose", { token: company.ownerKey, key: newKey(), body: { entry_date: entryDate, memo, lines } })
  expect201(`entry ${memo}`, result)
}

const report = async (company: TestCompany) => {
  const result = await app!.call("GET", "/v1/reports/trial-balance?as_of=2026-06-30", { token: company.ownerKey })
  expect(result.status).toBe(200)
  return result.body
}

const rowNamed = (body: any, code: string) => body.rows.find((row: any) => row.code === code)

describe.skipIf(skipReason !== null)("reports on a streaming replica", () => {
  beforeAll(async () => {
    cluster = await StreamingReplica.start()
    app = await makeTestApp({ databaseUrl: cluster.primaryUrl, readDatabase: { url: cluster.standbyUrl, maxStalenessMs } })
    schema = String((await app.query<{ schema: string }>("SELECT current_schema() AS schema"))[0]!.schema)
    north = await app.createCompany({ name: "North Ltd", starter_chart: "general" })
    south = await app.createCompany({ name: "South Ltd", starter_chart: "general" })
    await post(north, "2026-02-01", "Capital", "1010", "3010", 900_000)
    await post(south, "2026-02-01", "Capital", "1010", "3010", 50_000)
  }, 120_000)
  afterAll(async () => {
    await app?.close().catch(() => undefined)
    await cluster?.stop()
  }, 60_000)

  it("reads a report from the replica once it has replayed the company's writes, with the primary's figures", async () => {
    const read = await untilOnReplica(north)
    expect(read.body.total_debit_cents).toBe(900_000)
    expect((await status()).reachable).toBe(true)
    // The standby ran the report's statements, on the replica's connections.
    const statements = (await cluster!.standbyLog()).split(/\n(?=\[)/)
    expect(statements.some((entry) => entry.startsWith("[ledger-reports]") && entry.includes("FROM account_monthly_totals"))).toBe(true)
    // An operator sees it at /metrics.
    const metrics = await (await app!.fetch(new Request("http://ledger.test/metrics"))).text()
    const replicaReads = /ledger_read_replica_reads\{served_by="replica"\} (\d+)/.exec(metrics)
    expect(Number(replicaReads?.[1])).toBeGreaterThanOrEqual(1)
    expect(metrics).toMatch(/ledger_read_replica_lag_seconds \d/)
  }, 30_000)

  it("reads the aging reports and the account list with balances from the replica too, and the plain list from the primary", async () => {
    await untilOnReplica(north)
    const counted = async (path: string) => {
      const before = await status()
      const result = await app!.call("GET", path, { token: north.ownerKey })
      expect(result.status).toBe(200)
      const after = await status()
      return { body: result.body, onReplica: after.readsOnReplica - before.readsOnReplica, onPrimary: after.readsOnPrimary - before.readsOnPrimary }
    }
    const withBalances = await counted("/v1/accounts?include_balances=true&as_of=2026-06-30")
    expect(withBalances).toMatchObject({ onReplica: 1, onPrimary: 0 })
    expect(withBalances.body.data.find((account: any) => account.code === "1010").balance_cents).toBe(900_000)
    expect(await counted("/v1/reports/ar-aging")).toMatchObject({ onReplica: 1, onPrimary: 0 })
    expect(await counted("/v1/reports/ap-aging")).toMatchObject({ onReplica: 1, onPrimary: 0 })
    expect(await counted("/v1/accounts")).toMatchObject({ onReplica: 0, onPrimary: 0 })
  }, 30_000)

  it("a company that just wrote reads its write from the primary while the replica has not replayed it", async () => {
    await untilOnReplica(north)
    await cluster!.onStandby("SELECT pg_wal_replay_pause()")
    try {
      await post(north, "2026-03-01", "Loan", "1010", "2100", 25_000)
      const read = await trialBalance(north)
      expect(read.body.total_debit_cents).toBe(925_000)
      expect(read).toMatchObject({ onPrimary: 1, onReplica: 0 })
      // The replica indeed lacks it: a report from there would have been stale.
      const onStandby = await cluster!.onStandby(
        `SELECT count(*) FROM ${schema}.journal_entries WHERE company_id = '${north.companyId}' AND memo = 'Loan'`
      )
      expect(onStandby).toBe("0")
    } finally {
      await cluster!.onStandby("SELECT pg_wal_replay_resume()")
    }
    const caughtUp = await untilOnReplica(north)
    expect(caughtUp.body.total_debit_cents).toBe(925_000)
  }, 30_000)

  it("no report is staler than the bound: past it, reads go to the primary until the replica catches up", async () => {
    await untilOnReplica(south)
    await cluster!.onStandby("SELECT pg_wal_replay_pause()")
    try {
      // A change the app did not make (so no company's write it knows of): only the bound protects readers.
      await app!.query(`UPDATE accounts SET name = 'Renamed Cash' WHERE company_id = $1 AND code = '1010'`, [south.companyId])
      await sleep(maxStalenessMs + 500)
      const read = await trialBalance(south)
      expect(rowNamed(read.body, "1010").name).toBe("Renamed Cash")
      expect(read).toMatchObject({ onPrimary: 1, onReplica: 0 })
      const onStandby = await cluster!.onStandby(
        `SELECT name FROM ${schema}.accounts WHERE company_id = '${south.companyId}' AND code = '1010'`
      )
      expect(onStandby).not.toBe("Renamed Cash")
    } finally {
      await cluster!.onStandby("SELECT pg_wal_replay_resume()")
    }
    const caughtUp = await untilOnReplica(south)
    expect(rowNamed(caughtUp.body, "1010").name).toBe("Renamed Cash")
  }, 30_000)
})

/**
 * Benchmark 7: storage cost. The total size of every table of the schema (heap, indexes and TOAST:
 * `pg_total_relation_size`) before and after N two-line postings through the engine, each with its
 * idempotency record and audit event; bytes per posting, with the share of each table. Keys are
 * UUIDs, as the SDK makes them (the audit event keeps the key). Measured for a company without a
 * webhook endpoint (no events: spec 6.2 rule 4), which the target is about, and again for one
 * whose endpoint wants every event.
 */
import { randomUUID } from "node:crypto"
import * as Engine from "./lib/Engine.ts"
import * as Options from "./lib/Options.ts"
import * as Postings from "./lib/Postings.ts"
import * as Results from "./lib/Results.ts"

const run = Results.start("storage")
const today = new Date().toISOString().slice(0, 10)
const propose = Engine.available(...Postings.paths.propose)
const createAccount = Engine.available(...Postings.paths.createAccount)

const sizes = async (engine: Engine.BenchEngine): Promise<Map<string, number>> => {
  const rows = await engine.query<{ relname: string; bytes: string | number | bigint }>(
    `SELECT c.relname, pg_total_relation_size(c.oid) AS bytes FROM pg_class c
     JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'm')`
  )
  return new Map(rows.map((row) => [row.relname, Number(row.bytes)]))
}

const cases = [
  { endpoint: false, figure: "bytes per two-line posting (tables + indexes + TOAST)" },
  { endpoint: true, figure: "bytes per two-line posting, with a webhook endpoint wanting every event" }
] as const

for (const storage of Options.storages) {
  if (propose === null || createAccount === null) {
    run.skip("bytes per two-line posting", storage, "POST /v1/journal-entries/propose", "<= 1 KB")
    continue
  }
  const writes = Options.count(storage === "postgresql" ? 20_000 : 5_000, 500)
  for (const { endpoint, figure } of cases) {
    // A database of its own for each case: a second company's rows would land in the middle of
    // the first one's indexes and split their pages, which a company's own growth does not.
    const engine = await Engine.open(storage, { name: "storage" })
    try {
      const company = await Engine.createCompany(engine, { starter_chart: "empty" })
      if (endpoint) {
        // The webhooks operations are not built yet: the endpoint is written as they would.
        await engine.query(`INSERT INTO webhook_endpoints (company_id, event_types) VALUES ($1, '{*}')`, [company.companyId])
      }
      const codes = await Postings.createAccounts(engine, company, createAccount, 100)
      const next = Postings.randomPostings({ propose, credential: company.ownerKey, codes, seed: 3, entryDate: today, newKey: randomUUID })
      // Warm every table past its first pages so the difference is growth, not the first allocation.
      await writeCount(engine, 200, next)
      const before = await sizes(engine)
      await writeCount(engine, writes, next)
      const after = await sizes(engine)
      let total = 0
      const byTable: Record<string, number> = {}
      for (const [table, bytes] of after) {
        const grown = bytes - (before.get(table) ?? 0)
        if (grown !== 0) byTable[table] = Math.round(grown / writes)
        total += grown
      }
      const perWrite = total / writes
      const split = Object.entries(byTable).sort((a, b) => b[1] - a[1]).map(([table, bytes]) => `${table} ${bytes}`).join(", ")
      run.add({
        figure: `${figure}, over ${writes.toLocaleString("en-US")}`,
        storage,
        value: `${Math.round(perWrite)} B (${split})`,
        ...(endpoint ? {} : { target: "<= 1 KB", verdict: Results.verdict(perWrite, 1024, "at most") }),
        details: { writes, endpoint, bytes_per_write: perWrite, by_table: byTable }
      })
    } finally {
      await engine.close()
    }
  }
}

/** `count` writes by 8 concurrent callers. */
async function writeCount(
  engine: Engine.BenchEngine,
  count: number,
  next: (caller: number, index: number) => { operationId: string; input: Engine.Input }
) {
  let issued = 0
  let failed = 0
  const caller = async (callerIndex: number) => {
    while (issued < count) {
      const index = issued++
      const { operationId, input } = next(callerIndex, index)
      const outcome = await engine.call(operationId, input)
      if (outcome.status !== 201) failed++
    }
  }
  await Promise.all(Array.from({ length: 8 }, (_, index) => caller(index)))
  if (failed > 0) throw new Error(`${failed} of ${count} writes failed`)
}

run.note("sizes are what PostgreSQL allocated (8 KB pages, fill factor); keys are UUIDs as the SDK makes them; the idempotency record is purged after 7 days, so what a posting keeps for good is its entry, lines and audit event (and its outbox event where an endpoint wants it, which nothing prunes yet)")
run.finish()
process.exit(0)

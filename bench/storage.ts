/**
 * Benchmark 7: storage cost. The total size of every table of the schema (heap, indexes and TOAST:
 * `pg_total_relation_size`) before and after N two-line postings through the engine, each with its
 * idempotency record and audit event; bytes per posting, with the share of each table. Until the
 * ledger serves postings, the same for `POST /v1/users` as a stand-in write.
 */
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

for (const storage of Options.storages) {
  const engine = await Engine.open(storage, { name: "storage" })
  try {
    const company = await Engine.createCompany(engine, { starter_chart: "empty" })
    const writes = Options.count(storage === "postgresql" ? 20_000 : 5_000, 500)
    let what: string
    let next: (caller: number, index: number) => { operationId: string; input: Engine.Input }
    if (propose !== null && createAccount !== null) {
      what = "two-line posting"
      const codes = await Postings.createAccounts(engine, company, createAccount, 100)
      next = Postings.randomPostings({ propose, credential: company.ownerKey, codes, seed: 3, entryDate: today, keyPrefix: "s" })
    } else {
      run.skip("bytes per two-line posting", storage, "POST /v1/journal-entries/propose", "<= 1 KB")
      what = "POST /v1/users (stand-in write)"
      next = (caller, index) => ({
        operationId: "createUser",
        input: { credential: company.ownerKey, idempotencyKey: Engine.newKey(`u${caller}`), body: { name: `User ${index}`, role: "staff" } }
      })
    }
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
      figure: `bytes per ${what} (tables + indexes + TOAST), over ${writes.toLocaleString("en-US")}`,
      storage,
      value: `${Math.round(perWrite)} B (${split})`,
      ...(what === "two-line posting"
        ? { target: "<= 1 KB", verdict: Results.verdict(perWrite, 1024, "at most") }
        : {}),
      details: { writes, bytes_per_write: perWrite, by_table: byTable }
    })
  } finally {
    await engine.close()
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

run.note("sizes are what PostgreSQL allocated (8 KB pages, fill factor); the idempotency record is purged after 7 days, so what a posting keeps for good is its entry, lines and audit event (and its outbox event, which nothing prunes yet)")
run.finish()
process.exit(0)

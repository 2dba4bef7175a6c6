/**
 * Not a benchmark: how the ledger's totals lie on disk after real postings, the layout the reports
 * benchmark's loader reproduces (each total row once, a day's rows together). Posts through the
 * engine for PROFILE_SECONDS (default 10) on each of three days, 16 callers over 1,000 accounts, and
 * prints the rows and 8 KB pages of the daily and monthly totals after each day: every row is
 * updated dozens of times a day, and HOT pruning keeps the tables about as dense as rows written
 * once (docs/performance.md). BENCH_STORAGE picks the storage (the first listed).
 *
 *   node --experimental-transform-types bench/totals-layout.ts
 */
import * as Engine from "./lib/Engine.ts"
import * as Options from "./lib/Options.ts"
import * as Postings from "./lib/Postings.ts"

const storage = Options.storages[0] ?? "pglite"
const engine = await Engine.open(storage, { name: "totals_layout" })
try {
  const company = await Engine.createCompany(engine, { starter_chart: "empty" })
  const propose = Engine.available(...Postings.paths.propose)
  const createAccount = Engine.available(...Postings.paths.createAccount)
  if (propose === null || createAccount === null) throw new Error("the ledger is not available")
  const codes = await Postings.createAccounts(engine, company, createAccount, 1_000)
  for (const day of ["2026-11-02", "2026-11-03", "2026-11-04"]) {
    const next = Postings.randomPostings({ propose, credential: company.ownerKey, codes, seed: 1, entryDate: day })
    const result = await Postings.runCallers({ engine, concurrency: 16, durationSeconds: Number(process.env.PROFILE_SECONDS ?? 10), next })
    // The bench's schema or folder holds this company alone: the tables' sizes are its own.
    const [layout] = await engine.query<Record<string, unknown>>(`SELECT
      (SELECT count(*) FROM account_daily_totals) AS daily_rows, pg_relation_size('account_daily_totals') / 8192 AS daily_pages,
      (SELECT count(*) FROM account_monthly_totals) AS monthly_rows, pg_relation_size('account_monthly_totals') / 8192 AS monthly_pages`)
    const figures = Object.entries(layout ?? {}).map(([name, value]) => `${name} ${Number(value)}`).join(", ")
    process.stdout.write(`${storage}, after ${day}: ${result.succeeded} postings that day; ${figures}\n`)
  }
} finally {
  await engine.close()
}
process.exit(0)

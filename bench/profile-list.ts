/**
 * Not a benchmark: `GET /v1/accounts?include_balances=true` straight into the engine, for
 * `node --cpu-prof --import tsx bench/profile-list.ts` (BENCH_STORAGE, PROFILE_SECONDS,
 * PROFILE_POSTING_SECONDS, PROFILE_HISTORY_DAYS).
 */
import * as Engine from "./lib/Engine.ts"
import * as Options from "./lib/Options.ts"
import * as Postings from "./lib/Postings.ts"

const storage = Options.storages[0] ?? "pglite"
const engine = await Engine.open(storage, { name: "profile_list", pgliteMode: "memory" })
try {
  const company = await Engine.createCompany(engine, { starter_chart: "empty" })
  const createAccount = Engine.available(...Postings.paths.createAccount)
  if (createAccount === null) throw new Error("the ledger is not available")
  const codes = await Postings.createAccounts(engine, company, createAccount, 200)
  const propose = Engine.available(...Postings.paths.propose)
  // Seconds of postings before the reads (PROFILE_POSTING_SECONDS).
  const postings = Number(process.env.PROFILE_POSTING_SECONDS ?? 0)
  if (propose !== null && postings > 0) {
    const today = new Date().toISOString().slice(0, 10)
    await Postings.runCallers({
      engine,
      concurrency: 16,
      durationSeconds: postings,
      next: Postings.randomPostings({ propose, credential: company.ownerKey, codes, seed: 3, entryDate: today })
    })
  }
  // Days of history before today (PROFILE_HISTORY_DAYS), written straight into the totals as a
  // company that has posted every day on every account would have them: what a page's balances read.
  const historyDays = Number(process.env.PROFILE_HISTORY_DAYS ?? 0)
  if (historyDays > 0) {
    await engine.query(
      `INSERT INTO account_daily_totals (company_id, account_id, day, debit_cents, credit_cents)
       SELECT a.company_id, a.id, current_date - n, 100, 40 FROM accounts a, generate_series(1, $2::int) AS n
       WHERE a.company_id = $1
       ON CONFLICT DO NOTHING`,
      [company.companyId, historyDays]
    )
    await engine.query(
      `INSERT INTO account_monthly_totals (company_id, account_id, month, debit_cents, credit_cents)
       SELECT company_id, account_id, date_trunc('month', day::timestamp)::date, sum(debit_cents), sum(credit_cents)
       FROM account_daily_totals WHERE company_id = $1 AND day < current_date GROUP BY 1, 2, 3
       ON CONFLICT (company_id, account_id, month) DO UPDATE SET debit_cents = excluded.debit_cents, credit_cents = excluded.credit_cents`,
      [company.companyId]
    )
    // As the server's statistics upkeep would after such growth (ADR 0707).
    await engine.query("ANALYZE account_daily_totals")
    await engine.query("ANALYZE account_monthly_totals")
  }
  if (process.env.PROFILE_VACUUM === "1") await engine.query("VACUUM ANALYZE")
  const result = await Postings.runCallers({
    engine,
    concurrency: 16,
    durationSeconds: Number(process.env.PROFILE_SECONDS ?? 10),
    next: () => ({ operationId: "listAccounts", input: { credential: company.ownerKey, query: { include_balances: true } } })
  })
  process.stdout.write(`${storage} listAccounts: ${JSON.stringify(result)}\n`)
} finally {
  await engine.close()
}
process.exit(0)

/**
 * Benchmark 5: reports at scale. 1,000 accounts and 1,000,000 journal lines (500,000 balanced
 * two-line entries) over two years, loaded by generated SQL, then the trial balance and balance
 * sheet as of dates across those years; p95. Until the reports land, the figure is the SQL the
 * ledger's design implies (sum the per-account daily totals up to the date), and beside it the
 * same question over cumulative per-account balances, as the fix the figures point to.
 *
 * The load writes entries and lines in set-based INSERTs with the row triggers off
 * (session_replication_role = replica), then the daily and monthly totals those lines make, each
 * row once and in date order as a ledger posting day after day holds them, and then checks what the
 * line triggers would have: every entry has two or more lines summing to zero, and the daily totals
 * equal the lines.
 */
import * as Engine from "./lib/Engine.ts"
import * as Options from "./lib/Options.ts"
import * as Postings from "./lib/Postings.ts"
import * as Results from "./lib/Results.ts"
import { now, Samples } from "./lib/Stats.ts"

const run = Results.start("reports")
const accountCount = 1_000
const entryCount = Options.count(500_000, 5_000)
const days = 730
const firstDay = "2024-01-01"
const queries = Options.count(100, 20)
const createAccount = Engine.available(...Postings.paths.createAccount)
const trialBalance = Engine.available(...Postings.paths.trialBalance)
const balanceSheet = Engine.available(...Postings.paths.balanceSheet)

const asOfDates = (count: number): Array<string> =>
  Array.from({ length: count }, (_, index) => {
    const day = new Date(Date.parse(firstDay) + Math.floor((index * 7919) % days) * 86_400_000)
    return day.toISOString().slice(0, 10)
  })

const p95 = async (label: string, count: number, body: (asOf: string) => Promise<void>) => {
  const samples = new Samples()
  const dates = asOfDates(count + 5)
  for (let index = 0; index < dates.length; index++) {
    const begin = now()
    await body(dates[index]!)
    // The first five warm caches and the JIT.
    if (index >= 5) samples.add(now() - begin)
  }
  return { label, ...samples.summary() }
}

for (const storage of Options.storages) {
  if (createAccount === null) {
    run.skip("trial balance over 1M lines", storage, "POST /v1/accounts", "p95 <= 50 ms")
    continue
  }
  const engine = await Engine.open(storage, { name: "reports" })
  try {
    const company = await Engine.createCompany(engine, { starter_chart: "empty", periods: false })
    await Postings.createAccounts(engine, company, createAccount, accountCount)
    const loadStarted = now()
    await load(engine, company.companyId)
    const loadSeconds = (now() - loadStarted) / 1000
    const [lineRow] = await engine.query<{ lines: string | number }>(
      "SELECT count(*) AS lines FROM journal_lines WHERE company_id = $1",
      [company.companyId]
    )
    const [totalsRow] = await engine.query<{ rows: string | number }>(
      "SELECT count(*) AS rows FROM account_daily_totals WHERE company_id = $1",
      [company.companyId]
    )
    run.add({
      figure: "data loaded (generated SQL, invariants checked)",
      storage,
      value: `${Number(lineRow?.lines).toLocaleString("en-US")} lines, ${accountCount} accounts, ${days} days, ` +
        `${Number(totalsRow?.rows).toLocaleString("en-US")} daily-total rows, in ${loadSeconds.toFixed(1)} s`
    })

    const report = async (operationId: string | null, label: string, target: string | null) => {
      if (operationId === null) {
        run.skip(label, storage, label.startsWith("trial") ? "GET /v1/reports/trial-balance" : "GET /v1/reports/balance-sheet", target ?? undefined)
        return
      }
      const result = await p95(label, queries, async (asOf) => {
        const outcome = await engine.call(operationId, { credential: company.ownerKey, query: { as_of: asOf } })
        if (outcome.status !== 200) throw new Error(`${label}: ${outcome.status} ${JSON.stringify(outcome.body)}`)
      })
      run.add({
        figure: `${label} as of a date, engine, ${queries} dates`,
        storage,
        value: `p50 ${result.p50_ms} ms, p95 ${result.p95_ms} ms`,
        ...(target === null ? {} : { target, verdict: Results.verdict(result.p95_ms, 50, "at most") }),
        details: result
      })
    }
    await report(trialBalance, "trial balance", "p95 <= 50 ms")
    await report(balanceSheet, "balance sheet", null)

    // The SQL the design implies, without the API around it: a floor for the report's latency.
    const summed = await p95("sum of daily totals", queries, async (asOf) => {
      await engine.query(
        `SELECT a.code, a.name, a.type, sum(t.debit_cents) AS debit_cents, sum(t.credit_cents) AS credit_cents
         FROM account_daily_totals t JOIN accounts a ON a.company_id = t.company_id AND a.id = t.account_id
         WHERE t.company_id = $1 AND t.day <= $2 GROUP BY a.code, a.name, a.type ORDER BY a.code`,
        [company.companyId, asOf]
      )
    })
    run.add({
      figure: "trial balance SQL: sum of daily totals up to the date",
      storage,
      value: `p50 ${summed.p50_ms} ms, p95 ${summed.p95_ms} ms`,
      target: "p95 <= 50 ms",
      verdict: Results.verdict(summed.p95_ms, 50, "at most"),
      details: summed
    })

    // The proposed structure: a running balance per account and day, so as-of is one index probe per account.
    await engine.query("DROP TABLE IF EXISTS bench_running_balances")
    await engine.query(
      `CREATE TABLE bench_running_balances AS
       SELECT company_id, account_id, day,
         sum(debit_cents) OVER w AS debit_to_date, sum(credit_cents) OVER w AS credit_to_date
       FROM account_daily_totals WHERE company_id = $1
       WINDOW w AS (PARTITION BY account_id ORDER BY day)`,
      [company.companyId]
    )
    await engine.query("CREATE INDEX ON bench_running_balances (company_id, account_id, day DESC)")
    await engine.query("ANALYZE bench_running_balances")
    const running = await p95("running balances", queries, async (asOf) => {
      await engine.query(
        `SELECT a.code, a.name, a.type, r.debit_to_date, r.credit_to_date
         FROM accounts a CROSS JOIN LATERAL (
           SELECT debit_to_date, credit_to_date FROM bench_running_balances b
           WHERE b.company_id = a.company_id AND b.account_id = a.id AND b.day <= $2
           ORDER BY b.day DESC LIMIT 1) r
         WHERE a.company_id = $1 ORDER BY a.code`,
        [company.companyId, asOf]
      )
    })
    run.add({
      figure: "trial balance SQL over running balances (proposed)",
      storage,
      value: `p50 ${running.p50_ms} ms, p95 ${running.p95_ms} ms`,
      details: running
    })
  } finally {
    await engine.close()
  }
}

/**
 * Writes `entryCount` balanced two-line entries across `days` days, in chunks, and their daily
 * totals; then checks what the database's triggers would have checked row by row.
 */
async function load(engine: Engine.BenchEngine, companyId: string) {
  const chunk = engine.storage === "postgresql" ? 100_000 : 25_000
  // Plain tables, not temporary ones: a pool's statements may each take another connection.
  await engine.query("DROP TABLE IF EXISTS bench_accounts")
  await engine.query(`CREATE TABLE bench_accounts AS
    SELECT (row_number() OVER (ORDER BY id) - 1)::int AS slot, id FROM accounts WHERE company_id = '${companyId}'`)
  const [countRow] = await engine.query<{ n: string | number }>("SELECT count(*) AS n FROM bench_accounts")
  const slots = Number(countRow?.n)
  for (let start = 0; start < entryCount; start += chunk) {
    const end = Math.min(entryCount, start + chunk)
    await engine.transaction([
      "SET LOCAL session_replication_role = replica",
      "DROP TABLE IF EXISTS bench_entries",
      `CREATE TABLE bench_entries AS
        SELECT nextval('ledger_ids') AS id,
          DATE '${firstDay}' + (g % ${days}) AS entry_date,
          ((g::bigint * 7919) % ${slots})::int AS debit_slot,
          (((g::bigint * 7919) % ${slots} + 1 + (g::bigint * 104729) % ${slots - 1}) % ${slots})::int AS credit_slot,
          (1 + (g::bigint * 7907) % 1000000)::bigint AS amount
        FROM generate_series(${start}, ${end - 1}) AS g`,
      `INSERT INTO journal_entries (company_id, id, entry_date, memo, total_cents, source_kind, posted_by_type, posted_by_name, posted_at)
        SELECT '${companyId}'::uuid, id, entry_date, 'bench', amount, 'journal', 'user', 'Bench', now() FROM bench_entries`,
      `INSERT INTO journal_lines (company_id, entry_id, line_no, account_id, entry_date, amount_cents)
        SELECT '${companyId}'::uuid, e.id, 1, d.id, e.entry_date, e.amount FROM bench_entries e JOIN bench_accounts d ON d.slot = e.debit_slot
        UNION ALL
        SELECT '${companyId}'::uuid, e.id, 2, c.id, e.entry_date, -e.amount FROM bench_entries e JOIN bench_accounts c ON c.slot = e.credit_slot`,
      "DROP TABLE bench_entries"
    ])
  }
  await engine.query("DROP TABLE bench_accounts")
  // The totals, each row written once and in date order, as a ledger that posted these entries day
  // after day holds them: a day's rows together, not one version per chunk scattered through the
  // table. Summing per chunk left about 20 versions of every monthly row and spread each day's rows
  // over as many pages as rows (the figures of 2026-11-25 and before, docs/performance.md).
  await engine.transaction([
    // The totals take writes only from the lines' trigger (migration 0032) unless triggers are off.
    "SET LOCAL session_replication_role = replica",
    `INSERT INTO account_daily_totals (company_id, account_id, day, debit_cents, credit_cents)
      SELECT company_id, account_id, entry_date, sum(greatest(amount_cents, 0)), sum(greatest(-amount_cents, 0))
      FROM journal_lines WHERE company_id = '${companyId}'
      GROUP BY company_id, account_id, entry_date
      ORDER BY entry_date, account_id`,
    `INSERT INTO account_monthly_totals (company_id, account_id, month, debit_cents, credit_cents)
      SELECT company_id, account_id, date_trunc('month', day::timestamp)::date, sum(debit_cents), sum(credit_cents)
      FROM account_daily_totals WHERE company_id = '${companyId}'
      GROUP BY company_id, account_id, date_trunc('month', day::timestamp)::date
      ORDER BY 3, account_id`
  ])
  const [unbalanced] = await engine.query<{ n: string | number }>(
    `SELECT count(*) AS n FROM (SELECT entry_id FROM journal_lines WHERE company_id = $1 GROUP BY entry_id
       HAVING sum(amount_cents) <> 0 OR count(*) < 2) bad`,
    [companyId]
  )
  const [drifted] = await engine.query<{ n: string | number }>(
    `SELECT count(*) AS n FROM (
       SELECT account_id, entry_date AS day, sum(greatest(amount_cents, 0)) AS debit, sum(greatest(-amount_cents, 0)) AS credit
       FROM journal_lines WHERE company_id = $1 GROUP BY account_id, entry_date) l
     FULL JOIN (SELECT account_id, day, debit_cents, credit_cents FROM account_daily_totals WHERE company_id = $1) t
       USING (account_id, day)
     WHERE l.debit IS DISTINCT FROM t.debit_cents OR l.credit IS DISTINCT FROM t.credit_cents`,
    [companyId]
  )
  if (Number(unbalanced?.n) !== 0 || Number(drifted?.n) !== 0) {
    throw new Error(`generated data breaks the invariants: ${unbalanced?.n} unbalanced entries, ${drifted?.n} drifted daily totals`)
  }
  await engine.query("ANALYZE")
}

run.finish()
process.exit(0)

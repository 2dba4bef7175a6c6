/**
 * Benchmark 2: a hot account. Every posting debits the same account (a till everyone rings up)
 * and credits one of 100 others, from 16 concurrent callers through the engine. Then zero drift:
 * the hot account's balance as the API reports it, as its daily totals sum, and as its journal
 * lines sum must be the same number.
 */
import * as Engine from "./lib/Engine.ts"
import * as Options from "./lib/Options.ts"
import * as Postings from "./lib/Postings.ts"
import * as Results from "./lib/Results.ts"

const run = Results.start("hot-account")
const today = new Date().toISOString().slice(0, 10)
const propose = Engine.available(...Postings.paths.propose)
const createAccount = Engine.available(...Postings.paths.createAccount)
const listAccounts = Engine.available(...Postings.paths.listAccounts)

for (const storage of Options.storages) {
  if (propose === null || createAccount === null || listAccounts === null) {
    run.skip("hot account postings per s", storage, "POST /v1/journal-entries/propose", ">= 1,500/s, zero drift")
    continue
  }
  const engine = await Engine.open(storage, { name: "hot", maxConnections: 20 })
  try {
    const company = await Engine.createCompany(engine, { starter_chart: "empty" })
    const codes = await Postings.createAccounts(engine, company, createAccount, 101)
    const hot = codes[0]!
    const draw = Postings.random(5)
    const result = await Postings.runCallers({
      engine,
      concurrency: 16,
      durationSeconds: Options.seconds(30, 5),
      next: (caller) => ({
        operationId: propose,
        input: {
          credential: company.ownerKey,
          idempotencyKey: Engine.newKey(`h${caller}`),
          body: Postings.twoLineEntry(hot, codes[1 + draw(codes.length - 1)]!, 1 + draw(100_000), today)
        }
      })
    })

    // Zero drift: three independent views of the hot account's balance.
    const listed = await engine.call(listAccounts, { credential: company.ownerKey, query: { include_balances: true, limit: 1000 } })
    const apiBalance = (listed.body as { data: Array<{ code: string; balance_cents: number }> }).data
      .find((account) => account.code === hot)?.balance_cents
    const [fromLines] = await engine.query<{ cents: string | number | null }>(
      `SELECT sum(l.amount_cents) AS cents FROM journal_lines l JOIN accounts a ON a.company_id = l.company_id AND a.id = l.account_id
       WHERE a.company_id = $1 AND a.code = $2`,
      [company.companyId, hot]
    )
    const [fromTotals] = await engine.query<{ cents: string | number | null }>(
      `SELECT sum(t.debit_cents - t.credit_cents) AS cents FROM account_daily_totals t
       JOIN accounts a ON a.company_id = t.company_id AND a.id = t.account_id WHERE a.company_id = $1 AND a.code = $2`,
      [company.companyId, hot]
    )
    const lines = Number(fromLines?.cents ?? 0)
    const totals = Number(fromTotals?.cents ?? 0)
    // The hot account is an asset: its natural balance is debits minus credits, as the lines sum.
    const drift = apiBalance === lines && totals === lines ? 0 : Math.max(Math.abs((apiBalance ?? Number.NaN) - lines), Math.abs(totals - lines))
    const met = result.failed === 0 && drift === 0 && result.rate_per_s >= 1_500
    run.add({
      figure: "hot account postings, 16 callers, per s; drift",
      storage,
      value: `${Results.formatNumber(result.rate_per_s)}/s (p50 ${result.latency.p50_ms} ms, p99 ${result.latency.p99_ms} ms, failed ${result.failed}, ` +
        `${result.node_cpu_us_per_call} µs of Node CPU each); ` +
        `drift ${drift} (API ${apiBalance}, daily totals ${totals}, lines ${lines})`,
      target: ">= 1,500/s, zero drift",
      verdict: met ? "met" : "missed",
      details: { ...result, api_balance_cents: apiBalance, daily_totals_cents: totals, lines_cents: lines, drift }
    })
  } finally {
    await engine.close()
  }
}

run.finish()
process.exit(0)

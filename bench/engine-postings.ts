/**
 * Benchmark 1: engine postings. Balanced two-line entries by 16 concurrent callers over 1,000
 * accounts, straight into the Dispatcher (no HTTP), on PostgreSQL and PGlite; and, in the same
 * run, `pgbench -N -c 16` on the same PostgreSQL server for the machine's own commit rate.
 */
import * as Engine from "./lib/Engine.ts"
import * as Options from "./lib/Options.ts"
import * as Pgbench from "./lib/Pgbench.ts"
import * as Postings from "./lib/Postings.ts"
import * as Results from "./lib/Results.ts"

const concurrency = 16
const accountCount = 1_000
const run = Results.start("engine-postings")
const today = new Date().toISOString().slice(0, 10)
let pgbenchTps: number | null = null

if (Options.storages.includes("postgresql")) {
  if (await Pgbench.installed()) {
    const result = await Pgbench.measure({ clients: concurrency, seconds: Options.seconds(30, 5), scale: 10 })
    pgbenchTps = result.tps
    run.add({
      figure: `pgbench -N -c ${concurrency}, transactions/s`,
      storage: "postgresql",
      value: Results.formatNumber(result.tps),
      details: { ...result }
    })
  } else {
    run.note("pgbench is not installed (apt-get install postgresql-client): no machine commit rate to compare with")
  }
}

for (const storage of Options.storages) {
  const engine = await Engine.open(storage, { name: "postings", maxConnections: concurrency + 4 })
  try {
    const company = await Engine.createCompany(engine, { starter_chart: "empty" })

    // The pipeline alone, on a foundation write, as a baseline for the posting figure.
    const baseline = await Postings.runCallers({
      engine,
      concurrency,
      durationSeconds: Options.seconds(10),
      next: (caller, index) => ({
        operationId: "createUser",
        input: { credential: company.ownerKey, idempotencyKey: Engine.newKey(`u${caller}`), body: { name: `User ${index}`, role: "staff" } }
      })
    })
    run.add({
      figure: `engine createUser (pipeline baseline), ${concurrency} callers, per s`,
      storage,
      value: `${Results.formatNumber(baseline.rate_per_s)}/s, p50 ${baseline.latency.p50_ms} ms, p99 ${baseline.latency.p99_ms} ms, ` +
        `${baseline.node_cpu_us_per_call} µs of Node CPU each`,
      details: { ...baseline }
    })

    const propose = Engine.available(...Postings.paths.propose)
    const createAccount = Engine.available(...Postings.paths.createAccount)
    const target = storage === "postgresql" ? 3_000 : 1_500
    if (propose === null || createAccount === null) {
      run.skip("engine postings per s", storage, propose === null ? "POST /v1/journal-entries/propose" : "POST /v1/accounts", `>= ${target}/s`)
      continue
    }
    const codes = await Postings.createAccounts(engine, company, createAccount, accountCount)
    const result = await Postings.runCallers({
      engine,
      concurrency,
      durationSeconds: Options.seconds(60, 5),
      next: Postings.randomPostings({ propose, credential: company.ownerKey, codes, seed: 7, entryDate: today })
    })
    const rows: Array<Results.Row> = [{
      figure: `engine postings, ${concurrency} callers, ${accountCount} accounts, per s`,
      storage,
      value: `${Results.formatNumber(result.rate_per_s)}/s (p50 ${result.latency.p50_ms} ms, p99 ${result.latency.p99_ms} ms, ` +
        `failed ${result.failed}; ${result.node_cpu_us_per_call} µs of Node CPU each)`,
      target: `>= ${Results.formatNumber(target)}/s`,
      verdict: result.failed > 0 ? "missed" : Results.verdict(result.rate_per_s, target, "at least"),
      details: { ...result }
    }]
    if (storage === "postgresql" && pgbenchTps !== null) {
      const ratio = result.rate_per_s / pgbenchTps
      rows.push({
        figure: "engine postings / pgbench -N",
        storage,
        value: Results.formatNumber(ratio),
        target: ">= 0.5",
        verdict: Results.verdict(ratio, 0.5, "at least")
      })
    }
    for (const row of rows) run.add(row)
  } finally {
    await engine.close()
  }
}

run.finish()
process.exit(0)

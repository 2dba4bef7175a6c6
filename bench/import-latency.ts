/**
 * Benchmark: what a big statement import costs everyone else (issue 19 item 8). A real server
 * process (`ledger serve` on a fresh PGlite folder, or on PostgreSQL) takes a generated
 * 100,000-line CSV import over HTTP, and meanwhile `GET /health` and another company's
 * `GET /v1/bank-accounts` are each sent every 10 ms (one at a time: a late answer delays the next
 * probe rather than piling up). Printed: p50, p99 and max of each probe while the import ran, the
 * import's own seconds, and the same for a dry run of that file. Target: p99 <= 100 ms.
 */
import * as Client from "./lib/HttpClient.ts"
import * as Options from "./lib/Options.ts"
import * as Remote from "./lib/Remote.ts"
import * as Results from "./lib/Results.ts"
import * as ServerProcess from "./lib/ServerProcess.ts"
import { statement } from "./lib/Statement.ts"
import { now, Samples } from "./lib/Stats.ts"

const lineCount = Options.count(100_000, 1_000)
const probeEveryMs = 10
const targetP99Ms = 100

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Sends `spec` every `probeEveryMs` until `done()`, one at a time, and keeps each latency. */
const probe = async (baseUrl: string, spec: Client.RequestSpec, done: () => boolean): Promise<{ samples: Samples; failed: number }> => {
  const samples = new Samples()
  const agent = Client.agent(1)
  let failed = 0
  while (!done()) {
    const begin = now()
    try {
      const response = await Client.request(baseUrl, spec, { agent, timeoutMs: 120_000 })
      if (response.status !== 200) failed++
    } catch {
      failed++
    }
    const took = now() - begin
    samples.add(took)
    if (took < probeEveryMs) await sleep(probeEveryMs - took)
  }
  agent.destroy()
  return { samples, failed }
}

const run = Results.start("import-latency")
for (const storage of Options.storages) {
  const server = await ServerProcess.start(storage, { name: "import_latency" })
  try {
    const importer = await Remote.createCompany(server, { starter_chart: "general" })
    const neighbour = await Remote.createCompany(server, { starter_chart: "general" })
    const accounts = await Client.json(server.baseUrl, {
      method: "GET",
      path: "/v1/accounts?limit=1000",
      headers: Client.bearer(importer.ownerKey)
    }) as { data: Array<{ code: string; type: string; subtype: string | null; name: string }> }
    const cash = accounts.data.find((account) => account.type === "asset" && /bank|checking|cash/i.test(`${account.subtype ?? ""} ${account.name}`))
    if (cash === undefined) throw new Error("the general chart has no bank or cash account")
    const bank = await Client.json(server.baseUrl, {
      method: "POST",
      path: "/v1/bank-accounts",
      headers: Client.bearer(importer.ownerKey, { "idempotency-key": Remote.newKey("bank") }),
      body: JSON.stringify({ name: "Operating", kind: "checking", ledger_account: cash.code })
    }, [201]) as { id: number }
    const content = statement("csv", lineCount)

    for (const dryRun of [true, false]) {
      let finished = false
      const probes = Promise.all([
        probe(server.baseUrl, { method: "GET", path: "/health" }, () => finished),
        probe(server.baseUrl, { method: "GET", path: "/v1/bank-accounts", headers: Client.bearer(neighbour.ownerKey) }, () => finished)
      ])
      // Let the probes settle into their rhythm before the import starts.
      await sleep(200)
      const begin = now()
      const answer = await Client.request(server.baseUrl, {
        method: "POST",
        path: `/v1/bank-accounts/${bank.id}/imports`,
        headers: Client.bearer(importer.ownerKey, { "idempotency-key": Remote.newKey("import") }),
        body: JSON.stringify({ format: "csv", content, filename: "bench.csv", dry_run: dryRun })
      }, { timeoutMs: 600_000 })
      const seconds = (now() - begin) / 1000
      finished = true
      const [health, neighbourCalls] = await probes
      const label = `${lineCount.toLocaleString("en-US")}-line CSV ${dryRun ? "dry run" : "import"}`
      if (answer.status !== (dryRun ? 200 : 201)) {
        run.add({ figure: label, storage, value: `failed: ${answer.status} ${answer.text.slice(0, 300)}`, verdict: "missed" })
        continue
      }
      for (const [name, probed] of [["GET /health", health], ["another company's GET /v1/bank-accounts", neighbourCalls]] as const) {
        const summary = probed.samples.summary()
        run.add({
          figure: `${name} every ${probeEveryMs} ms during a ${label} (${seconds.toFixed(1)} s)`,
          storage,
          value: `p50 ${summary.p50_ms} ms, p99 ${summary.p99_ms} ms, max ${summary.max_ms} ms, ${summary.count} probes, ${probed.failed} failed`,
          target: `p99 <= ${targetP99Ms} ms`,
          verdict: Results.verdict(summary.p99_ms, targetP99Ms, "at most"),
          details: { ...summary, failed: probed.failed, import_seconds: seconds }
        })
      }
    }
  } finally {
    await server.stop()
  }
}
run.finish()
process.exit(0)

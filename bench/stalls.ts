/**
 * Benchmark: nobody stalls anybody (issue 41 item 6). A real server process (`ledger serve`'s
 * layer on a fresh PGlite folder, or on PostgreSQL with DATABASE_URL) takes each load of the
 * issue's table in turn (bench/lib/Loads.ts: a mail flood to a receipt inbox over SMTP, deflate-bomb
 * PDFs, a CSV import over the line cap, a 100,000-line CSV import, 1,500 trickling sockets, and
 * the doors' floods), and meanwhile `GET /health` and another company's `GET /v1/accounts` are each
 * sent every 10 ms, one at a time (a late answer delays the next probe rather than piling up), from
 * a process of their own (lib/stalls/Probes.ts): the load's client here would otherwise hold them.
 * Printed per load and store: the other company's p99 (and /health's), and what the load was
 * answered. Target: p99 <= 100 ms. The behaviour itself is asserted in test/reliability/stalls-*.
 * BENCH_LOADS (e.g. `mail,bombs`) runs only the loads it names; BENCH_SERVER_NODE_ARGS passes
 * flags to the server's Node (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`, lib/ServerProcess.ts).
 */
import { randomBytes } from "node:crypto"
import { monitorEventLoopDelay } from "node:perf_hooks"
import * as Client from "./lib/HttpClient.ts"
import * as Loads from "./lib/Loads.ts"
import * as Options from "./lib/Options.ts"
import * as Probes from "./lib/stalls/Probes.ts"
import * as Remote from "./lib/Remote.ts"
import * as Results from "./lib/Results.ts"
import * as ServerProcess from "./lib/ServerProcess.ts"
import { now } from "./lib/Stats.ts"

const targetP99Ms = 100
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The loading company with a bank account and an inbox that takes mail from the bench's sender. */
const prepare = async (server: ServerProcess.RunningServer, smtpPort: number): Promise<Loads.Target> => {
  const loader = await Remote.createCompany(server, { starter_chart: "general" })
  const accounts = await Client.json(server.baseUrl, { method: "GET", path: "/v1/accounts?limit=1000", headers: Client.bearer(loader.ownerKey) }) as {
    data: Array<{ code: string; type: string; subtype: string | null; name: string }>
  }
  const cash = accounts.data.find((account) => account.type === "asset" && /bank|checking|cash/i.test(`${account.subtype ?? ""} ${account.name}`))
  const bank = await Client.json(server.baseUrl, {
    method: "POST",
    path: "/v1/bank-accounts",
    headers: Client.bearer(loader.ownerKey, { "idempotency-key": Remote.newKey("bank") }),
    body: JSON.stringify({ name: "Operating", kind: "checking", ledger_account: cash!.code })
  }, [201]) as { id: number }
  await Client.json(server.baseUrl, {
    method: "POST",
    path: "/v1/receipts/inbox",
    headers: Client.bearer(loader.ownerKey, { "idempotency-key": Remote.newKey("inbox") }),
    body: JSON.stringify({ allowed_senders: ["@vendor.example"] })
  })
  const inbox = await Client.json(server.baseUrl, { method: "GET", path: "/v1/receipts/inbox", headers: Client.bearer(loader.ownerKey) }) as { address: string }
  return { server, smtpPort, ownerKey: loader.ownerKey, bankAccountId: bank.id, inbox: inbox.address }
}

// BENCH_LOADS=mail,bombs runs only those loads (keys in lib/Loads.ts), after the idle baseline.
const chosen = Loads.selected(process.env.BENCH_LOADS)
const run = Results.start("stalls")
for (const storage of Options.storages) {
  // The server process takes its environment from this one's (lib/ServerProcess.ts): the inbox's listener, trusting the bench's authentication results.
  const smtpPort = await ServerProcess.freePort()
  process.env.LEDGER_INBOUND_SMTP_PORT = String(smtpPort)
  process.env.LEDGER_INBOUND_AUTHSERV_ID = "mx.bench.test"
  // Receipts are stored sealed: on PostgreSQL a deployment's master key is required.
  process.env.LEDGER_MASTER_KEY ??= randomBytes(32).toString("base64")
  const server = await ServerProcess.start(storage, { name: "stalls" })
  try {
    const target = await prepare(server, smtpPort)
    const neighbour = await Remote.createCompany(server, { starter_chart: "general" })
    const loads: ReadonlyArray<Loads.Load> = [{ key: "idle", name: "idle (no load, 3 s)", run: async () => (await sleep(3_000), "nothing") }, ...chosen]
    for (const load of loads) {
      await load.prepare?.()
      // This process's own event-loop delay while the load runs (the load's client): the probes no
      // longer run here, so it is shown only to tell how hard the client itself worked.
      const ownDelay = monitorEventLoopDelay({ resolution: 5 })
      ownDelay.enable()
      // In a process of their own (lib/stalls/Probes.ts), so this one's work for the load is not counted as the server's.
      const probes = await Probes.start(server.baseUrl, neighbour.ownerKey)
      await sleep(200)
      const begin = now()
      const outcome = await load.run(target).catch((error: Error) => `failed: ${error.message}`)
      const seconds = (now() - begin) / 1000
      const { health, other } = await probes.stop()
      ownDelay.disable()
      const own = { p99_ms: Math.round(ownDelay.percentile(99) / 1e5) / 10, max_ms: Math.round(ownDelay.max / 1e5) / 10 }
      const otherSummary = other.samples.summary()
      const healthSummary = health.samples.summary()
      run.add({
        figure: `${load.name} (${seconds.toFixed(1)} s): another company's p99`,
        storage,
        value: `p99 ${otherSummary.p99_ms} ms, max ${otherSummary.max_ms} ms, ${otherSummary.count} probes, ${other.failed} failed; ` +
          `/health p99 ${healthSummary.p99_ms} ms, max ${healthSummary.max_ms} ms; bench's own loop delay p99 ${own.p99_ms} ms, max ${own.max_ms} ms; load: ${outcome}`,
        target: `p99 <= ${targetP99Ms} ms`,
        verdict: Results.verdict(Math.max(otherSummary.p99_ms, healthSummary.p99_ms), targetP99Ms, "at most"),
        details: { other: otherSummary, health: healthSummary, bench_loop_delay: own, other_failed: other.failed, health_failed: health.failed, load_seconds: seconds, outcome }
      })
    }
  } finally {
    await server.stop()
  }
}
run.finish()
process.exit(0)

/**
 * Issue 43 item 5: HTTP posting throughput of the real `ledger serve --processes N` at 1, 2 and 4
 * processes on one PostgreSQL (embedded PGlite is one process only). Each N gets a fresh database,
 * a company with 1,000 accounts, a warm-up, then a closed loop of two-line postings on 32
 * keep-alive connections (node:cluster hands connections to the processes in turn).
 * BENCH_PROCESSES=1,2,4 chooses the counts.
 */
import { execFileSync } from "node:child_process"
import os from "node:os"
import * as Client from "../lib/HttpClient.ts"
import * as OpenLoop from "../lib/OpenLoop.ts"
import * as Options from "../lib/Options.ts"
import * as Postings from "../lib/Postings.ts"
import * as Remote from "../lib/Remote.ts"
import * as Results from "../lib/Results.ts"
import * as ServerProcess from "../lib/ServerProcess.ts"

const run = Results.start("processes")
const today = new Date().toISOString().slice(0, 10)
const accountCount = 1_000
const connections = 32
const counts = (process.env.BENCH_PROCESSES ?? "1,2,4").split(",").map(Number).filter((count) => Number.isInteger(count) && count >= 1)

const psql = (sql: string) => execFileSync("psql", [Options.databaseUrl, "-qAtXc", sql], { stdio: "ignore", timeout: 120_000 })

/** `ledger serve --processes N` on a database of its own, healthy once every process listens. */
const startServer = async (count: number): Promise<ServerProcess.RunningServer & { readonly drop: () => void }> => {
  const database = `bench_processes_${process.pid}_${count}_${Date.now().toString(36)}`
  psql(`CREATE DATABASE ${database}`)
  const url = new URL(Options.databaseUrl)
  url.pathname = `/${database}`
  const port = await ServerProcess.freePort()
  const operatorToken = `bench-operator-${Math.random().toString(36).slice(2)}`
  const server = ServerProcess.spawnCollecting(process.execPath, ["packages/server/bin/ledger.mjs", "serve", "--processes", String(count)], {
    ...process.env as Record<string, string>,
    DATABASE_URL: url.toString(),
    PORT: String(port),
    HOST: Options.loopback,
    LEDGER_OPERATOR_TOKEN: operatorToken,
    LEDGER_RATE_LIMITS: "off",
    LEDGER_WORKERS: "off",
    LEDGER_ACCESS_LOG: "off",
    // Postings use no heavy work; N pools of worker threads compiling at start on a small machine
    // only slow the start (each process has its own pool: docs/operations.md, Scaling).
    LEDGER_WORKER_THREADS: "0"
  })
  const drop = () => psql(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)
  const stop = async () => {
    if (server.child.exitCode === null) server.child.kill("SIGTERM")
    await Promise.race([server.exited, new Promise((resolve) => setTimeout(resolve, 30_000))])
    if (server.child.exitCode === null) server.child.kill("SIGKILL")
    drop()
  }
  const deadline = Date.now() + 300_000
  const listening = () => (server.output().match(/Ledger listening on /g) ?? []).length
  while (listening() < count) {
    if (server.child.exitCode !== null || Date.now() > deadline) {
      await stop()
      throw new Error(`ledger serve --processes ${count} did not start:\n${server.output()}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  const baseUrl = `http://${Options.loopback}:${port}`
  return { baseUrl, port, pid: server.child.pid!, storage: "postgresql", operatorToken, output: server.output, stop, drop }
}

// Embedded PGlite is one process only: nothing to measure without PostgreSQL.
for (const count of Options.storages.includes("postgresql") ? counts : []) {
  const server = await startServer(count)
  try {
    const company = await Remote.createCompany(server, { starter_chart: "empty" })
    const auth = Client.bearer(company.ownerKey)
    const codes = Array.from({ length: accountCount }, (_, index) => Postings.accountCode(index))
    for (let start = 0; start < codes.length; start += 16) {
      await Promise.all(codes.slice(start, start + 16).map((code, offset) =>
        Client.json(server.baseUrl, {
          method: "POST",
          path: "/v1/accounts",
          headers: { ...auth, "idempotency-key": Remote.newKey("account") },
          body: JSON.stringify({ code, name: `Bench account ${start + offset}`, type: (start + offset) % 2 === 0 ? "asset" : "expense" })
        }, [201])))
    }
    const draw = Postings.random(11)
    const request = (): Client.RequestSpec => {
      const debit = draw(codes.length)
      const credit = (debit + 1 + draw(codes.length - 1)) % codes.length
      return {
        method: "POST",
        path: "/v1/journal-entries/propose",
        headers: { ...auth, "idempotency-key": Remote.newKey("post") },
        body: JSON.stringify(Postings.twoLineEntry(codes[debit]!, codes[credit]!, 1 + draw(100_000), today))
      }
    }
    // Every process compiles its hot paths during the warm-up, not the measure.
    await OpenLoop.closedLoop({ baseUrl: server.baseUrl, concurrency: connections, durationSeconds: Options.seconds(10, 3), request })
    const load = os.loadavg()[0]!
    const measured = await OpenLoop.closedLoop({ baseUrl: server.baseUrl, concurrency: connections, durationSeconds: Options.seconds(30, 5), request })
    run.add({
      figure: `POST /v1/journal-entries/propose, ${count} process${count === 1 ? "" : "es"}, ${connections} connections closed loop`,
      storage: "postgresql",
      value: `${Results.formatNumber(measured.rate_per_s)}/s (p99 ${measured.latency.p99_ms} ms, failed ${measured.failed}, load average ${load.toFixed(1)})`,
      details: { ...measured, processes: count, load_average_1m: load, cores: os.availableParallelism() }
    })
  } finally {
    await server.stop()
  }
}

run.note(`the load generator runs in the benchmark process on the same ${os.availableParallelism()} cores as the servers and PostgreSQL`)
run.finish()
process.exit(0)

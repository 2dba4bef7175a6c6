/**
 * `pnpm bench reads-interleaved`: the server CPU per `GET /v1/accounts?include_balances=true`,
 * measured interleaved across variants so a shared machine's load falls on all of them alike:
 * every variant's server runs at once (idle when not measured), and each round measures each in
 * turn, 16 connections closed loop; the figure is the median over rounds.
 *
 * Variants: this checkout; this checkout with the access log off (LEDGER_ACCESS_LOG=off); and, with
 * BENCH_BASELINE=<a checkout, e.g. /work/main>, that checkout's server (its bench/lib/serve.ts) on
 * the same data. BENCH_ROUNDS (default 5), BENCH_WINDOW_SECONDS (default 5), BENCH_STORAGE.
 */
import * as Client from "../lib/HttpClient.ts"
import * as Machine from "../lib/Machine.ts"
import * as OpenLoop from "../lib/OpenLoop.ts"
import * as Options from "../lib/Options.ts"
import * as Postings from "../lib/Postings.ts"
import * as Remote from "../lib/Remote.ts"
import * as Results from "../lib/Results.ts"
import * as ServerProcess from "../lib/ServerProcess.ts"

const run = Results.start("reads-interleaved")
const rounds = Number(process.env.BENCH_ROUNDS ?? 5)
const windowSeconds = Number(process.env.BENCH_WINDOW_SECONDS ?? 5)
const baseline = process.env.BENCH_BASELINE
const today = new Date().toISOString().slice(0, 10)
const median = (values: ReadonlyArray<number>) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted.length === 0 ? NaN : sorted.length % 2 === 1 ? sorted[(sorted.length - 1) / 2]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2
}

const variants: ReadonlyArray<{ readonly label: string; readonly environment?: Record<string, string>; readonly workspace?: string }> = [
  ...(baseline === undefined || baseline === "" ? [] : [{ label: `baseline (${baseline})`, workspace: baseline }]),
  { label: "this checkout" },
  { label: "this checkout, LEDGER_ACCESS_LOG=off", environment: { LEDGER_ACCESS_LOG: "off" } }
]

/** A company with 200 accounts and 400 postings on them, so the balances read sums real totals. */
const prepare = async (server: ServerProcess.RunningServer) => {
  const company = await Remote.createCompany(server, { starter_chart: "empty" })
  const auth = Client.bearer(company.ownerKey)
  const codes = Array.from({ length: 200 }, (_, index) => Postings.accountCode(index))
  for (let start = 0; start < codes.length; start += 16) {
    await Promise.all(codes.slice(start, start + 16).map((code, offset) => Client.json(server.baseUrl, {
      method: "POST",
      path: "/v1/accounts",
      headers: { ...auth, "idempotency-key": Remote.newKey("account") },
      body: JSON.stringify({ code, name: `Bench account ${start + offset}`, type: (start + offset) % 2 === 0 ? "asset" : "expense" })
    }, [201])))
  }
  const draw = Postings.random(7)
  for (let start = 0; start < 400; start += 16) {
    await Promise.all(Array.from({ length: 16 }, () => {
      const debit = draw(codes.length)
      const credit = (debit + 1 + draw(codes.length - 1)) % codes.length
      return Client.json(server.baseUrl, {
        method: "POST",
        path: "/v1/journal-entries/propose",
        headers: { ...auth, "idempotency-key": Remote.newKey("post") },
        body: JSON.stringify(Postings.twoLineEntry(codes[debit]!, codes[credit]!, 1 + draw(100_000), today))
      }, [201])
    }))
  }
  return auth
}

for (const storage of Options.storages) {
  const servers: Array<{ readonly label: string; readonly server: ServerProcess.RunningServer; readonly auth: Record<string, string>; readonly cpu: Array<number>; readonly rate: Array<number> }> = []
  try {
    for (const variant of variants) {
      const server = await ServerProcess.start(storage, {
        name: "reads_interleaved",
        ...(variant.environment === undefined ? {} : { environment: variant.environment }),
        ...(variant.workspace === undefined ? {} : { workspace: variant.workspace })
      })
      servers.push({ label: variant.label, server, auth: {}, cpu: [], rate: [] })
      Object.assign(servers.at(-1)!.auth, await prepare(server))
    }
    for (let round = 0; round < rounds; round++) {
      for (const entry of servers) {
        const request = () => ({ method: "GET" as const, path: "/v1/accounts?include_balances=true", headers: entry.auth })
        await OpenLoop.closedLoop({ baseUrl: entry.server.baseUrl, concurrency: 16, durationSeconds: 1, request })
        const before = Machine.cpuSeconds(entry.server.pid)
        const result = await OpenLoop.closedLoop({ baseUrl: entry.server.baseUrl, concurrency: 16, durationSeconds: windowSeconds, request })
        const after = Machine.cpuSeconds(entry.server.pid)
        if (result.failed > 0) throw new Error(`${entry.label}: ${result.failed} reads failed`)
        if (before !== null && after !== null) entry.cpu.push(((after - before) * 1e6) / result.succeeded)
        entry.rate.push(result.rate_per_s)
      }
    }
    for (const entry of servers) {
      run.add({
        figure: `GET /v1/accounts?include_balances=true (200 accounts), ${entry.label}: server CPU per read, median of ${rounds} interleaved rounds`,
        storage,
        value: `${Math.round(median(entry.cpu))} µs (rounds ${entry.cpu.map(Math.round).join(", ")}; ${Results.formatNumber(median(entry.rate))}/s median, shared machine)`,
        details: { cpu_per_read_us: entry.cpu, rate_per_s: entry.rate }
      })
    }
  } finally {
    for (const entry of servers) await entry.server.stop()
  }
}

run.note("CPU per read is the server process's user+system time over the reads answered in a window; throughput on a shared machine is not comparable, CPU per read is")
run.finish()
process.exit(0)

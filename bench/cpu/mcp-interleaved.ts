/**
 * `pnpm bench mcp-interleaved`: the server CPU per MCP posting (`tools/call propose_journal_entry`
 * on `/mcp`), measured interleaved across checkouts so a shared machine's load falls on all alike:
 * every variant's server runs at once (idle when not measured), and each round measures each in
 * turn, 16 connections closed loop; the figure is the median over rounds (issue 43 item 2).
 *
 * Variants: this checkout and, with BENCH_BASELINE=<a checkout, e.g. /work/main>, that checkout's
 * server (its bench/lib/serve.ts). BENCH_ROUNDS (default 5), BENCH_WINDOW_SECONDS (default 5), BENCH_STORAGE.
 */
import os from "node:os"
import * as Client from "../lib/HttpClient.ts"
import * as Machine from "../lib/Machine.ts"
import * as OpenLoop from "../lib/OpenLoop.ts"
import * as Options from "../lib/Options.ts"
import * as Postings from "../lib/Postings.ts"
import * as Remote from "../lib/Remote.ts"
import * as Results from "../lib/Results.ts"
import * as ServerProcess from "../lib/ServerProcess.ts"

const run = Results.start("mcp-interleaved")
const rounds = Number(process.env.BENCH_ROUNDS ?? 5)
const windowSeconds = Number(process.env.BENCH_WINDOW_SECONDS ?? 5)
const baseline = process.env.BENCH_BASELINE
const today = new Date().toISOString().slice(0, 10)
const median = (values: ReadonlyArray<number>) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted.length === 0 ? NaN : sorted.length % 2 === 1 ? sorted[(sorted.length - 1) / 2]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2
}

const variants: ReadonlyArray<{ readonly label: string; readonly workspace?: string }> = [
  ...(baseline === undefined || baseline === "" ? [] : [{ label: `baseline (${baseline})`, workspace: baseline }]),
  { label: "this checkout" }
]

/** A company with 200 accounts, and the tool call that posts between two of them at random. */
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
  const draw = Postings.random(43)
  let id = 0
  return (): Client.RequestSpec => {
    const debit = draw(codes.length)
    const credit = (debit + 1 + draw(codes.length - 1)) % codes.length
    const entry = Postings.twoLineEntry(codes[debit]!, codes[credit]!, 1 + draw(100_000), today)
    return Remote.toolCall(company.ownerKey, ++id, "propose_journal_entry", { ...entry, idempotency_key: Remote.newKey("mcp") })
  }
}

for (const storage of Options.storages) {
  const servers: Array<{ readonly label: string; readonly server: ServerProcess.RunningServer; readonly request: () => Client.RequestSpec; readonly cpu: Array<number>; readonly rate: Array<number> }> = []
  const load: Array<number> = []
  try {
    for (const variant of variants) {
      const server = await ServerProcess.start(storage, {
        name: "mcp_interleaved",
        ...(variant.workspace === undefined ? {} : { workspace: variant.workspace })
      })
      servers.push({ label: variant.label, server, request: () => { throw new Error("not prepared") }, cpu: [], rate: [] })
      Object.assign(servers.at(-1)!, { request: await prepare(server) })
    }
    for (let round = 0; round < rounds; round++) {
      load.push(os.loadavg()[0]!)
      for (const entry of servers) {
        const options = { baseUrl: entry.server.baseUrl, concurrency: 16, request: entry.request, isSuccess: Remote.toolSucceeded }
        await OpenLoop.closedLoop({ ...options, durationSeconds: 1 })
        const before = Machine.cpuSeconds(entry.server.pid)
        const result = await OpenLoop.closedLoop({ ...options, durationSeconds: windowSeconds })
        const after = Machine.cpuSeconds(entry.server.pid)
        if (result.failed > 0) throw new Error(`${entry.label}: ${result.failed} MCP postings failed`)
        if (before !== null && after !== null) entry.cpu.push(((after - before) * 1e6) / result.succeeded)
        entry.rate.push(result.rate_per_s)
      }
    }
    for (const entry of servers) {
      run.add({
        figure: `MCP tools/call propose_journal_entry, ${entry.label}: server CPU per posting, median of ${rounds} interleaved rounds`,
        storage,
        value: `${Math.round(median(entry.cpu))} µs (rounds ${entry.cpu.map(Math.round).join(", ")}; ${Results.formatNumber(median(entry.rate))}/s median, shared machine)`,
        details: { cpu_per_posting_us: entry.cpu, rate_per_s: entry.rate, load_average_1m: load }
      })
    }
  } finally {
    for (const entry of servers) await entry.server.stop()
  }
  run.note(`${storage}: 1-minute load average at each round's start: ${load.map((value) => value.toFixed(1)).join(", ")}`)
}

run.note("CPU per posting is the server process's user+system time over the postings answered in a window; throughput on a shared machine is not comparable, CPU per posting is")
run.finish()
process.exit(0)

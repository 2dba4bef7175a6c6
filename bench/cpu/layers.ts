/**
 * `pnpm bench layers`: where a request's CPU goes, by layer (issue 43 item 1). Against a real server
 * process it runs three loads, 16 connections closed loop: a posting over HTTP
 * (`POST /v1/journal-entries/propose`), the same posting over MCP (`tools/call
 * propose_journal_entry`) and a balances read (`GET /v1/accounts?include_balances=true`). Each load
 * runs twice: unprofiled, for the server's CPU time per request (from /proc), then under V8's CPU
 * profiler (bench/lib/serve.ts, BENCH_PROFILE_DIR), whose samples bench/cpu/ProfileLayers.ts sums by layer.
 *
 * On a shared machine the throughput printed here says little; the CPU per request and the shares
 * by layer are what to read. Summaries go to bench/results/profiles/ (the raw profiles too, gzipped).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { gzipSync } from "node:zlib"
import * as Client from "../lib/HttpClient.ts"
import * as Layers from "./ProfileLayers.ts"
import * as Machine from "../lib/Machine.ts"
import * as OpenLoop from "../lib/OpenLoop.ts"
import * as Options from "../lib/Options.ts"
import * as Postings from "../lib/Postings.ts"
import * as Remote from "../lib/Remote.ts"
import * as Results from "../lib/Results.ts"
import * as ServerProcess from "../lib/ServerProcess.ts"

const run = Results.start("layers")
const today = new Date().toISOString().slice(0, 10)
const accountCount = Number(process.env.BENCH_LAYERS_ACCOUNTS ?? 200)
const output = path.join(Results.resultsDirectory, "profiles")
mkdirSync(output, { recursive: true })
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Sends SIGUSR2 to the server and waits for the line it prints when done (lib/serve.ts). */
const toggle = async (server: ServerProcess.RunningServer, line: RegExp, seen: number): Promise<string> => {
  process.kill(server.pid, "SIGUSR2")
  const deadline = Date.now() + 60_000
  for (;;) {
    const matches = [...server.output().matchAll(new RegExp(line, "g"))]
    if (matches.length > seen) return matches[seen]![1] ?? ""
    if (Date.now() > deadline) throw new Error(`the server did not print ${line}:\n${server.output().slice(-2000)}`)
    await sleep(50)
  }
}

for (const storage of Options.storages) {
  const folder = mkdtempSync(path.join(os.tmpdir(), "ledger-bench-profiles-"))
  const server = await ServerProcess.start(storage, { name: "layers", maxConnections: 20, environment: { BENCH_PROFILE_DIR: folder } })
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
    const draw = Postings.random(43)
    const entry = () => {
      const debit = draw(codes.length)
      const credit = (debit + 1 + draw(codes.length - 1)) % codes.length
      return Postings.twoLineEntry(codes[debit]!, codes[credit]!, 1 + draw(100_000), today)
    }
    let id = 0
    const loads: ReadonlyArray<{ name: string; title: string; request: () => Client.RequestSpec; isSuccess?: (status: number, text: string) => boolean }> = [
      {
        name: "http-posting",
        title: "POST /v1/journal-entries/propose over HTTP",
        request: () => ({
          method: "POST",
          path: "/v1/journal-entries/propose",
          headers: { ...auth, "idempotency-key": Remote.newKey("post") },
          body: JSON.stringify(entry())
        })
      },
      {
        name: "mcp-posting",
        title: "MCP tools/call propose_journal_entry",
        request: () => Remote.toolCall(company.ownerKey, ++id, "propose_journal_entry", { ...entry(), idempotency_key: Remote.newKey("mcp") }),
        isSuccess: Remote.toolSucceeded
      },
      {
        name: "http-balances",
        title: "GET /v1/accounts?include_balances=true over HTTP",
        request: () => ({ method: "GET", path: "/v1/accounts?include_balances=true", headers: auth })
      }
    ]
    let profiles = 0
    for (const load of loads) {
      const options = { baseUrl: server.baseUrl, concurrency: 16, request: load.request, ...(load.isSuccess === undefined ? {} : { isSuccess: load.isSuccess }) }
      await OpenLoop.closedLoop({ ...options, durationSeconds: Options.seconds(3, 1) })
      const before = Machine.cpuSeconds(server.pid)
      const plain = await OpenLoop.closedLoop({ ...options, durationSeconds: Options.seconds(10, 3) })
      const after = Machine.cpuSeconds(server.pid)
      const answered = plain.succeeded + plain.failed
      const cpuPerRequestUs = before === null || after === null || answered === 0 ? null : ((after - before) * 1e6) / answered
      await toggle(server, /PROFILE started/, profiles)
      const profiled = await OpenLoop.closedLoop({ ...options, durationSeconds: Options.seconds(10, 3) })
      const file = await toggle(server, /PROFILE written (\S+)/, profiles++)
      const raw = readFileSync(file)
      const summary = Layers.summarise(JSON.parse(raw.toString("utf8")) as Layers.CpuProfile)
      const text = Layers.format(`${load.title} (${storage})`, summary, cpuPerRequestUs)
      writeFileSync(path.join(output, `${load.name}-${storage}.md`), text)
      writeFileSync(path.join(output, `${load.name}-${storage}.cpuprofile.gz`), gzipSync(raw))
      process.stdout.write(`\n${text}\n`)
      const layers = summary.layers.filter((row) => row.share >= 1)
        .map((row) => `${row.layer} ${cpuPerRequestUs === null ? `${row.share}%` : `${Math.round((cpuPerRequestUs * row.share) / 100)} µs`}`)
      run.add({
        figure: `${load.title}: server CPU per request, and by layer`,
        storage,
        value: `${cpuPerRequestUs === null ? "unknown" : `${Math.round(cpuPerRequestUs)} µs`} (failed ${plain.failed + profiled.failed}): ${layers.join(", ")}`,
        details: { cpu_per_request_us: cpuPerRequestUs, rate_per_s: plain.rate_per_s, failed: plain.failed, profiled_failed: profiled.failed, layers: summary.layers, top: summary.top }
      })
    }
  } finally {
    await server.stop()
    rmSync(folder, { recursive: true, force: true })
  }
}

run.note("CPU per request is the server process's user+system time over the answers of an unprofiled 16-connection window; on a shared machine throughput is not comparable, CPU per request is")
run.note("layers: self time of each function, by its source path; a library's time counts in its nearest caller's layer (bench/cpu/ProfileLayers.ts)")
run.finish()
process.exit(0)

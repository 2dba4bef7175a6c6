/**
 * `ledger serve` on embedded PGlite in a memory-limited cgroup, as in a container with `--memory`:
 * which WebAssembly compiler `LEDGER_PGLITE_WASM=auto` chose, and whether a 100,000-line OFX
 * import over HTTP survives, against the optimizing tier forced in the same limit
 * (docs/decisions/0716-pglite-wasm-chosen-by-memory.md). Not part of `pnpm bench`'s default run:
 * it needs root to make the cgroup, and skips without. `pnpm bench memory-limit`;
 * BENCH_MEMORY_LIMITS_MB (default "768,1024") sets the limits tried.
 */
import { mkdtempSync, rmSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { fileURLToPath } from "node:url"
import * as Cgroup from "./lib/Cgroup.ts"
import * as Client from "./lib/HttpClient.ts"
import * as Machine from "./lib/Machine.ts"
import * as Options from "./lib/Options.ts"
import { newKey } from "./lib/Remote.ts"
import { freePort, spawnCollecting } from "./lib/ServerProcess.ts"
import * as Results from "./lib/Results.ts"
import { now } from "./lib/Stats.ts"
import { statement } from "./lib/Statement.ts"

const ledger = fileURLToPath(new URL("../packages/server/bin/ledger.mjs", import.meta.url))
const lineCount = Options.count(100_000, 1_000)
const limitsMb = (process.env.BENCH_MEMORY_LIMITS_MB ?? "768,1024").split(",").map(Number)
const settings = ["auto", "optimizing"] as const

interface Outcome {
  readonly start_line: string
  readonly import_status: number | "killed" | "refused"
  readonly seconds: number | null
  readonly rss_peak_mb: number | null
  readonly oom_kills: number
}

/** `ledger serve` inside the group: the shell moves itself into it, then becomes the server, so nothing runs outside the limit. */
const serveInGroup = (group: Cgroup.Cgroup, setting: (typeof settings)[number], dataFolder: string, port: number, operatorToken: string) => {
  const environment: Record<string, string> = { ...process.env as Record<string, string> }
  delete environment.DATABASE_URL
  Object.assign(environment, {
    PORT: String(port),
    HOST: Options.loopback,
    LEDGER_DATA_DIR: dataFolder,
    LEDGER_OPERATOR_TOKEN: operatorToken,
    LEDGER_RATE_LIMITS: "off",
    LEDGER_WORKERS: "off",
    LEDGER_PGLITE_WASM: setting
  })
  return spawnCollecting(
    "sh",
    ["-c", `echo $$ > ${group.procsFile} && exec "$0" "$@"`, process.execPath, ledger, "serve"],
    environment
  )
}

/** A company with a bank account, then the OFX statement imported over HTTP: its answer (null when none came) and seconds. */
const importStatement = async (baseUrl: string, operatorToken: string) => {
  const company = await Client.json(baseUrl, {
    method: "POST",
    path: "/v1/companies",
    headers: Client.bearer(operatorToken, { "idempotency-key": newKey("company") }),
    body: JSON.stringify({ name: "Memory Co", owner_name: "Owner", starter_chart: "general" })
  }, [201])
  const ownerKey: string = company.secret
  const accounts = await Client.json(baseUrl, { method: "GET", path: "/v1/accounts?limit=1000", headers: Client.bearer(ownerKey) })
  const cash = (accounts.data as Array<{ code: string; type: string; subtype: string | null; name: string }>)
    .find((account) => account.type === "asset" && /bank|checking|cash/i.test(`${account.subtype ?? ""} ${account.name}`))
  if (cash === undefined) throw new Error("the general chart has no bank or cash account")
  const bank = await Client.json(baseUrl, {
    method: "POST",
    path: "/v1/bank-accounts",
    headers: Client.bearer(ownerKey, { "idempotency-key": newKey("bank") }),
    body: JSON.stringify({ name: "Operating", kind: "checking", ledger_account: cash.code })
  }, [201])
  const body = JSON.stringify({ format: "ofx", content: statement("ofx", lineCount), filename: "bench.ofx" })
  const begin = now()
  const imported = await Client.request(baseUrl, {
    method: "POST",
    path: `/v1/bank-accounts/${bank.id}/imports`,
    headers: Client.bearer(ownerKey, { "idempotency-key": newKey("import") }),
    body
  }, { timeoutMs: 300_000 }).catch(() => null)
  return { imported, seconds: (now() - begin) / 1000 }
}

const runOne = async (limitMb: number, setting: (typeof settings)[number]): Promise<Outcome | null> => {
  const group = Cgroup.create(`ledger-bench-${process.pid}-${limitMb}-${setting}`, limitMb * 1024 * 1024)
  if (group === null) return null
  const dataFolder = mkdtempSync(path.join(os.tmpdir(), "ledger-bench-memory-limit-"))
  const port = await freePort()
  const operatorToken = `bench-operator-${Math.random().toString(36).slice(2)}`
  const { child, output, exited } = serveInGroup(group, setting, dataFolder, port, operatorToken)
  const baseUrl = `http://${Options.loopback}:${port}`
  const dead = () => child.exitCode !== null || child.signalCode !== null
  let peak: number | null = null
  const watch = setInterval(() => {
    const value = Machine.peakRssMb(child.pid!)
    if (value !== null) peak = value
  }, 50)
  try {
    for (const deadline = Date.now() + 120_000; ;) {
      if (dead()) return { start_line: "", import_status: "killed", seconds: null, rss_peak_mb: peak, oom_kills: group.oomKills() }
      const health = await Client.request(baseUrl, { method: "GET", path: "/health" }).catch(() => null)
      if (health?.status === 200) break
      if (Date.now() > deadline) throw new Error(`ledger serve did not start:\n${output()}`)
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    const startLine = output().split("\n").find((line) => line.startsWith("Ledger listening")) ?? ""
    const { imported, seconds } = await importStatement(baseUrl, operatorToken)
    const status = imported === null ? (dead() ? "killed" : "refused") : imported.status
    return { start_line: startLine, import_status: status, seconds: status === 201 ? seconds : null, rss_peak_mb: peak, oom_kills: group.oomKills() }
  } finally {
    clearInterval(watch)
    if (!dead()) child.kill("SIGTERM")
    await exited
    rmSync(dataFolder, { recursive: true, force: true })
    group.remove()
  }
}

const run = Results.start("memory-limit", null)
for (const limitMb of limitsMb) {
  for (const setting of settings) {
    const figure = `ledger serve on PGlite in ${limitMb} MiB, LEDGER_PGLITE_WASM=${setting}: ${lineCount.toLocaleString("en-US")}-line OFX import over HTTP`
    const outcome = await runOne(limitMb, setting)
    if (outcome === null) {
      run.add({ figure, storage: "pglite", value: "skipped: no writable cgroup (needs root)", verdict: "skipped" })
      continue
    }
    const chose = /with embedded PGlite \(.*?; (.*)\)$/.exec(outcome.start_line)?.[1] ?? "(no start line)"
    run.add({
      figure,
      storage: "pglite",
      value: outcome.import_status === 201
        ? `imported in ${outcome.seconds!.toFixed(2)} s, peak RSS ${outcome.rss_peak_mb} MB, OOM kills ${outcome.oom_kills}; ${chose}`
        : `FAILED (${outcome.import_status}), peak RSS ${outcome.rss_peak_mb} MB, OOM kills ${outcome.oom_kills}; ${chose}`,
      details: { ...outcome }
    })
  }
}
run.note("the peak is the server process's VmHWM, sampled every 50 ms; the cgroup also charges the page cache of PGlite's folder, which the kernel reclaims before it kills")
run.finish()
process.exit(0)

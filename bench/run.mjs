#!/usr/bin/env node
// `pnpm bench` runs every benchmark; `pnpm bench <name> [<name>...]` runs those. Each runs in its own
// Node process (so one's heap, JIT and peak memory do not colour the next), prints its table, and
// writes bench/results/<name>.json; this script then prints every table it ran, one after another.
// Environment: BENCH_TIME_SCALE (or BENCH_QUICK=1), BENCH_STORAGE, DATABASE_URL: see bench/README.md.
import { spawnSync } from "node:child_process"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"

const here = fileURLToPath(new URL(".", import.meta.url))
// In the order of the issue, the long ones last but one so a quick look comes first.
const all = ["engine-postings", "hot-account", "http", "processes", "mcp", "mcp-month-end", "reports", "import", "import-latency", "storage", "replay", "webhooks", "stalls"]
// Run only when named: memory-limit needs root to make its cgroups (bench/memory-limit.ts); layers
// profiles the server (bench/cpu/layers.ts), which slows what it measures; reads-interleaved compares
// checkouts (bench/cpu/reads-interleaved.ts), and mcp-interleaved their MCP postings (bench/cpu/mcp-interleaved.ts).
const onRequest = ["memory-limit", "pglite-worker", "layers", "reads-interleaved", "mcp-interleaved"]
const requested = process.argv.slice(2).filter((argument) => argument !== "--")
const unknown = requested.filter((name) => !all.includes(name) && !onRequest.includes(name))
if (unknown.length > 0) {
  process.stderr.write(`unknown benchmark ${unknown.join(", ")}; known: ${[...all, ...onRequest].join(", ")}\n`)
  process.exit(2)
}
const names = requested.length === 0 ? all : requested
// A benchmark is bench/<name>.ts or bench/<subject>/<name>.ts (bench/cpu/: profiles and CPU per request).
const folders = ["", ...readdirSync(here, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !["lib", "results", "sql"].includes(entry.name))
  .map((entry) => `${entry.name}/`)]
const scriptOf = (name) => folders.map((folder) => `${here}${folder}${name}.ts`).find((file) => existsSync(file))
const started = Date.now()
const failed = []
for (const name of names) {
  const result = spawnSync(process.execPath, ["--import", "tsx", scriptOf(name)], {
    stdio: "inherit",
    env: process.env,
    // A benchmark that hangs must not hold the whole run: each has its own budget.
    timeout: 20 * 60_000
  })
  if (result.status !== 0) failed.push(`${name} (${result.signal ?? `exit ${result.status}`})`)
}

process.stdout.write(`\n== summary (${Math.round((Date.now() - started) / 1000)} s)\n`)
for (const name of names) {
  const file = `${here}results/${name}.json`
  if (!existsSync(file)) continue
  const report = JSON.parse(readFileSync(file, "utf8"))
  if (Date.parse(report.started_at) < started) continue
  for (const row of report.rows) {
    const target = row.target ? `  [target ${row.target}: ${row.verdict}]` : ""
    process.stdout.write(`${name.padEnd(16)} ${row.storage.padEnd(10)} ${row.figure}: ${row.value}${target}\n`)
  }
  if (report.sharing.shared) process.stdout.write(`${name.padEnd(16)} (machine shared with other test runs during this benchmark)\n`)
}
if (failed.length > 0) {
  process.stdout.write(`\nfailed: ${failed.join(", ")}\n`)
  process.exit(1)
}

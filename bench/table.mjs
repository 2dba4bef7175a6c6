#!/usr/bin/env node
// Prints the latest results (bench/results/<name>.json) as one Markdown table, for docs/performance.md.
import { existsSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"

const results = fileURLToPath(new URL("results/", import.meta.url))
const names = ["engine-postings", "hot-account", "http", "mcp", "reports", "import", "storage", "replay"]
const cell = (text) => String(text ?? "").replace(/\|/g, "\\|")
process.stdout.write("| benchmark | figure | storage | value | target | verdict | machine during the run |\n|---|---|---|---|---|---|---|\n")
for (const name of names) {
  const file = `${results}${name}.json`
  if (!existsSync(file)) continue
  const report = JSON.parse(readFileSync(file, "utf8"))
  const machine = `${report.sharing.shared ? "shared" : "not visibly shared"}: up to ${report.sharing.foreign_test_processes_max} other test processes, ` +
    `CPU ${Math.round(report.sharing.machine_cpu_busy * 100)} % busy, load ${report.machine.load_average_at_start[0]} at start (${report.started_at.slice(0, 16)}Z)`
  for (const row of report.rows) {
    process.stdout.write(`| ${name} | ${cell(row.figure)} | ${row.storage} | ${cell(row.value)} | ${cell(row.target)} | ${row.verdict ?? ""} | ${cell(machine)} |\n`)
  }
}

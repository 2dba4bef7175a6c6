/**
 * How long a test ledger takes to be ready: `tsx packages/testkit/scripts/measure-start.ts [count]`.
 * Prints the cold template build (no disk cache), then `count` ledgers made one after another
 * (median, 90th percentile, fastest, slowest), each closed before the next, in wall time and in
 * CPU time of this process (which a busy machine inflates far less). A measurement, not a test.
 */
import { makeTestLedger, Template } from "../src/index.ts"

const count = Number(process.argv[2] ?? 20)
const milliseconds = (start: number) => performance.now() - start
const percentile = (sorted: ReadonlyArray<number>, fraction: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))]!

process.env.LEDGER_TESTKIT_CACHE_DIR = "off"
let start = performance.now()
await Template.dataDir()
const template = milliseconds(start)

const ready: Array<number> = []
const cpu: Array<number> = []
for (let index = 0; index < count; index++) {
  start = performance.now()
  const used = process.cpuUsage()
  const ledger = await makeTestLedger({ seed: index })
  ready.push(milliseconds(start))
  const spent = process.cpuUsage(used)
  cpu.push((spent.user + spent.system) / 1_000)
  await ledger.close()
}
start = performance.now()
const ledger = await makeTestLedger()
await ledger.createCompany()
const withCompany = milliseconds(start)
await ledger.close()

const sorted = [...ready].sort((a, b) => a - b)
const sortedCpu = [...cpu].sort((a, b) => a - b)
const format = (value: number) => `${value.toFixed(0)} ms`
process.stdout.write(
  [
    `template (start PGlite, migrate, dump): ${format(template)}`,
    `test ledger ready, ${count} runs: median ${format(percentile(sorted, 0.5))}, p90 ${format(percentile(sorted, 0.9))}, ` +
    `fastest ${format(sorted[0]!)}, slowest ${format(sorted.at(-1)!)}`,
    `  CPU time of each: median ${format(percentile(sortedCpu, 0.5))}, p90 ${format(percentile(sortedCpu, 0.9))}`,
    `test ledger with a company (owner and key): ${format(withCompany)}`
  ].join("\n") + "\n"
)

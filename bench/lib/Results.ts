import { mkdirSync, writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import * as Machine from "./Machine.ts"
import * as Options from "./Options.ts"

export const resultsDirectory = fileURLToPath(new URL("../results/", import.meta.url))

/** One line of a benchmark's table: a figure, where it was measured, and its target when it has one. */
export interface Row {
  readonly figure: string
  readonly storage: string
  readonly value: string
  readonly target?: string
  /** "met", "missed", "skipped", or "" for figures without a target. */
  readonly verdict?: "met" | "missed" | "skipped" | ""
  readonly details?: Record<string, unknown>
}

export interface Report {
  readonly benchmark: string
  readonly started_at: string
  readonly finished_at: string
  readonly time_scale: number
  readonly machine: Machine.MachineInfo
  readonly sharing: Machine.SharingReport
  readonly rows: ReadonlyArray<Row>
  readonly notes: ReadonlyArray<string>
}

const pad = (text: string, width: number) => text + " ".repeat(Math.max(0, width - text.length))

export const table = (rows: ReadonlyArray<Row>): string => {
  const header = ["figure", "storage", "value", "target", "verdict"]
  const cells = rows.map((row) => [row.figure, row.storage, row.value, row.target ?? "", row.verdict ?? ""])
  const widths = header.map((title, index) => Math.max(title.length, ...cells.map((line) => line[index]!.length)))
  const line = (values: ReadonlyArray<string>) => `| ${values.map((value, index) => pad(value, widths[index]!)).join(" | ")} |`
  return [line(header), `|${widths.map((width) => "-".repeat(width + 2)).join("|")}|`, ...cells.map(line)].join("\n")
}

/**
 * Collects a benchmark's rows, then prints its table and writes bench/results/<name>.json (the
 * latest) and a timestamped copy.
 */
export const start = (benchmark: string, databaseUrl: string | null = Options.databaseUrl) => {
  const startedAt = new Date().toISOString()
  const machine = Machine.describe(databaseUrl)
  const sharing = Machine.watchSharing()
  const rows: Array<Row> = []
  const notes: Array<string> = []
  process.stdout.write(
    `\n== ${benchmark}: ${machine.cores} cores (${machine.cpu_model}), ${machine.memory_gb} GB, Node ${machine.node}, ` +
      `PostgreSQL ${machine.postgresql_server ?? "n/a"}, time scale ${Options.timeScale}\n`
  )
  return {
    machine,
    add(row: Row) {
      rows.push(row)
      process.stdout.write(`   ${row.figure} [${row.storage}]: ${row.value}${row.target === undefined ? "" : ` (target ${row.target}: ${row.verdict})`}\n`)
    },
    skip(figure: string, storage: string, operation: string, target?: string) {
      rows.push({ figure, storage, value: `skipped: ${operation} not available`, ...(target === undefined ? {} : { target }), verdict: "skipped" })
      process.stdout.write(`   ${figure} [${storage}]: skipped: ${operation} not available\n`)
    },
    note(text: string) {
      notes.push(text)
      process.stdout.write(`   note: ${text}\n`)
    },
    finish(): Report {
      const report: Report = {
        benchmark,
        started_at: startedAt,
        finished_at: new Date().toISOString(),
        time_scale: Options.timeScale,
        machine,
        sharing: sharing.stop(),
        rows,
        notes
      }
      mkdirSync(resultsDirectory, { recursive: true })
      const json = `${JSON.stringify(report, null, 2)}\n`
      writeFileSync(`${resultsDirectory}${benchmark}.json`, json)
      writeFileSync(`${resultsDirectory}${benchmark}-${startedAt.replace(/[:.]/g, "-")}.json`, json)
      process.stdout.write(`\n${table(rows)}\n`)
      process.stdout.write(
        `machine ${report.sharing.shared ? "SHARED" : "not visibly shared"}: ` +
          `${report.sharing.foreign_test_processes_max} other test processes at most, whole-machine CPU busy ${
            Math.round(report.sharing.machine_cpu_busy * 100)
          }%\n`
      )
      return report
    }
  }
}

export type Run = ReturnType<typeof start>

/** "met" or "missed" for a figure against a bound. */
export const verdict = (value: number, bound: number, direction: "at least" | "at most"): "met" | "missed" =>
  Number.isFinite(value) && (direction === "at least" ? value >= bound : value <= bound) ? "met" : "missed"

export const formatNumber = (value: number): string =>
  Number.isFinite(value) ? value.toLocaleString("en-US", { maximumFractionDigits: value < 10 ? 2 : value < 100 ? 1 : 0 }) : String(value)

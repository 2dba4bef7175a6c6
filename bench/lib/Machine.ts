import { execFileSync } from "node:child_process"
import { readdirSync, readFileSync, writeFileSync } from "node:fs"
import os from "node:os"

/** What the figures were measured on, printed beside every table. */
export interface MachineInfo {
  readonly cores: number
  readonly cpu_model: string
  readonly memory_gb: number
  readonly node: string
  readonly platform: string
  readonly postgresql_server: string | null
  readonly pgbench: string | null
  readonly load_average_at_start: ReadonlyArray<number>
}

const firstLine = (command: string, args: ReadonlyArray<string>): string | null => {
  try {
    return execFileSync(command, args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], timeout: 5_000 }).trim().split("\n")[0] ?? null
  } catch {
    return null
  }
}

export const describe = (databaseUrl: string | null): MachineInfo => ({
  cores: os.cpus().length,
  cpu_model: os.cpus()[0]?.model ?? "unknown",
  memory_gb: Math.round(os.totalmem() / 1024 ** 3 * 10) / 10,
  node: process.version,
  platform: `${os.platform()} ${os.release()}`,
  postgresql_server: databaseUrl === null ? null : firstLine("psql", [databaseUrl, "-AtXc", "SHOW server_version"]),
  pgbench: firstLine("pgbench", ["--version"]),
  load_average_at_start: os.loadavg().map((value) => Math.round(value * 100) / 100)
})

/** Processes of this machine that are not ours and look like other engineers' test runs. */
const foreignTestProcesses = (): number => {
  const ours = new Set<number>([process.pid, process.ppid])
  let found = 0
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    const pid = Number(entry)
    if (ours.has(pid)) continue
    try {
      const commandLine = readFileSync(`/proc/${entry}/cmdline`, "utf8").replace(/\0/g, " ")
      if (/vitest|tsc -p|pnpm test/.test(commandLine) && !commandLine.includes("bench/")) found++
    } catch {
      // The process ended while we looked.
    }
  }
  return found
}

/** Busy and total CPU jiffies of the whole machine, from /proc/stat. */
const cpuTimes = (): { busy: number; total: number } => {
  const fields = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number)
  const total = fields.reduce((sum, value) => sum + value, 0)
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0)
  return { busy: total - idle, total }
}

/**
 * Watches, while a benchmark runs, whether the machine is shared: other test runs seen, and how busy
 * the machine was overall. The machine's 2 cores are shared with other engineers, so every figure
 * says whether it was measured alone.
 */
export const watchSharing = () => {
  const start = cpuTimes()
  let maxForeign = foreignTestProcesses()
  let samples = 1
  let sawForeign = maxForeign > 0 ? 1 : 0
  const timer = setInterval(() => {
    const seen = foreignTestProcesses()
    samples++
    if (seen > 0) sawForeign++
    maxForeign = Math.max(maxForeign, seen)
  }, 2_000)
  timer.unref()
  return {
    stop: (): SharingReport => {
      clearInterval(timer)
      const end = cpuTimes()
      const busy = end.total === start.total ? 0 : (end.busy - start.busy) / (end.total - start.total)
      return {
        shared: sawForeign > 0,
        foreign_test_processes_max: maxForeign,
        fraction_of_samples_with_foreign_tests: Math.round(sawForeign / samples * 100) / 100,
        machine_cpu_busy: Math.round(busy * 100) / 100
      }
    }
  }
}

export interface SharingReport {
  /** Other engineers' test runs were seen during the measurement. */
  readonly shared: boolean
  readonly foreign_test_processes_max: number
  readonly fraction_of_samples_with_foreign_tests: number
  /** The whole machine's CPU use during the run (ours included), 0 to 1. */
  readonly machine_cpu_busy: number
}

const statusMb = (field: "VmHWM" | "VmRSS", pid: number): number | null => {
  try {
    const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"))
    return match === null ? null : Math.round(Number(match[1]) / 1024)
  } catch {
    return null
  }
}

/** The peak resident set size of a process in MB (VmHWM), or null when it cannot be read. */
export const peakRssMb = (pid: number = process.pid): number | null => statusMb("VmHWM", pid)

/** The resident set size of a process in MB now (VmRSS), or null when it cannot be read. */
export const rssMb = (pid: number = process.pid): number | null => statusMb("VmRSS", pid)

/**
 * Starts this process's peak resident set size (VmHWM) again from its size now (Linux's
 * `clear_refs`), so the next `peakRssMb` is the peak of what runs after; false where it cannot.
 */
export const resetPeakRss = (): boolean => {
  try {
    writeFileSync("/proc/self/clear_refs", "5")
    return true
  } catch {
    return false
  }
}

/** User plus system CPU seconds a process has used so far. */
export const cpuSeconds = (pid: number): number | null => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    const ticks = Number(fields[11]) + Number(fields[12])
    return ticks / 100
  } catch {
    return null
  }
}

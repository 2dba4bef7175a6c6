import { execFile } from "node:child_process"
import { promisify } from "node:util"
import * as Options from "./Options.ts"

const run = promisify(execFile)

export interface PgbenchResult {
  readonly tps: number
  readonly latency_average_ms: number | null
  readonly clients: number
  readonly seconds: number
  readonly scale: number
  readonly version: string
}

/**
 * `pgbench -N` (TPC-B-like without the branch and teller updates: one UPDATE of an account, one
 * SELECT, one INSERT into history per transaction) against the same PostgreSQL server, in a
 * database of its own that is dropped afterwards: the machine's own commit rate at this
 * concurrency, to compare the engine with.
 */
export const measure = async (options: { readonly clients: number; readonly seconds: number; readonly scale: number }): Promise<PgbenchResult> => {
  const version = (await run("pgbench", ["--version"])).stdout.trim()
  const database = `ledger_bench_pgbench_${process.pid}`
  const url = new URL(Options.databaseUrl)
  url.pathname = `/${database}`
  await run("psql", [Options.databaseUrl, "-qAtXc", `DROP DATABASE IF EXISTS ${database}`])
  await run("psql", [Options.databaseUrl, "-qAtXc", `CREATE DATABASE ${database}`])
  try {
    await run("pgbench", ["-i", "-q", "-s", String(options.scale), url.toString()], { timeout: 300_000 })
    const { stdout } = await run(
      "pgbench",
      ["-N", "-c", String(options.clients), "-j", "2", "-T", String(options.seconds), url.toString()],
      { timeout: (options.seconds + 120) * 1000 }
    )
    const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(stdout) ?? /tps = ([\d.]+)/.exec(stdout)
    const latency = /latency average = ([\d.]+) ms/.exec(stdout)
    if (tps === null) throw new Error(`pgbench printed no tps:\n${stdout}`)
    return {
      tps: Number(tps[1]),
      latency_average_ms: latency === null ? null : Number(latency[1]),
      clients: options.clients,
      seconds: options.seconds,
      scale: options.scale,
      version
    }
  } finally {
    await run("psql", [Options.databaseUrl, "-qAtXc", `DROP DATABASE IF EXISTS ${database}`]).catch(() => undefined)
  }
}

export const installed = async (): Promise<boolean> => {
  try {
    await run("pgbench", ["--version"])
    return true
  } catch {
    return false
  }
}

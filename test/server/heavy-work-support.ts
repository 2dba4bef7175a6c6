import { Effect, Exit, Scope } from "effect"
import { HeavyWork } from "@ledger/engine"
import { WorkerPool } from "@ledger/server"

/** Helpers of the heavy-work tests (heavy-work*.test.ts): a pool as `ledger serve` starts it, and statements. */

export interface PoolHandle {
  readonly runner: HeavyWork.Runner
  /** A runner over the same workers with another time limit. */
  readonly runnerWith: (jobTimeoutMs: number) => HeavyWork.Runner
  readonly close: () => Promise<void>
}

/** A pool of worker threads with `settings`, its workers started (a first small job answered). */
export const startPool = async (settings: WorkerPool.Settings): Promise<PoolHandle> => {
  const scope = Effect.runSync(Scope.make())
  const pool = await Effect.runPromise(Scope.provide(WorkerPool.make(settings), scope))
  const runner = WorkerPool.runner(pool, settings)
  // The workers load the job table from the sources (through tsx) once: wait for that here.
  await Promise.all(Array.from({ length: settings.threads }, () => pool.run({ name: "statement.read", input: { source: { format: "csv", content: "Date,Amount\n", contentEncoding: "text", profile: null, mask: null }, linesMax: 1, countOnly: true } })))
  return { runner, runnerWith: (jobTimeoutMs) => WorkerPool.runner(pool, { ...settings, jobTimeoutMs }), close: () => Effect.runPromise(Scope.close(scope, Exit.void)) }
}

/** `lines` CSV transactions, each of its own content. */
export const csvStatement = (lines: number): string => {
  const rows = ["Date,Description,Amount"]
  for (let index = 0; index < lines; index++) {
    rows.push(`2026-05-${String(1 + (index % 28)).padStart(2, "0")},Purchase ${index},-${1 + (index % 900)}.${String(index % 100).padStart(2, "0")}`)
  }
  return `${rows.join("\n")}\n`
}

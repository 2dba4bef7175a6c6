import cluster, { type Worker } from "node:cluster"

/**
 * Several `ledger serve` processes on one machine (`--processes N`, LEDGER_PROCESSES): a primary
 * that migrates once, then forks N workers that share the HTTP port through node:cluster (the
 * primary accepts connections and hands them out in turn), restarts a worker that dies, and stops
 * them all on SIGTERM or SIGINT. Each worker is the whole server of one process; what that keeps
 * per process and what it shares through the database is in docs/operations.md, Scaling
 * (docs/decisions/2400-several-processes-one-port.md).
 */

/** More processes than this is a typo: a machine gains nothing past a few per core. */
export const processesMax = 64

/** The number of processes asked for: `--processes N` or `--processes=N`, else LEDGER_PROCESSES, else 1. */
export const countOf = (args: ReadonlyArray<string>, environment: Record<string, string | undefined>): number => {
  let given = environment.LEDGER_PROCESSES
  for (let at = 0; at < args.length; at++) {
    const arg = args[at]!
    if (arg === "--processes") given = args[at + 1] ?? ""
    else if (arg.startsWith("--processes=")) given = arg.slice("--processes=".length)
  }
  if (given === undefined || given === "") return 1
  const count = Number(given)
  if (!/^\d+$/.test(given) || count < 1 || count > processesMax) {
    throw new Error(`--processes (LEDGER_PROCESSES) must be a whole number from 1 to ${processesMax}, got ${given}`)
  }
  return count
}

/** Why `count` processes cannot run on this store, or null when they can. */
export const refusal = (count: number, databaseUrl: string | undefined): string | null =>
  count > 1 && databaseUrl === undefined
    ? `--processes ${count} needs PostgreSQL (DATABASE_URL): embedded PGlite is opened by one process only, which owns its folder`
    : null

const indexVariable = "LEDGER_PROCESS_INDEX"

/** This process's number among the workers, 1 to N; 0 when the server runs as one process. */
export const index = (): number => cluster.isWorker ? Number(process.env[indexVariable] ?? 0) : 0

/** The message a primary sends its workers to stop them as a signal would. */
const stopMessage = "ledger:stop"

/** In a worker: calls `onStop` when the primary asks this process to stop. */
export const onStopFromPrimary = (onStop: () => void) => {
  if (!cluster.isWorker) return
  process.on("message", (message) => {
    if (message === stopMessage) onStop()
  })
}

/** A worker that lived less than this before exiting counts as failing to start. */
const stableAfterMs = 10_000
/** After this many quick exits in a row the primary gives up and stops every process. */
export const quickExitsMax = 5
const restartDelayFirstMs = 500
const restartDelayMaxMs = 30_000

/** How long to wait before restarting a worker that exited quickly `quickExits` times in a row. */
export const restartDelayMs = (quickExits: number): number =>
  Math.min(restartDelayMaxMs, restartDelayFirstMs * 2 ** Math.max(0, Math.min(quickExits, 16)))

export interface SuperviseOptions {
  readonly count: number
  /** How long workers may take to stop once asked (LEDGER_SHUTDOWN_TIMEOUT_MS); then they are killed. */
  readonly stopTimeoutMs: number
  readonly log: (line: string) => void
}

interface Slot {
  worker: Worker | undefined
  startedMs: number
  quickExits: number
  restart: ReturnType<typeof setTimeout> | undefined
}

/**
 * In the primary, once storage is migrated: forks the workers and keeps them running until a
 * signal; resolves with the exit code (0 after a clean stop, 1 when a worker kept failing to start,
 * 130 on a second signal).
 */
export const supervise = (options: SuperviseOptions): Promise<number> =>
  new Promise((resolve) => {
    const slots: Array<Slot> = Array.from({ length: options.count }, () => ({ worker: undefined, startedMs: 0, quickExits: 0, restart: undefined }))
    let stopping = false
    let exitCode = 0
    const fork = (at: number) => {
      const slot = slots[at]!
      slot.restart = undefined
      slot.startedMs = Date.now()
      slot.worker = cluster.fork({ [indexVariable]: String(at + 1) })
    }
    const running = () => slots.filter((slot) => slot.worker !== undefined)
    const stopAll = (code: number) => {
      if (stopping) return
      stopping = true
      exitCode = code
      for (const slot of slots) clearTimeout(slot.restart)
      for (const { worker } of running()) if (worker!.isConnected()) worker!.send(stopMessage)
      // A worker that outlives its own bound (and a margin for its store to close) is killed.
      setTimeout(() => {
        for (const { worker } of running()) worker!.process.kill("SIGKILL")
      }, options.stopTimeoutMs + 10_000).unref()
      if (running().length === 0) resolve(exitCode)
    }
    cluster.on("exit", (worker, code, signal) => {
      const at = slots.findIndex((slot) => slot.worker === worker)
      if (at < 0) return
      const slot = slots[at]!
      slot.worker = undefined
      if (stopping) {
        if (code !== 0 && exitCode === 0) exitCode = code ?? 1
        if (running().length === 0) resolve(exitCode)
        return
      }
      slot.quickExits = Date.now() - slot.startedMs < stableAfterMs ? slot.quickExits + 1 : 0
      if (slot.quickExits > quickExitsMax) {
        options.log(`ledger: process ${at + 1} exited ${slot.quickExits} times within ${stableAfterMs / 1000} s of starting; stopping every process`)
        return stopAll(1)
      }
      const delay = restartDelayMs(slot.quickExits)
      options.log(`ledger: process ${at + 1} (pid ${worker.process.pid}) exited (${signal ?? `code ${code}`}); restarting in ${delay} ms`)
      slot.restart = setTimeout(() => fork(at), delay)
    })
    const onSignal = (signal: NodeJS.Signals) => {
      if (stopping) {
        options.log(`ledger: ${signal} again, exiting without waiting`)
        for (const { worker } of running()) worker!.process.kill("SIGKILL")
        return resolve(130)
      }
      options.log(`Stopping ${running().length} processes (${signal}); send it again to exit at once.`)
      stopAll(0)
    }
    process.on("SIGTERM", onSignal)
    process.on("SIGINT", onSignal)
    for (let at = 0; at < options.count; at++) fork(at)
  })

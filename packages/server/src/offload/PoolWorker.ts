import type { MessagePort } from "node:worker_threads"
import { type Job, jobs } from "@ledger/engine/jobs"
import { parseMail } from "../mail/MimeParse.ts"

/**
 * What a worker thread of the pool runs (Pool.ts, ADR 2320): a job of the engine's table
 * (`@ledger/engine/jobs`) or the server's own (the MIME parse), by name, on the plain data the
 * request thread posted. No database, no Effect runtime: jobs are pure functions of their input.
 */

const table: ReadonlyMap<string, Job<any, any>> = new Map([...jobs, [parseMail.name, parseMail]])

export interface Task {
  readonly name: string
  readonly input: unknown
  /** Told as the job starts: the request thread's time limit runs from here (Pool.ts). */
  readonly started?: MessagePort | undefined
}

/** The names a pool can run, for a server to check its calls against at start. */
export const names = (): ReadonlyArray<string> => [...table.keys()]

/** The task a starting pool posts first (Pool.ts `make`): answered with `names()` once the worker has loaded its table. */
export const readyTask = "pool.ready"

export default async function run(task: Task): Promise<unknown> {
  if (task.name === readyTask) return names()
  const job = table.get(task.name)
  if (job === undefined) throw new Error(`No job is named ${task.name}`)
  task.started?.postMessage(0)
  task.started?.close()
  return job.run(task.input)
}

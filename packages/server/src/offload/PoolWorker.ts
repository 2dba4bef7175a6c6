import type { MessagePort } from "node:worker_threads"
import { move, transferableSymbol, valueSymbol } from "piscina"
import { type Job, jobs, ownBuffer } from "@ledger/engine/jobs"
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
  return moved(await job.run(task.input))
}

/** Plain data is walked this deep for bytes to move; a job's answer is a few levels at most. */
const depthMax = 6

/** The buffers of a job's answer that its bytes own alone (a mail's attachments, a rendered PDF). */
const ownedBuffers = (value: unknown, depth: number, into: Set<ArrayBuffer>): Set<ArrayBuffer> => {
  if (value === null || typeof value !== "object" || depth > depthMax) return into
  if (ArrayBuffer.isView(value)) {
    for (const buffer of ownBuffer(value)) into.add(buffer)
    return into
  }
  for (const item of Array.isArray(value) ? value : Object.values(value)) ownedBuffers(item, depth + 1, into)
  return into
}

/**
 * The answer, with its big byte arrays moved to the request thread rather than copied there: the
 * copy of a 25 MB mail's attachments was the request thread's, and held it (ADR 2321). The worker
 * never reads an answer again once it is posted.
 */
const moved = (result: unknown): unknown => {
  // Bytes are found only inside an object, so an answer with any is one.
  const buffers = [...ownedBuffers(result, 0, new Set())]
  return buffers.length === 0 ? result : move({ [transferableSymbol]: buffers, [valueSymbol]: result as object })
}

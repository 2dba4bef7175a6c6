/**
 * Should the embedded store (PGlite) run in a worker thread? (issue 41 item 1, ADR 2320.)
 * The same work on PGlite on the main thread and on PGlite in a worker thread (lib/PgliteThread.mjs,
 * a message per statement), measuring what each costs the thread that answers HTTP:
 *
 * - postings: interactive transactions as the engine writes a two-line entry (BEGIN, INSERT the
 *   entry, INSERT its lines, UPDATE a balance, COMMIT: five statements), one after another;
 *   postings a second, and how late a timer on the main thread fires meanwhile (p99 and max);
 * - a report: a GROUP BY over every line (100,000 and more), its time and the longest stall;
 * - the loop's delay while both run, which is what /health and another company see.
 */
import { Worker } from "node:worker_threads"
import { PGlite } from "@electric-sql/pglite"
import * as Options from "./lib/Options.ts"
import * as Results from "./lib/Results.ts"

interface Db {
  readonly query: (sql: string, params?: ReadonlyArray<unknown>) => Promise<ReadonlyArray<Record<string, unknown>>>
  readonly exec: (sql: string) => Promise<void>
  readonly close: () => Promise<void>
}

const onMainThread = async (): Promise<Db> => {
  const pg = await PGlite.create()
  return {
    query: async (sql, params = []) => (await pg.query<Record<string, unknown>>(sql, [...params])).rows,
    exec: async (sql) => void await pg.exec(sql),
    close: () => pg.close()
  }
}

const inWorker = async (): Promise<Db> => {
  const worker = new Worker(new URL("./lib/PgliteThread.mjs", import.meta.url))
  const waiting = new Map<number, { resolve: (rows: ReadonlyArray<Record<string, unknown>>) => void; reject: (error: Error) => void }>()
  let next = 0
  await new Promise<void>((resolve) => worker.once("message", () => resolve()))
  worker.on("message", (message: { id: number; rows?: ReadonlyArray<Record<string, unknown>>; error?: string }) => {
    const call = waiting.get(message.id)
    waiting.delete(message.id)
    if (message.error !== undefined) call?.reject(new Error(message.error))
    else call?.resolve(message.rows ?? [])
  })
  const send = (kind: string, sql?: string, params?: ReadonlyArray<unknown>) =>
    new Promise<ReadonlyArray<Record<string, unknown>>>((resolve, reject) => {
      const id = next++
      waiting.set(id, { resolve, reject })
      worker.postMessage({ id, kind, sql, params })
    })
  return {
    query: (sql, params) => send("query", sql, params),
    exec: async (sql) => void await send("exec", sql),
    close: async () => {
      await send("close")
      await worker.terminate()
    }
  }
}

const schema = `
  CREATE TABLE entries (id bigserial PRIMARY KEY, company int NOT NULL, memo text NOT NULL);
  CREATE TABLE lines (entry bigint NOT NULL REFERENCES entries (id), account int NOT NULL, cents bigint NOT NULL);
  CREATE INDEX lines_entry ON lines (entry);
  CREATE TABLE balances (account int PRIMARY KEY, cents bigint NOT NULL);
  INSERT INTO balances SELECT a, 0 FROM generate_series(1, 100) a;
  INSERT INTO entries (company, memo) SELECT 1, 'seed ' || g FROM generate_series(1, 50000) g;
  INSERT INTO lines SELECT e, 1 + (e % 100), 100 + e FROM generate_series(1, 50000) e;
  INSERT INTO lines SELECT e, 1 + ((e + 7) % 100), -(100 + e) FROM generate_series(1, 50000) e;
`

const posting = async (db: Db, index: number) => {
  await db.query("BEGIN")
  const [entry] = await db.query("INSERT INTO entries (company, memo) VALUES ($1, $2) RETURNING id", [1, `posting ${index}`])
  const account = 1 + (index % 100)
  await db.query("INSERT INTO lines VALUES ($1, $2, $3), ($1, $4, $5)", [entry!.id, account, 1234, 1 + ((index + 7) % 100), -1234])
  await db.query("UPDATE balances SET cents = cents + $2 WHERE account = $1", [account, 1234])
  await db.query("COMMIT")
}

/**
 * How late a timer due every 5 ms fires: what a request arriving then would wait before the loop
 * could read it. (`monitorEventLoopDelay` was no use here: PGlite on the main thread resolves
 * statement after statement in microtasks, so its timer never fired and it recorded nothing.)
 * At the stop, a tick still waiting counts with the lateness it has reached.
 */
const loopDelay = () => {
  const lateness: Array<number> = []
  let due = performance.now() + 5
  const tick = () => {
    const now = performance.now()
    lateness.push(Math.max(0, now - due))
    due = now + 5
    timer = setTimeout(tick, 5)
  }
  let timer = setTimeout(tick, 5)
  return () => {
    clearTimeout(timer)
    lateness.push(Math.max(0, performance.now() - due))
    lateness.sort((a, b) => a - b)
    return { p99: lateness[Math.min(lateness.length - 1, Math.floor(lateness.length * 0.99))]!, max: lateness.at(-1)!, ticks: lateness.length }
  }
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

const run = Results.start("pglite-worker", null)
const postings = Options.count(3_000, 300)
const reports = Options.count(10, 3)
for (const [where, open] of [["main thread", onMainThread], ["worker thread", inWorker]] as const) {
  const db = await open()
  await db.exec(schema)
  let stopped = loopDelay()
  let started = performance.now()
  // Each posting in its own turn of the loop, as each request arrives in its own: a loop of awaits
  // on PGlite's promises alone would never give the loop a turn.
  for (let index = 0; index < postings; index++) {
    await posting(db, index)
    await nextTurn()
  }
  const postingSeconds = (performance.now() - started) / 1000
  const postingDelay = stopped()
  stopped = loopDelay()
  started = performance.now()
  for (let index = 0; index < reports; index++) {
    await db.query("SELECT account, sum(cents) AS cents, count(*) AS n FROM lines GROUP BY account ORDER BY account")
    await nextTurn()
  }
  const reportMs = (performance.now() - started) / reports
  const reportDelay = stopped()
  await db.close()
  run.add({
    figure: `postings a second, ${where} (${postings.toLocaleString("en-US")} five-statement transactions)`,
    storage: "pglite",
    value: `${Math.round(postings / postingSeconds)} /s; a 5 ms timer late by p99 ${postingDelay.p99.toFixed(1)} ms, max ${postingDelay.max.toFixed(1)} ms (${postingDelay.ticks} ticks)`,
    details: { where, postings, seconds: postingSeconds, loop_delay_ms: postingDelay }
  })
  run.add({
    figure: `report over 100,000+ lines, ${where}`,
    storage: "pglite",
    value: `${reportMs.toFixed(1)} ms a query; a 5 ms timer late by p99 ${reportDelay.p99.toFixed(1)} ms, max ${reportDelay.max.toFixed(1)} ms (${reportDelay.ticks} ticks)`,
    details: { where, reports, ms_per_query: reportMs, loop_delay_ms: reportDelay }
  })
}
run.finish()

// PGlite in a worker thread, for bench/pglite-worker.ts: the thread owns the database and answers
// each message { id, kind: "query" | "exec" | "close", sql, params } with { id, rows } or
// { id, error }. This is what running the embedded store in a worker would cost: every statement
// of an interactive transaction becomes a round trip between threads.
import { parentPort } from "node:worker_threads"
import { PGlite } from "@electric-sql/pglite"

const pg = await PGlite.create()
parentPort.on("message", async (message) => {
  try {
    if (message.kind === "close") {
      await pg.close()
      parentPort.postMessage({ id: message.id, rows: [] })
      parentPort.close()
      return
    }
    if (message.kind === "exec") {
      await pg.exec(message.sql)
      parentPort.postMessage({ id: message.id, rows: [] })
      return
    }
    const result = await pg.query(message.sql, message.params ?? [])
    parentPort.postMessage({ id: message.id, rows: result.rows })
  } catch (error) {
    parentPort.postMessage({ id: message.id, error: String(error) })
  }
})
parentPort.postMessage({ ready: true })

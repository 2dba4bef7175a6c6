/**
 * Benchmark: webhook deliveries (issue 23). A receiver on 127.0.0.1 verifies nothing and answers
 * 200; one company's endpoint wants `entry.posted`.
 *
 * 1. Throughput: N postings committed with no worker running, then the workers drain the queue
 *    (batches back to back): deliveries a second, signed, over HTTP, recorded.
 * 2. Delay from commit to delivery: postings at a steady pace while the worker loop runs as
 *    `ledger serve` runs it (one batch per poll, `Worker.defaults`): p50 and p99 of the time from the
 *    posting's answer to the receiver's receipt.
 *
 *   node --import tsx bench/webhooks.ts        (BENCH_STORAGE, BENCH_TIME_SCALE as for the others)
 */
import { randomBytes } from "node:crypto"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect, Fiber, Layer, ManagedRuntime, Schedule } from "effect"
import { Ledger, Ports } from "@ledger/engine"
import { SqlClient } from "effect/sql"
import { TokenSealer } from "@ledger/engine/ports"
import { Server } from "@ledger/server"
import * as Worker from "@ledger/server/workers"
import { HttpWebhookTransport } from "@ledger/server/adapters"
import * as Options from "./lib/Options.ts"
import * as Results from "./lib/Results.ts"
import { now, round, Samples } from "./lib/Stats.ts"

const run = Results.start("webhooks")
const today = new Date().toISOString().slice(0, 10)
let counter = 0
const key = () => `bench-webhooks-${process.pid}-${counter++}`

const arrivals = new Map<number, number>()
const receiver = createServer((request, response) => {
  const chunks: Array<Buffer> = []
  request.on("data", (chunk: Buffer) => chunks.push(chunk))
  request.on("end", () => {
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8"))
    arrivals.set(Number(body.data.entry_id), now())
    response.writeHead(200).end()
  })
})
await new Promise<void>((resolve) => receiver.listen(0, Options.loopback, () => resolve()))
const url = `http://${Options.loopback}:${(receiver.address() as AddressInfo).port}/hook`

const openEngine = async (storage: Options.StorageKind) => {
  const operatorToken = `bench-operator-${Math.random().toString(36).slice(2)}`
  const searchPath = Options.freshSchema("webhooks")
  const runtime = ManagedRuntime.make(Server.engineLayer({
    ...(storage === "postgresql" ? { databaseUrl: Options.databaseUrl, searchPath, maxConnections: 20 } : { dataDir: "memory" }),
    operatorToken,
    rateLimits: false,
    providers: Layer.mergeAll(
      Ports.layerUnconfigured,
      TokenSealer.layerFromKey(new Uint8Array(randomBytes(32))),
      HttpWebhookTransport.layer({ allowPrivate: true })
    )
  }))
  await runtime.context()
  const call = async (operationId: string, credential: string, body: unknown, path: Record<string, unknown> = {}) => {
    const outcome = await runtime.runPromise(Ledger.call(operationId, { credential, idempotencyKey: key(), body, path, query: {} }))
    if (outcome.status >= 300) throw new Error(`${operationId}: ${outcome.status} ${JSON.stringify(outcome.body)}`)
    return outcome.body as any
  }
  const company = await call("createCompany", operatorToken, { name: "Webhook Bench Co", owner_name: "Owner", plan: "owned" })
  const owner = company.secret as string
  await call("createWebhook", owner, { url, event_types: ["entry.posted"] })
  const post = async (cents: number) => {
    const entry = await call("proposeJournalEntry", owner, {
      entry_date: today,
      lines: [{ account: "6070", debit_cents: cents }, { account: "1010", credit_cents: cents }]
    })
    return { id: Number(entry.id), committedAt: now() }
  }
  const close = async () => {
    if (storage === "postgresql") {
      await runtime.runPromise(Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql.unsafe(`DROP SCHEMA IF EXISTS ${searchPath} CASCADE`)
      })).catch(() => undefined)
    }
    await runtime.dispose()
  }
  return { runtime, post, close }
}

for (const storage of Options.storages) {
  const engine = await openEngine(storage)
  try {
    const workerOptions = { id: `bench-${storage}`, ...Worker.defaults }
    const total = Options.count(1_000)
    for (let index = 0; index < total; index++) await engine.post(100 + index)
    arrivals.clear()
    const started = now()
    const drained = await engine.runtime.runPromise(Worker.drain(workerOptions, 1_000_000))
    const seconds = (now() - started) / 1000
    run.add({
      figure: `deliveries a second, one worker draining ${drained} waiting deliveries to a local receiver`,
      storage,
      value: Results.formatNumber(arrivals.size / seconds),
      details: { deliveries: arrivals.size, seconds: round(seconds) }
    })

    arrivals.clear()
    const loop = engine.runtime.runFork(Worker.runOnce(workerOptions).pipe(Effect.repeat(Schedule.spaced(workerOptions.pollInterval))))
    const committed = new Map<number, number>()
    const paced = Options.count(200, 40)
    for (let index = 0; index < paced; index++) {
      const entry = await engine.post(10_000 + index)
      committed.set(entry.id, entry.committedAt)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    const deadline = now() + 60_000
    while (arrivals.size < committed.size && now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100))
    await engine.runtime.runPromise(Fiber.interrupt(loop))
    const delays = new Samples()
    for (const [id, at] of committed) {
      const arrived = arrivals.get(id)
      if (arrived !== undefined) delays.add(arrived - at)
    }
    const summary = delays.summary()
    run.add({
      figure: `commit to delivery, ms p50 / p99 (worker poll ${String(workerOptions.pollInterval)}, 20 postings a second)`,
      storage,
      value: `${summary.p50_ms} / ${summary.p99_ms}`,
      details: { ...summary, delivered: delays.count, committed: committed.size }
    })
  } finally {
    await engine.close()
  }
}

receiver.close()
run.finish()

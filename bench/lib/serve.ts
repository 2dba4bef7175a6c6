/**
 * The server a load benchmark drives: the same `Server.serverLayer` as `ledger serve`, with two
 * settings the CLI does not take from the environment: the PostgreSQL schema to work in (a fresh
 * one per run) and the pool size. SIGTERM stops it cleanly, closing the pool.
 */
import { Effect, Fiber, Layer } from "effect"
import { Config, Server } from "@ledger/server"

const config = Config.fromEnvironment()
const searchPath = process.env.BENCH_SEARCH_PATH
const maxConnections = process.env.BENCH_MAX_CONNECTIONS === undefined ? undefined : Number(process.env.BENCH_MAX_CONNECTIONS)

const fiber = Effect.runFork(Layer.launch(Server.serverLayer(config, {
  ...(searchPath === undefined || searchPath === "" ? {} : { searchPath }),
  ...(maxConnections === undefined ? {} : { maxConnections })
})))
fiber.addObserver((exit) => {
  if (exit._tag === "Failure") process.stderr.write(`server failed: ${String(exit.cause)}\n`)
  process.exit(exit._tag === "Failure" ? 1 : 0)
})
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => void Effect.runPromise(Fiber.interrupt(fiber)))
}

/**
 * The server a load benchmark drives: the same `Server.serverLayer` as `ledger serve`, with two
 * settings the CLI does not take from the environment: the PostgreSQL schema to work in (a fresh
 * one per run) and the pool size. SIGTERM stops it cleanly, closing the pool.
 */
import { Effect, Fiber, Layer } from "effect"
import { Config, Server } from "@ledger/server"

const config = Config.fromEnvironment()

// BENCH_TRACE_PAUSES=1 prints every garbage collection and event-loop stall over 5 ms, to explain a
// latency tail.
if (process.env.BENCH_TRACE_PAUSES === "1") {
  const { monitorEventLoopDelay, PerformanceObserver } = await import("node:perf_hooks")
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.duration > 5) process.stdout.write(`PAUSE gc ${entry.duration.toFixed(1)} ms kind ${(entry as { detail?: { kind?: number } }).detail?.kind}\n`)
    }
  }).observe({ entryTypes: ["gc"] })
  const delay = monitorEventLoopDelay({ resolution: 5 })
  delay.enable()
  setInterval(() => {
    if (delay.max / 1e6 > 20) process.stdout.write(`PAUSE loop max ${(delay.max / 1e6).toFixed(1)} ms p99 ${(delay.percentile(99) / 1e6).toFixed(1)} ms\n`)
    delay.reset()
  }, 1_000).unref()
}
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

// BENCH_PROFILE_DIR=<folder> (bench/cpu/layers.ts): SIGUSR2 starts V8's CPU profiler (the one behind
// `node --cpu-prof`), the next SIGUSR2 stops it and writes <folder>/<n>.cpuprofile, so a profile
// holds the load alone and not the start-up or the set-up of its data.
const profileFolder = process.env.BENCH_PROFILE_DIR
if (profileFolder !== undefined && profileFolder !== "") {
  const { Session } = await import("node:inspector/promises")
  const { writeFileSync } = await import("node:fs")
  const session = new Session()
  session.connect()
  await session.post("Profiler.enable")
  // 250 µs between samples: enough samples from a few seconds of load, little overhead.
  await session.post("Profiler.setSamplingInterval", { interval: 250 })
  let profiling = false
  let written = 0
  process.on("SIGUSR2", () => {
    profiling = !profiling
    if (profiling) {
      void session.post("Profiler.start").then(() => process.stdout.write("PROFILE started\n"))
      return
    }
    void session.post("Profiler.stop").then(({ profile }) => {
      const file = `${profileFolder}/${++written}.cpuprofile`
      writeFileSync(file, JSON.stringify(profile))
      process.stdout.write(`PROFILE written ${file}\n`)
    })
  })
}

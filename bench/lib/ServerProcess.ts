import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import os from "node:os"
import path from "node:path"
import { fileURLToPath } from "node:url"
import * as Client from "./HttpClient.ts"
import * as Options from "./Options.ts"

const serveScript = fileURLToPath(new URL("./serve.ts", import.meta.url))
const workspace = fileURLToPath(new URL("../../", import.meta.url))

export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once("error", reject)
    probe.listen(0, Options.loopback, () => {
      const address = probe.address()
      probe.close(() => typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port")))
    })
  })

/** A child process in the workspace with what it prints (stdout and stderr) collected. */
export const spawnCollecting = (command: string, args: ReadonlyArray<string>, environment: Record<string, string>, cwd = workspace) => {
  const child: ChildProcess = spawn(command, args, { cwd, env: environment, stdio: ["ignore", "pipe", "pipe"] })
  let output = ""
  child.stdout?.on("data", (chunk) => (output += String(chunk)))
  child.stderr?.on("data", (chunk) => (output += String(chunk)))
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  return { child, output: () => output, exited }
}

/** A real Ledger server process on 127.0.0.1, over a fresh PostgreSQL schema or PGlite. */
export interface RunningServer {
  readonly baseUrl: string
  readonly port: number
  readonly pid: number
  /** What the server printed so far (stdout and stderr). */
  readonly output: () => string
  readonly storage: Options.StorageKind
  readonly operatorToken: string
  readonly stop: () => Promise<void>
}

type StartOptions = {
  readonly name: string
  readonly maxConnections?: number
  readonly pgliteMode?: "file" | "memory"
  /** More of the server's environment (bench/cpu/layers.ts: BENCH_PROFILE_DIR). */
  readonly environment?: Readonly<Record<string, string>>
  /** Another checkout to run the server of (bench/cpu/reads-interleaved.ts: the main a change started from). */
  readonly workspace?: string
}

/** The server's environment, and the fresh schema (PostgreSQL) or folder (PGlite file mode) it is given. */
const prepare = (storage: Options.StorageKind, options: StartOptions, port: number, operatorToken: string) => {
  let searchPath = ""
  let dataFolder: string | null = null
  const environment: Record<string, string> = {
    ...process.env as Record<string, string>,
    PORT: String(port),
    HOST: Options.loopback,
    LEDGER_OPERATOR_TOKEN: operatorToken,
    // Benchmarks measure the pipeline's cost, not the limiter's refusals.
    LEDGER_RATE_LIMITS: "off",
    LEDGER_WORKERS: "off",
    ...options.environment
  }
  if (storage === "postgresql") {
    searchPath = Options.freshSchema(options.name)
    environment.DATABASE_URL = Options.databaseUrl
    environment.BENCH_SEARCH_PATH = searchPath
    environment.BENCH_MAX_CONNECTIONS = String(options.maxConnections ?? 20)
  } else {
    delete environment.DATABASE_URL
    if ((options.pgliteMode ?? "file") === "memory") {
      environment.LEDGER_DATA_DIR = "memory"
    } else {
      dataFolder = mkdtempSync(path.join(os.tmpdir(), `ledger-bench-server-${options.name}-`))
      environment.LEDGER_DATA_DIR = dataFolder
    }
  }
  return { environment, searchPath, dataFolder }
}

/** Stops the server (SIGTERM, then SIGKILL after 10 s) and drops its schema or removes its folder. */
const stopper = (
  storage: Options.StorageKind,
  server: ReturnType<typeof spawnCollecting>,
  searchPath: string,
  dataFolder: string | null
) => async (): Promise<void> => {
  const { child, output, exited } = server
  // BENCH_TRACE_PAUSES=1 (lib/serve.ts): what the server saw of its own pauses during the run.
  if (process.env.BENCH_TRACE_PAUSES === "1") {
    const pauses = output().split("\n").filter((line) => line.startsWith("PAUSE "))
    process.stderr.write(`server ${storage}: ${pauses.length} pauses over 5 ms\n${pauses.join("\n")}\n`)
  }
  if (child.exitCode === null && child.signalCode === null) {
    child.kill("SIGTERM")
    const timeout = new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), 10_000).unref())
    if ((await Promise.race([exited, timeout])) === "timeout") {
      child.kill("SIGKILL")
      await exited
    }
  }
  if (searchPath !== "") {
    const { execFileSync } = await import("node:child_process")
    try {
      execFileSync("psql", [Options.databaseUrl, "-qAtXc", `DROP SCHEMA IF EXISTS ${searchPath} CASCADE`], { stdio: "ignore", timeout: 60_000 })
    } catch {
      process.stderr.write(`could not drop schema ${searchPath}\n`)
    }
  }
  if (dataFolder !== null) rmSync(dataFolder, { recursive: true, force: true })
}

/** Waits until the server answers `/health` (240 s at most: a loaded machine compiles the sources slowly); stops it and throws when it exits or never does. */
const awaitHealthy = async (baseUrl: string, server: ReturnType<typeof spawnCollecting>, stop: () => Promise<void>): Promise<void> => {
  const deadline = Date.now() + 240_000
  for (;;) {
    if (server.child.exitCode !== null) throw new Error(`server exited early (${server.child.exitCode}):\n${server.output()}`)
    try {
      const health = await Client.request(baseUrl, { method: "GET", path: "/health" })
      if (health.status === 200) return
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await stop()
      throw new Error(`server did not answer /health within 240 s:\n${server.output()}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

export const start = async (storage: Options.StorageKind, options: StartOptions): Promise<RunningServer> => {
  const port = await freePort()
  const operatorToken = `bench-operator-${Math.random().toString(36).slice(2)}-${Date.now()}`
  const { environment, searchPath, dataFolder } = prepare(storage, options, port, operatorToken)
  const script = options.workspace === undefined ? serveScript : path.join(options.workspace, "bench/lib/serve.ts")
  // BENCH_SERVER_NODE_ARGS: flags for the server's Node only, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile it under a load.
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? "").split(/\s+/u).filter((flag) => flag !== "")
  const server = spawnCollecting(process.execPath, [...nodeArgs, "--import", "tsx", script], environment, options.workspace ?? workspace)
  const baseUrl = `http://${Options.loopback}:${port}`
  const stop = stopper(storage, server, searchPath, dataFolder)
  await awaitHealthy(baseUrl, server, stop)
  return { baseUrl, port, pid: server.child.pid!, storage, operatorToken, stop, output: server.output }
}

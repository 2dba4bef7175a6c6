import { type ChildProcess, execFile, spawn } from "node:child_process"
import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { Effect, Layer, ManagedRuntime } from "effect"
import { SqlClient } from "effect/sql"
import { Row, StoredAnswer } from "@ledger/engine"
import { Storage } from "@ledger/server"

/**
 * The real `ledger serve` command in a child process, as the README runs it: on embedded PGlite in
 * a temporary folder, or on PostgreSQL in a database of its own when DATABASE_URL is set.
 */

export const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..")
const command = path.join(repositoryRoot, "packages/server/bin/ledger.mjs")

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0))
    })
  })

/** Runs SQL against a store the way the server opens it (PGlite folder or PostgreSQL URL). */
export const withStore = async <A>(
  store: { readonly dataDir?: string | undefined; readonly databaseUrl?: string | undefined },
  use: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>
): Promise<A> => {
  const options = store.databaseUrl === undefined ? { dataDir: store.dataDir } : { databaseUrl: store.databaseUrl }
  const runtime = ManagedRuntime.make(Storage.client(options) as Layer.Layer<SqlClient.SqlClient>)
  try {
    return await runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, use))
  } finally {
    await runtime.dispose()
  }
}

export interface Store {
  readonly kind: "pglite" | "postgresql"
  readonly env: Record<string, string>
  readonly dataDir: string
  readonly databaseUrl: string | undefined
  /** Every file's bytes under the PGlite folder (empty for PostgreSQL). */
  readonly files: () => Promise<Array<{ readonly name: string; readonly bytes: Buffer }>>
  readonly remove: () => Promise<void>
}

/** A fresh, empty store for one server: a temporary PGlite folder, or a new PostgreSQL database. */
export const freshStore = async (): Promise<Store> => {
  const dataDir = await mkdtemp(path.join(tmpdir(), "ledger-cli-"))
  const baseUrl = process.env.DATABASE_URL === "" ? undefined : process.env.DATABASE_URL
  if (baseUrl === undefined) {
    return {
      kind: "pglite",
      env: { LEDGER_DATA_DIR: dataDir },
      dataDir,
      databaseUrl: undefined,
      files: () => filesUnder(dataDir),
      remove: () => rm(dataDir, { recursive: true, force: true })
    }
  }
  const name = `ledger_cli_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`
  await withStore({ databaseUrl: baseUrl }, (sql) => sql.unsafe(`CREATE DATABASE ${name}`))
  const url = new URL(baseUrl)
  url.pathname = `/${name}`
  return {
    kind: "postgresql",
    env: { DATABASE_URL: url.toString(), LEDGER_DATA_DIR: dataDir },
    dataDir,
    databaseUrl: url.toString(),
    files: async () => [],
    remove: async () => {
      await withStore({ databaseUrl: baseUrl }, (sql) => sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).catch(() => undefined)
      await rm(dataDir, { recursive: true, force: true })
    }
  }
}

const filesUnder = async (folder: string): Promise<Array<{ name: string; bytes: Buffer }>> => {
  const out: Array<{ name: string; bytes: Buffer }> = []
  for (const entry of await readdir(folder, { recursive: true })) {
    const name = path.join(folder, entry)
    if ((await stat(name)).isFile()) out.push({ name, bytes: await readFile(name) })
  }
  return out
}

export interface RunningServer {
  readonly url: string
  readonly process: ChildProcess
  /** Everything the process wrote so far, stdout and stderr. */
  readonly output: () => string
  /** SIGTERM, and waits for the exit. */
  readonly stop: () => Promise<number | null>
  /** SIGKILL: a crash, no chance to flush anything. */
  readonly kill: () => Promise<void>
}

/** This process's environment without Ledger's settings, which a child gets from its store and test only. */
const childEnvironment = (): Record<string, string> => {
  const childEnv: Record<string, string> = {}
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !name.startsWith("LEDGER_") && name !== "DATABASE_URL") childEnv[name] = value
  }
  return childEnv
}

/** Runs one `ledger` command (`migrate`, `audit-head ID`, ...) against the store; its exit code and output. */
export const runLedger = async (store: Store, args: ReadonlyArray<string>) => {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [command, ...args], { cwd: repositoryRoot, env: { ...childEnvironment(), ...store.env } })
    return { code: 0, stdout, stderr }
  } catch (error: any) {
    return { code: Number(error.code), stdout: String(error.stdout ?? ""), stderr: String(error.stderr ?? "") }
  }
}

/** Starts `ledger serve` on a free port and waits until GET /health answers 200. */
export const startServer = async (store: Store, env: Record<string, string> = {}): Promise<RunningServer> => {
  const port = await freePort()
  const childEnv = childEnvironment()
  const child = spawn(process.execPath, [command, "serve"], {
    cwd: repositoryRoot,
    // Heavy work on the request thread unless a test asks for the pool: each worker thread compiles
    // the engine's job table through tsx as it starts, seconds of CPU per server the suite starts.
    // test/server/heavy-work*.test.ts and the packaging test run the pool.
    env: { ...childEnv, LEDGER_WORKER_THREADS: "0", ...store.env, PORT: String(port), HOST: "127.0.0.1", ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()))
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 240_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`ledger serve exited with ${child.exitCode}:\n${output}`)
    const healthy = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2_000) })
      .then((response) => response.status === 200, () => false)
    if (healthy) break
    if (Date.now() > deadline) {
      child.kill("SIGKILL")
      throw new Error(`ledger serve did not answer /health within 240 s:\n${output}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return {
    url,
    process: child,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) child.kill("SIGTERM")
      return exited
    },
    kill: async () => {
      if (child.exitCode === null) child.kill("SIGKILL")
      await exited
    }
  }
}

/** Every value of every column of every table in the schema, as text. */
export const everyStoredValue = (sql: SqlClient.SqlClient) =>
  Effect.gen(function*() {
    const columns = yield* sql<{ table_name: string; column_name: string }>`
      SELECT c.table_name, c.column_name FROM information_schema.columns c
      JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'`
    const values: Array<{ table: string; column: string; value: string }> = []
    for (const { table_name, column_name } of columns) {
      const rows = yield* sql.unsafe<{ value: string | null }>(
        `SELECT "${column_name}"::text AS value FROM "${table_name}"`
      )
      for (const row of rows) if (row.value !== null) values.push({ table: table_name, column: column_name, value: row.value })
    }
    // Stored answers are packed (StoredAnswer.ts): their text is looked at too, not only their bytes.
    const answers = yield* sql<{ answer: unknown }>`SELECT answer FROM idempotency_records WHERE answer IS NOT NULL`
    for (const row of answers) {
      values.push({ table: "idempotency_records", column: "answer (unpacked)", value: StoredAnswer.unpack(Row.bytesOrNull(row.answer)!) })
    }
    return { tables: new Set(columns.map((column) => column.table_name)), values }
  })

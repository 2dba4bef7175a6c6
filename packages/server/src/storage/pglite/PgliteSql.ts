import { spawn } from "node:child_process"
import { existsSync, mkdirSync, readdirSync, renameSync, rmdirSync, rmSync } from "node:fs"
import { createRequire } from "node:module"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { setFlagsFromString } from "node:v8"
import { PGlite, type PGliteInterface, type PGliteOptions, protocol } from "@electric-sql/pglite"
import { PgClient } from "@effect/sql-pg"
import { Context, Effect, Fiber, Layer, Scope, Semaphore, Stream } from "effect"
import { Reactivity } from "effect/reactivity"
import { SqlClient, type SqlConnection } from "effect/sql"
import {
  ConnectionError,
  ConstraintError,
  DeadlockError,
  LockTimeoutError,
  SerializationError,
  SqlError,
  type SqlErrorReason,
  SqlSyntaxError,
  StatementTimeoutError,
  UniqueViolation,
  UnknownError
} from "effect/sql/SqlError"
import * as PgliteProtocol from "./PgliteProtocol.ts"

/**
 * An `effect/sql` client over embedded PGlite.
 *
 * PGlite is one connection, so every statement and every transaction takes turns through one
 * permit: a transaction holds it from BEGIN to COMMIT, which is what keeps another fiber's
 * statements out of it. Statements use the PostgreSQL compiler of `@effect/sql-pg`, so the SQL
 * the engine writes is the same on both stores.
 *
 * (`@effect/sql-pglite` exists but still imports the module paths of Effect 4's betas.)
 */

const classify = (cause: unknown, message: string, operation: string): SqlErrorReason => {
  const props = { cause, message, operation }
  const code = typeof cause === "object" && cause !== null && "code" in cause ? String(cause.code) : undefined
  if (code === undefined) return new UnknownError(props)
  if (code.startsWith("08")) return new ConnectionError(props)
  if (code.startsWith("42")) return new SqlSyntaxError(props)
  if (code === "23505") {
    const constraint = typeof cause === "object" && cause !== null && "constraint" in cause ? String(cause.constraint) : "unknown"
    return new UniqueViolation({ ...props, constraint })
  }
  if (code.startsWith("23")) return new ConstraintError(props)
  if (code === "40P01") return new DeadlockError(props)
  if (code === "40001") return new SerializationError(props)
  if (code === "55P03") return new LockTimeoutError(props)
  if (code === "57014") return new StatementTimeoutError(props)
  return new UnknownError(props)
}

const fail = (operation: string) => (cause: unknown) =>
  new SqlError({ reason: classify(cause, `PGlite: ${operation} failed`, operation) })

/** Parameters the fast path sends as text: their text form is unambiguous whatever the column type. */
type TextParameter = string | number | bigint | boolean | null | undefined
const isTextParameter = (value: unknown): value is TextParameter =>
  value === null || value === undefined || typeof value === "string" || typeof value === "number" ||
  typeof value === "bigint" || typeof value === "boolean"

/** How many statement texts keep a prepared statement; past it, statements are parsed each time. */
const preparedStatementsMax = 2_000

interface PreparedStatements {
  /** Statement text to the name it is prepared under. */
  readonly names: Map<string, string>
  /**
   * A prepared statement's name to the description of its rows (null: it returns none), read once
   * when it is prepared. Later executions skip the Describe: PGlite's JavaScript took about 5 % of
   * a posting's time parsing the same field names again on every execution (the API key's
   * statement has 25 columns). A prepared statement's row type cannot change (PostgreSQL refuses
   * with 0A000, and the statement is then prepared afresh), so the description stays true.
   */
  readonly descriptions: Map<string, PgliteProtocol.Description | null>
  counter: number
}

const preparedByInstance = new WeakMap<PGliteInterface, PreparedStatements>()

const concat = (parts: ReadonlyArray<Uint8Array>): Uint8Array => {
  let length = 0
  for (const part of parts) length += part.length
  const out = new Uint8Array(length)
  let offset = 0
  for (const part of parts) {
    out.set(part, offset)
    offset += part.length
  }
  return out
}

/**
 * Statements with parameters go to PGlite as one protocol message batch (Bind, Describe, Execute,
 * Sync, plus Parse the first time a text is seen) against a named prepared statement, instead of
 * `PGlite.query`, which makes six calls into the WebAssembly engine and parses and plans the text
 * every time. Measured on the project machine, a statement takes about a third of the time
 * (docs/performance.md, docs/decisions/0702). Parameters other than strings, numbers, bigints,
 * booleans and null (dates, arrays, objects, bytes) keep going through `PGlite.query`, whose
 * serializers know their column types. Like `PGlite.query`, the data folder is synced after a
 * statement that leaves no transaction open.
 */
class PgliteConnection implements SqlConnection.Connection {
  private readonly prepared: PreparedStatements

  constructor(readonly pglite: PGliteInterface) {
    // Prepared statements belong to the PGlite session, which several clients may share.
    let prepared = preparedByInstance.get(pglite)
    if (prepared === undefined) {
      prepared = { names: new Map(), descriptions: new Map(), counter: 0 }
      preparedByInstance.set(pglite, prepared)
    }
    this.prepared = prepared
  }

  private async run(sql: string, params: ReadonlyArray<unknown>, rowMode: "object" | "array"): Promise<ReadonlyArray<any>> {
    if (params.length === 0 || !params.every(isTextParameter)) {
      const result = await this.pglite.query<any>(sql, params as Array<unknown>, rowMode === "array" ? { rowMode } : undefined)
      return result.rows
    }
    const serialize = protocol.serialize
    let name = this.prepared.names.get(sql)
    const parts: Array<Uint8Array> = []
    let parsing: string | null = null
    if (name === undefined) {
      if (this.prepared.names.size < preparedStatementsMax) {
        name = `ledger_${++this.prepared.counter}`
        parsing = name
      } else {
        name = ""
      }
      parts.push(serialize.parse({ name, text: sql, types: [] }))
    }
    const values = params.map((value) =>
      value === null || value === undefined ? null : typeof value === "boolean" ? (value ? "t" : "f") : String(value)
    )
    // A statement prepared before answers with the description kept then; one prepared now, or
    // unnamed, asks for its description.
    const described = name === "" ? undefined : this.prepared.descriptions.get(name)
    parts.push(serialize.bind({ statement: name, values }))
    if (described === undefined) parts.push(serialize.describe({ type: "P" }))
    parts.push(serialize.execute({}), serialize.sync())
    // The answer's bytes, read by PgliteProtocol rather than by PGlite's own reader (ADR 0715).
    const chunks: Array<Uint8Array> = []
    await this.pglite.execProtocolRawStream(concat(parts), {
      syncToFs: false,
      // A view of PGlite's receive buffer, which the next chunk overwrites.
      onRawData: (chunk) => chunks.push(chunk.slice())
    })
    const answer = PgliteProtocol.read(
      chunks.length === 1 ? chunks[0]! : concat(chunks),
      described,
      this.pglite.parsers as Record<number, PgliteProtocol.Parser>,
      rowMode
    )
    if (answer.error !== null) {
      const error = answer.error
      // A batch that failed after its Parse succeeded leaves the statement behind: close it so the
      // name is not reused and nothing leaks.
      if (parsing !== null) await this.close(parsing)
      // A table changed under a prepared statement (DDL after it was prepared): prepare it afresh.
      if (parsing === null && name !== "" && error.code === "0A000") {
        this.prepared.names.delete(sql)
        this.prepared.descriptions.delete(name)
        await this.close(name)
        return this.run(sql, params, rowMode)
      }
      throw error
    }
    if (name !== "" && described === undefined && answer.description !== undefined) {
      this.prepared.descriptions.set(name, answer.description)
    }
    if (parsing !== null) this.prepared.names.set(sql, parsing)
    if (answer.status === "I") await this.pglite.syncToFs()
    return answer.rows
  }

  private async close(name: string): Promise<void> {
    const serialize = protocol.serialize
    await this.pglite.execProtocol(concat([serialize.close({ type: "S", name }), serialize.sync()]), {
      syncToFs: false,
      throwOnError: false
    }).catch(() => undefined)
  }

  private rows(operation: string, sql: string, params: ReadonlyArray<unknown>) {
    return Effect.tryPromise({ try: () => this.run(sql, params, "object"), catch: fail(operation) })
  }
  private values(operation: string, sql: string, params: ReadonlyArray<unknown>) {
    return Effect.tryPromise({ try: () => this.run(sql, params, "array"), catch: fail(operation) }) as Effect.Effect<
      ReadonlyArray<ReadonlyArray<unknown>>,
      SqlError
    >
  }
  execute(
    sql: string,
    params: ReadonlyArray<unknown>,
    transformRows: (<A extends object>(row: ReadonlyArray<A>) => ReadonlyArray<A>) | undefined
  ) {
    const rows = this.rows("execute", sql, params)
    return transformRows === undefined ? rows : Effect.map(rows, transformRows)
  }
  executeRaw(sql: string, params: ReadonlyArray<unknown>) {
    return Effect.tryPromise({ try: () => this.pglite.query<any>(sql, params as Array<unknown>), catch: fail("executeRaw") })
  }
  executeStream(
    sql: string,
    params: ReadonlyArray<unknown>,
    transformRows: (<A extends object>(row: ReadonlyArray<A>) => ReadonlyArray<A>) | undefined
  ) {
    return Stream.fromArrayEffect(this.execute(sql, params, transformRows) as Effect.Effect<Array<any>, SqlError>)
  }
  executeValues(sql: string, params: ReadonlyArray<unknown>) {
    return this.values("executeValues", sql, params)
  }
  executeValuesUnprepared(sql: string, params: ReadonlyArray<unknown>) {
    return this.values("executeValuesUnprepared", sql, params)
  }
  executeUnprepared(
    sql: string,
    params: ReadonlyArray<unknown>,
    transformRows: (<A extends object>(row: ReadonlyArray<A>) => ReadonlyArray<A>) | undefined
  ) {
    // Without parameters PGlite's exec takes several statements, as migrations need.
    const rows = params.length === 0
      ? Effect.map(
        Effect.tryPromise({ try: () => this.pglite.exec(sql), catch: fail("executeUnprepared") }),
        (results) => (results[results.length - 1]?.rows ?? []) as ReadonlyArray<any>
      )
      : this.rows("executeUnprepared", sql, params)
    return transformRows === undefined ? rows : Effect.map(rows, transformRows)
  }
}

/** A client over an open PGlite. The caller owns the PGlite's lifetime. */
export const fromPglite = (
  pglite: PGliteInterface
): Effect.Effect<SqlClient.SqlClient, never, Scope.Scope | Reactivity.Reactivity> =>
  Effect.gen(function*() {
    const connection = new PgliteConnection(pglite)
    const semaphore = Semaphore.makeUnsafe(1)
    // A statement outside a transaction holds the permit only while it runs.
    const acquirer = Effect.uninterruptibleMask((restore) => {
      const fiber = Fiber.getCurrent()!
      const scope = Context.getUnsafe(fiber.context, Scope.Scope)
      return Effect.as(
        Effect.tap(restore(semaphore.take(1)), () => Scope.addFinalizer(scope, semaphore.release(1))),
        connection as SqlConnection.Connection
      )
    })
    return yield* SqlClient.make({
      acquirer,
      transactionAcquirer: acquirer,
      compiler: PgClient.makeCompiler(),
      driver: "pglite",
      spanAttributes: [["db.system.name", "postgresql"]]
    }).pipe(Effect.orDie)
  })

/**
 * PostgreSQL's start settings for the embedded store: PGlite's own, with a 16 MB buffer pool
 * instead of the 128 MB that initdb writes into postgresql.conf. PGlite allocates the pool in its
 * WebAssembly memory and touches all of it at start, so it is resident for the life of the process
 * although a single connection's working set is far smaller; a data file not in the pool is one
 * read from the operating system's file cache away (docs/decisions/0704-pglite-memory.md). Only
 * memory settings change: durability is untouched.
 */
export const startParams: ReadonlyArray<string> = [...PGlite.defaultStartParams, "-c", "shared_buffers=16MB"]

/**
 * V8 flags that keep WebAssembly at its baseline compiler (Liftoff), without the optimizing tier.
 * V8 compiles a hot function again with TurboFan; PostgreSQL's SQL grammar (`raw_parser`, 105 KB
 * of WebAssembly) becomes hot after a few hundred statements are parsed (the migrations parse
 * more) and its compilation alone takes about 640 MB of compiler memory for a second, which is
 * most of a PGlite process's peak. The flags are process-wide: they apply to every WebAssembly
 * module compiled after them.
 */
const baselineWasmFlags = ["--no-wasm-tier-up", "--no-wasm-dynamic-tiering"] as const

let baselineWasmSet = false
/** Sets `baselineWasmFlags` for this process, before PGlite's module is compiled. */
export const useBaselineWasm = (): void => {
  if (baselineWasmSet) return
  baselineWasmSet = true
  for (const flag of baselineWasmFlags) setFlagsFromString(flag)
}

const pgliteEntry = (): string | null => {
  try {
    return pathToFileURL(createRequire(import.meta.url).resolve("@electric-sql/pglite")).href
  } catch {
    return null
  }
}

/** Runs in the child: a new cluster in the folder given, or in memory and written to stdout as a tar. */
const initdbScript = `
const { PGlite } = await import(process.argv[1])
const folder = process.argv[2]
const pglite = new PGlite(folder === "" ? {} : { dataDir: folder })
await pglite.waitReady
if (folder === "") {
  const tar = new Uint8Array(await (await pglite.dumpDataDir("none")).arrayBuffer())
  await new Promise((resolve, reject) => process.stdout.write(tar, (error) => error ? reject(error) : resolve()))
}
await pglite.close()
`

/**
 * A new database cluster made by a short-lived child process: PGlite runs PostgreSQL's initdb in a
 * second WebAssembly instance beside the first, and at its peak that takes about 0.6 GB more than
 * the database it leaves (1 GB with the optimizing compiler), memory the process then keeps. For a
 * folder the result is null, the cluster in place; for memory (no folder) it is the cluster as a tar
 * to load. Undefined when the child could not do it: PGlite then runs initdb in this process, as it
 * always did.
 *
 * The child writes a folder's cluster into a staging folder inside it (`.initdb-<pid>-<ms>`), at
 * its peak of memory and file by file, and only a child that exits 0 has its cluster moved into
 * place: each entry renamed up into the folder, `PG_VERSION` last. A child killed part way (by an
 * OOM killer, in a small container) leaves no `PG_VERSION` in the folder, so no half-made cluster
 * is ever opened as if it were whole. Inside the folder, not beside it, because the folder is
 * often a mount point (a container's volume): it cannot be replaced, and a rename from outside it
 * would cross file systems. A folder that holds anything but earlier staging folders (a start cut
 * off) is left to PGlite, as before. `script` is the child's program (argv: PGlite's entry, then
 * the folder or ""), replaced only by tests.
 */
export const initdbInChild = (dataDir: string | undefined, script: string = initdbScript): Promise<Blob | null | undefined> => {
  // Only a Node executable runs the child (not Electron's, whose execPath is the application).
  const entry = process.release.name === "node" && process.versions.electron === undefined ? pgliteEntry() : null
  if (entry === null) return Promise.resolve(undefined)
  const staging = dataDir === undefined ? undefined : stage(dataDir)
  if (staging === null) return Promise.resolve(undefined)
  return new Promise((resolve) => {
    const chunks: Array<Buffer> = []
    const child = spawn(
      process.execPath,
      [...baselineWasmFlags, "--input-type=module", "-e", script, entry, staging?.folder ?? ""],
      { stdio: ["ignore", staging === undefined ? "pipe" : "ignore", "ignore"], windowsHide: true }
    )
    child.stdout?.on("data", (chunk: Buffer) => chunks.push(chunk))
    child.on("error", () => {
      staging?.discard()
      resolve(undefined)
    })
    child.on("close", (code) => {
      if (staging === undefined) {
        return resolve(code === 0 && chunks.length > 0 ? new Blob([Buffer.concat(chunks)]) : undefined)
      }
      const moved = code === 0 && staging.moveIntoPlace()
      if (!moved) staging.discard()
      resolve(moved ? null : undefined)
    })
  })
}

const stagingPrefix = ".initdb-"

/**
 * A staging folder inside `dataDir` for the child's cluster, or null where there is none to make:
 * the folder holds something besides earlier staging folders (removed here), or cannot be written.
 */
const stage = (dataDir: string) => {
  const madeFolder = !existsSync(dataDir)
  const folder = join(dataDir, `${stagingPrefix}${process.pid}-${Date.now()}`)
  try {
    if (!madeFolder) {
      const entries = readdirSync(dataDir)
      if (entries.some((name) => !name.startsWith(stagingPrefix))) return null
      for (const name of entries) rmSync(join(dataDir, name), { recursive: true, force: true })
    }
    mkdirSync(folder, { recursive: true })
  } catch {
    return null
  }
  return {
    folder,
    /** The cluster's entries renamed up into the folder, `PG_VERSION` last; false when it cannot be. */
    moveIntoPlace: (): boolean => {
      try {
        if (!existsSync(join(folder, "PG_VERSION"))) return false
        const names = readdirSync(folder).filter((name) => name !== "PG_VERSION")
        for (const name of [...names, "PG_VERSION"]) renameSync(join(folder, name), join(dataDir, name))
        rmdirSync(folder)
        return true
      } catch {
        return false
      }
    },
    /** The staging folder removed, and the data folder too when it was made for it and is empty. */
    discard: (): void => {
      rmSync(folder, { recursive: true, force: true })
      if (madeFolder) {
        try {
          rmdirSync(dataDir)
        } catch {
          // Not empty after all: something else wrote there, and it stays.
        }
      }
    }
  }
}

/**
 * Opens PGlite the way the embedded store runs it: with `startParams`, the WebAssembly baseline
 * compiler when `optimizeWasm` is false (a lower peak, a slower store; the default keeps V8's
 * optimizing tier and the process's flags as they are), and a new cluster made by a child process (above) when the
 * folder holds none or the database is in memory. Everything else, durability included, is
 * PGlite's default: a folder is written through on every commit (docs/decisions/0002-storage.md).
 */
export const open = async (options: PGliteOptions & { readonly optimizeWasm?: boolean } = {}): Promise<PGlite> => {
  const { optimizeWasm = true, ...pgliteOptions } = options
  if (!optimizeWasm) useBaselineWasm()
  let loadDataDir = pgliteOptions.loadDataDir
  const custom = loadDataDir !== undefined || pgliteOptions.fs !== undefined || pgliteOptions.noInitDb === true
  const dataDir = pgliteOptions.dataDir
  const memory = dataDir === undefined || dataDir === "" || dataDir.startsWith("memory://")
  if (!custom && (memory || (!dataDir.includes("://") && !existsSync(join(dataDir, "PG_VERSION"))))) {
    const made = await initdbInChild(memory ? undefined : dataDir)
    if (made instanceof Blob) loadDataDir = made
  }
  const instance = new PGlite({
    ...pgliteOptions,
    startParams: pgliteOptions.startParams ?? [...startParams],
    ...(loadDataDir === undefined ? {} : { loadDataDir })
  })
  await instance.waitReady
  return instance
}

/** A layer that opens PGlite (a folder, or memory when none), and closes it with the layer. */
export const layer = (
  options: PGliteOptions & { readonly pglite?: PGliteInterface; readonly optimizeWasm?: boolean }
): Layer.Layer<SqlClient.SqlClient, SqlError> =>
  Layer.effect(SqlClient.SqlClient)(Effect.gen(function*() {
    const { pglite: given, ...openOptions } = options
    const pglite = given ?? (yield* Effect.acquireRelease(
      Effect.tryPromise({ try: () => open(openOptions), catch: fail("open") }),
      (instance) => Effect.promise(() => instance.close()).pipe(Effect.timeoutOption(5_000))
    ))
    return yield* fromPglite(pglite)
  })).pipe(Layer.provide(Reactivity.layer))

import { parse, PGlite, type PGliteInterface, type PGliteOptions, protocol } from "@electric-sql/pglite"
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
      prepared = { names: new Map(), counter: 0 }
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
    parts.push(
      serialize.bind({ statement: name, values }),
      serialize.describe({ type: "P" }),
      serialize.execute({}),
      serialize.sync()
    )
    let result: Awaited<ReturnType<PGliteInterface["execProtocol"]>>
    try {
      result = await this.pglite.execProtocol(concat(parts), { syncToFs: false })
    } catch (error) {
      // A batch that failed after its Parse succeeded leaves the statement behind: close it so the
      // name is not reused and nothing leaks.
      if (parsing !== null) await this.close(parsing)
      // A table changed under a prepared statement (DDL after it was prepared): prepare it afresh.
      if (parsing === null && name !== "" && (error as { code?: string }).code === "0A000") {
        this.prepared.names.delete(sql)
        await this.close(name)
        return this.run(sql, params, rowMode)
      }
      throw error
    }
    if (parsing !== null) this.prepared.names.set(sql, parsing)
    const ready = result.messages[result.messages.length - 1] as { name?: string; status?: string } | undefined
    if (ready?.name === "readyForQuery" && ready.status === "I") await this.pglite.syncToFs()
    return parse.parseResults(result.messages, this.pglite.parsers, rowMode === "array" ? { rowMode } : undefined)[0]?.rows ?? []
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

/** A layer that opens PGlite (a folder, or memory when none), and closes it with the layer. */
export const layer = (options: PGliteOptions & { readonly pglite?: PGliteInterface }): Layer.Layer<SqlClient.SqlClient, SqlError> =>
  Layer.effect(SqlClient.SqlClient)(Effect.gen(function*() {
    const pglite = options.pglite ?? (yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: async () => {
          const instance = new PGlite(options)
          await instance.waitReady
          return instance
        },
        catch: fail("open")
      }),
      (instance) => Effect.promise(() => instance.close()).pipe(Effect.timeoutOption(5_000))
    ))
    return yield* fromPglite(pglite)
  })).pipe(Layer.provide(Reactivity.layer))

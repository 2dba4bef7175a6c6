import { PGlite, type PGliteInterface, type PGliteOptions } from "@electric-sql/pglite"
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

class PgliteConnection implements SqlConnection.Connection {
  constructor(readonly pglite: PGliteInterface) {}

  private rows(operation: string, sql: string, params: ReadonlyArray<unknown>) {
    return Effect.map(
      Effect.tryPromise({ try: () => this.pglite.query<any>(sql, params as Array<unknown>), catch: fail(operation) }),
      (result) => result.rows as ReadonlyArray<any>
    )
  }
  private values(operation: string, sql: string, params: ReadonlyArray<unknown>) {
    return Effect.map(
      Effect.tryPromise({
        try: () => this.pglite.query<any>(sql, params as Array<unknown>, { rowMode: "array" }),
        catch: fail(operation)
      }),
      (result) => result.rows as ReadonlyArray<ReadonlyArray<unknown>>
    )
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

import { existsSync } from "node:fs"
import { join } from "node:path"
import { PGlite, type PGliteInterface, type PGliteOptions } from "@electric-sql/pglite"
import { PgClient } from "@effect/sql-pg"
import { Context, Effect, Fiber, Layer, Scope, Semaphore } from "effect"
import { Reactivity } from "effect/reactivity"
import { SqlClient, type SqlConnection } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import { PgliteConnection } from "./PgliteConnection.ts"
import { fail } from "./PgliteErrors.ts"
import { initdbInChild, useBaselineWasm } from "./PgliteInitdb.ts"

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

export { initdbInChild, useBaselineWasm }

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
 * Opens PGlite the way the embedded store runs it: with `startParams`, the WebAssembly baseline
 * compiler when `optimizeWasm` is false (a lower peak, a slower store; the default keeps V8's
 * optimizing tier and the process's flags as they are), and a new cluster made by a child process (`PgliteInitdb.ts`) when the
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

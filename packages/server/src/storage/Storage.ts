import { PgClient } from "@effect/sql-pg"
import type { PGlite } from "@electric-sql/pglite"
import { Context, Effect, Layer, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { Migrations, ReadReplica } from "@ledger/engine"
import * as PgliteSql from "./pglite/PgliteSql.ts"

export interface StorageOptions {
  readonly databaseUrl?: string | undefined
  /** PGlite folder, or "memory". */
  readonly dataDir?: string | undefined
  /** An already open PGlite (the testkit's clones of a migrated template). */
  readonly pglite?: PGlite | undefined
  /** PostgreSQL: the schema to work in (tests use a fresh one each). */
  readonly searchPath?: string | undefined
  readonly maxConnections?: number | undefined
  /**
   * PostgreSQL behind a transaction-pooling PgBouncer (LEDGER_DATABASE_POOLER=transaction): no
   * statement is prepared by name, since the next transaction may run on another server
   * connection that never saw it (docs/decisions/2401-pgbouncer-transaction-pooling.md).
   */
  readonly databasePooler?: "transaction" | undefined
  /**
   * PGlite: let V8 optimize PostgreSQL's WebAssembly as it gets hot (the default). About a third
   * more throughput on PGlite, at the price of a peak about 0.6 GB higher once the SQL grammar is
   * optimized (docs/decisions/0704-pglite-memory.md). False keeps PostgreSQL on V8's baseline
   * compiler, for a small machine (`LEDGER_PGLITE_WASM=baseline`); that flag is the process's and
   * applies to every WebAssembly module compiled after the store opens.
   */
  readonly pgliteOptimizedWasm?: boolean | undefined
  /**
   * PostgreSQL: a hot standby of `databaseUrl` that reports read from while it is fresh
   * (LEDGER_READ_DATABASE_URL; the engine's store/ReadReplica.ts, ADR 2410). Unset: every read on
   * the primary.
   */
  readonly readDatabaseUrl?: string | undefined
  /** How far behind the primary the replica may be for a report to read it (ms; default 5000). */
  readonly readMaxStalenessMs?: number | undefined
}

/** The staleness bound when none is set: reports at most five seconds behind. */
export const readMaxStalenessMsDefault = 5000

/** PostgreSQL's start settings for embedded PGlite (a smaller buffer pool; see PgliteSql). */
export const pgliteStartParams: ReadonlyArray<string> = PgliteSql.startParams

export const kind = (options: StorageOptions): "postgresql" | "pglite" =>
  options.databaseUrl === undefined ? "pglite" : "postgresql"

/**
 * The SQL client: PostgreSQL when a URL is given, else embedded PGlite. PGlite on a folder writes
 * through to the file system on every commit, so a crashed process loses nothing it committed;
 * it does not fsync, so a crashed machine may (docs/decisions/0002-storage.md). PGlite opens with
 * a 16 MB buffer pool (on V8's baseline WebAssembly compiler when `pgliteOptimizedWasm` is false), and a
 * new folder (or memory) is initialized by a child process (docs/decisions/0704-pglite-memory.md).
 */
export const client = (options: StorageOptions): Layer.Layer<SqlClient.SqlClient, unknown> => {
  if (options.databaseUrl !== undefined) {
    return PgClient.layer({
      url: Redacted.make(options.databaseUrl),
      maxConnections: options.maxConnections ?? 20,
      applicationName: "ledger",
      // Statements outside a transaction (authentication, reads) from concurrent requests share a
      // connection and travel pipelined, several to one socket write; transactions still hold a
      // connection of their own. Twice the reads a second on 2 cores (docs/performance.md).
      multiplex: true,
      ...(options.databasePooler === "transaction" ? { prepare: false } : {}),
      ...(options.searchPath === undefined ? {} : { startupParameters: { search_path: options.searchPath } })
    })
  }
  if (options.pglite !== undefined) return PgliteSql.layer({ pglite: options.pglite })
  const dataDir = options.dataDir ?? "./.ledger"
  const optimizeWasm = options.pgliteOptimizedWasm !== false
  return PgliteSql.layer(dataDir === "memory" ? { optimizeWasm } : { dataDir, optimizeWasm })
}

/**
 * The read router of the engine (`ReadReplica`): over a client of the replica when one is
 * configured, else nothing (the engine's default reads the primary). The replica's connections
 * are apart from the primary's and run no migration: a standby replays the primary's schema.
 */
export const readReplica = (options: StorageOptions): Layer.Layer<never, unknown, SqlClient.SqlClient> => {
  if (options.readDatabaseUrl === undefined) return Layer.empty
  if (options.databaseUrl === undefined) return Layer.effectDiscard(Effect.die(new Error("a read database needs DATABASE_URL")))
  const replicaClient = PgClient.layer({
    url: Redacted.make(options.readDatabaseUrl),
    maxConnections: options.maxConnections ?? 20,
    applicationName: "ledger-reports",
    multiplex: true,
    // A replica behind the same kind of pooler as the primary (LEDGER_DATABASE_POOLER) prepares nothing by name either.
    ...(options.databasePooler === "transaction" ? { prepare: false } : {}),
    ...(options.searchPath === undefined ? {} : { startupParameters: { search_path: options.searchPath } })
  })
  return Layer.unwrap(Effect.map(Layer.build(replicaClient), (context) =>
    ReadReplica.layer({
      replica: Context.get(context, SqlClient.SqlClient),
      maxStalenessMs: options.readMaxStalenessMs ?? readMaxStalenessMsDefault
    })))
}

/** The SQL client with every migration applied before anything uses it. */
export const layer = (options: StorageOptions): Layer.Layer<SqlClient.SqlClient, unknown> =>
  Layer.effectDiscard(Effect.gen(function*() {
    if (options.searchPath !== undefined && options.databaseUrl !== undefined) {
      const sql = yield* SqlClient.SqlClient
      if (!/^[a-z_][a-z0-9_]{0,62}$/.test(options.searchPath)) return yield* Effect.die(new Error("bad schema name"))
      yield* sql.unsafe(`CREATE SCHEMA IF NOT EXISTS ${options.searchPath}`)
    }
    yield* Migrations.run()
  })).pipe(Layer.provideMerge(client(options)))

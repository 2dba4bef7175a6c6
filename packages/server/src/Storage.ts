import { PgClient } from "@effect/sql-pg"
import type { PGlite } from "@electric-sql/pglite"
import { Effect, Layer, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { Migrations } from "@ledger/engine"
import * as PgliteSql from "./PgliteSql.ts"

export interface StorageOptions {
  readonly databaseUrl?: string | undefined
  /** PGlite folder, or "memory". */
  readonly dataDir?: string | undefined
  /** An already open PGlite (the testkit's clones of a migrated template). */
  readonly pglite?: PGlite | undefined
  /** PostgreSQL: the schema to work in (tests use a fresh one each). */
  readonly searchPath?: string | undefined
  readonly maxConnections?: number | undefined
}

export const kind = (options: StorageOptions): "postgresql" | "pglite" =>
  options.databaseUrl === undefined ? "pglite" : "postgresql"

/**
 * The SQL client: PostgreSQL when a URL is given, else embedded PGlite. PGlite on a folder writes
 * through to the file system on every commit, so a crashed process loses nothing it committed;
 * it does not fsync, so a crashed machine may (docs/decisions/0002-storage.md).
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
      ...(options.searchPath === undefined ? {} : { startupParameters: { search_path: options.searchPath } })
    })
  }
  if (options.pglite !== undefined) return PgliteSql.layer({ pglite: options.pglite })
  const dataDir = options.dataDir ?? "./.ledger"
  return PgliteSql.layer(dataDir === "memory" ? {} : { dataDir })
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

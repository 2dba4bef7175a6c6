import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * PLANNER STATISTICS that keep up with the ledger's growth
 * (docs/decisions/0707-planner-statistics.md).
 *
 * PostgreSQL plans a statement from what it knows of each table's size, and keeps the plan of a
 * prepared statement or of a statement in a PL/pgSQL trigger for as long as the connection lives,
 * until the table's statistics change. Autovacuum changes them as a table grows. PGlite has no
 * autovacuum, and a PostgreSQL server may run with it off: then the plans made while the ledger's
 * tables were nearly empty, sequential scans (the cheapest way to read a page or two), stay in
 * use as the tables grow, and every posting reads whole tables. Measured on PostgreSQL with
 * autovacuum off: 16 callers went from 1,188 to 515 postings a second over 15,000 postings, and
 * back to 2,347 a second within seconds of an ANALYZE.
 *
 * So the server analyzes, now and then, each table of its schema that has outgrown what its last
 * analysis saw: more than `growthFactor` times the pages it had then, plus `growthPagesMin`, with a
 * small sample (`statisticsTarget`). Pages on disk are read from the files (no statistics
 * collector needed, so the same on PGlite). Where autovacuum runs it has usually analyzed them
 * first, and this finds nothing to do.
 */

/**
 * How much a table may grow past its last analysis before it is analyzed again. Only plans made
 * for a nearly empty table are wrong for the ledger's lookups, so doubling is enough; each analysis
 * makes every connection plan that table's statements again, which showed in the tail of an HTTP
 * benchmark at 1.2 (ADR 0707).
 */
export const growthFactor = 2
/** Pages a table may gain on top of that: a new or small table is analyzed once it has a few. */
export const growthPagesMin = 8
/** The most tables analyzed in one pass: bounds a pass's time; the rest wait for the next. */
export const tablesPerPassMax = 16
/**
 * The statistics target of these analyses: a sample of 300 times it, 3,000 rows, enough for a
 * table's size and the plans' shapes, and a tenth of the default's work (on PGlite, which has one
 * connection, every other statement waits for an ANALYZE). Autovacuum, where it runs, analyzes
 * with the server's own target.
 */
export const statisticsTarget = 10

/** Analyzes the tables of the current schema that have outgrown their statistics; returns their names. */
export const analyzeGrown = Effect.fn("Statistics.analyzeGrown")(function*() {
  const sql = yield* SqlClient.SqlClient
  const grown = yield* sql<{ table_name: string }>`
    SELECT c.relname AS table_name
    FROM pg_class c
    WHERE c.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema())
      AND c.relkind = 'r'
      AND pg_relation_size(c.oid) / 8192 > c.relpages * ${growthFactor}::float8 + ${growthPagesMin}::int
    ORDER BY pg_relation_size(c.oid) DESC
    LIMIT ${tablesPerPassMax}`.pipe(Effect.orDie)
  for (const { table_name } of grown) {
    // The name comes from the catalog, quoted as an identifier; ANALYZE takes no parameters.
    yield* sql.withTransaction(Effect.gen(function*() {
      yield* sql.unsafe(`SET LOCAL default_statistics_target = ${statisticsTarget}`)
      yield* sql.unsafe(`ANALYZE "${table_name.replace(/"/g, "\"\"")}"`)
    })).pipe(Effect.orDie)
  }
  return grown.map((row) => row.table_name)
})

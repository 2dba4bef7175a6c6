import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The live schema as one readable text, read from the catalogs of the current schema: what
 * `src/store/schema.sql` holds, so that a reviewer reads the tables, indexes, constraints,
 * triggers and functions the migrations make in one file, not as the sum of five baselines and
 * every migration after them. `pnpm schema:dump` rewrites the file; test/store/schema.test.ts
 * makes the text afresh on a migrated database and compares.
 *
 * Made by queries, not by pg_dump: PGlite has no pg_dump, and the text must be the same on PGlite
 * (PostgreSQL 17) and on a PostgreSQL server of another version, in any schema. So:
 * - everything is ordered by name in bytes (COLLATE "C"), whatever the database's collation;
 * - the current schema's name is taken out of the definitions the catalog functions qualify with
 *   it (`pg_get_functiondef`, `pg_get_indexdef`, `pg_get_triggerdef` name their table or function
 *   in full), so a test's scratch schema dumps as `public` does;
 * - figures are read as text, so no driver's number types come into it.
 * PostgreSQL 15 and 17 print every definition here alike; a text that came to differ between
 * versions would be normalised in `normalise`, with its reason.
 */

/** The first line of the file, which says where it comes from. */
export const header =
  "-- The schema the migrations make (packages/engine/src/store/migrations), read from the catalogs by\n" +
  "-- packages/engine/src/store/SchemaDump.ts. Do not edit: `pnpm schema:dump` rewrites this file, and\n" +
  "-- test/store/schema.test.ts fails when it differs from what the migrations make.\n"

/** Removes the current schema's qualification from a catalog function's text. */
const unqualified = (schema: string, text: string): string => {
  const escaped = schema.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
  return text.replace(new RegExp(`(?<![A-Za-z0-9_$"])("${escaped}"|${escaped})\\.`, "g"), "")
}

/** Version-dependent catalog text made the same; none needed between PostgreSQL 15 and 17 so far. */
const normalise = (text: string): string => text

interface Sequence {
  readonly name: string
  readonly type: string
  readonly start: string
  readonly increment: string
  readonly min: string
  readonly max: string
  readonly cache: string
  readonly cycle: boolean
}

interface Column {
  readonly table_name: string
  readonly name: string
  readonly type: string
  readonly not_null: boolean
  readonly default_value: string | null
  readonly collation: string | null
}

interface Definition {
  readonly table_name: string
  readonly name: string
  readonly definition: string
}

const sequences = (sql: SqlClient.SqlClient) =>
  sql<Sequence>`
    SELECT c.relname AS name, format_type(s.seqtypid, NULL) AS type, s.seqstart::text AS start,
      s.seqincrement::text AS increment, s.seqmin::text AS min, s.seqmax::text AS max, s.seqcache::text AS cache,
      s.seqcycle AS cycle
    FROM pg_sequence s
    JOIN pg_class c ON c.oid = s.seqrelid
    WHERE c.relnamespace = current_schema()::regnamespace
    ORDER BY c.relname COLLATE "C"`

const columns = (sql: SqlClient.SqlClient) =>
  sql<Column>`
    SELECT c.relname AS table_name, a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type,
      a.attnotnull AS not_null, pg_get_expr(d.adbin, d.adrelid) AS default_value,
      CASE WHEN a.attcollation <> t.typcollation THEN co.collname END AS collation
    FROM pg_class c
    JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
    JOIN pg_type t ON t.oid = a.atttypid
    LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
    LEFT JOIN pg_collation co ON co.oid = a.attcollation
    WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p')
    ORDER BY c.relname COLLATE "C", a.attnum`

/** Primary keys first, then unique keys, exclusions, foreign keys and checks, each kind by name. */
const constraints = (sql: SqlClient.SqlClient) =>
  sql<Definition>`
    SELECT c.relname AS table_name, k.conname AS name, pg_get_constraintdef(k.oid) AS definition
    FROM pg_constraint k
    JOIN pg_class c ON c.oid = k.conrelid
    WHERE c.relnamespace = current_schema()::regnamespace AND k.contype IN ('p', 'u', 'x', 'f', 'c')
    ORDER BY c.relname COLLATE "C", position(k.contype IN 'puxfc'), k.conname COLLATE "C"`

/** Indexes of their own: those that back a constraint are shown by it. */
const indexes = (sql: SqlClient.SqlClient) =>
  sql<Definition>`
    SELECT c.relname AS table_name, i.relname AS name, pg_get_indexdef(i.oid) AS definition
    FROM pg_index x
    JOIN pg_class c ON c.oid = x.indrelid
    JOIN pg_class i ON i.oid = x.indexrelid
    WHERE c.relnamespace = current_schema()::regnamespace
      AND NOT EXISTS (SELECT FROM pg_constraint k WHERE k.conindid = i.oid AND k.contype IN ('p', 'u', 'x'))
    ORDER BY c.relname COLLATE "C", i.relname COLLATE "C"`

/** Triggers made by a migration; those PostgreSQL makes for foreign keys are shown by them. */
const triggers = (sql: SqlClient.SqlClient) =>
  sql<Definition>`
    SELECT c.relname AS table_name, g.tgname AS name, pg_get_triggerdef(g.oid) AS definition
    FROM pg_trigger g
    JOIN pg_class c ON c.oid = g.tgrelid
    WHERE c.relnamespace = current_schema()::regnamespace AND NOT g.tgisinternal
    ORDER BY c.relname COLLATE "C", g.tgname COLLATE "C"`

/** Functions by name, then by their arguments (an overload would be dumped beside its namesake). */
const functions = (sql: SqlClient.SqlClient) =>
  sql<Definition>`
    SELECT '' AS table_name, p.proname AS name, pg_get_functiondef(p.oid) AS definition
    FROM pg_proc p
    WHERE p.pronamespace = current_schema()::regnamespace
    ORDER BY p.proname COLLATE "C", pg_get_function_identity_arguments(p.oid) COLLATE "C"`

/**
 * What the dump does not show yet (views, types of their own, ...): listed by kind and name, so a
 * migration that adds one shows in the file and its reviewer knows to extend the dump.
 */
const notShown = (sql: SqlClient.SqlClient) =>
  sql<{ readonly kind: string; readonly name: string }>`
    SELECT kind, name FROM (
      SELECT CASE c.relkind WHEN 'v' THEN 'view' WHEN 'm' THEN 'materialized view' WHEN 'f' THEN 'foreign table'
          WHEN 'c' THEN 'composite type' ELSE 'relation of kind ' || c.relkind::text END AS kind, c.relname AS name
      FROM pg_class c
      WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind NOT IN ('r', 'p', 'i', 'I', 'S', 't')
      UNION ALL
      SELECT 'type', t.typname
      FROM pg_type t
      WHERE t.typnamespace = current_schema()::regnamespace AND t.typtype IN ('e', 'd', 'r', 'm')
    ) objects
    ORDER BY kind COLLATE "C", name COLLATE "C"`

const byTable = <Row extends { readonly table_name: string }>(rows: ReadonlyArray<Row>) => {
  const grouped = new Map<string, Array<Row>>()
  for (const row of rows) {
    const group = grouped.get(row.table_name)
    if (group === undefined) grouped.set(row.table_name, [row])
    else group.push(row)
  }
  return grouped
}

/** The current schema's tables, sequences, indexes, constraints, triggers and functions, as text. */
export const dump = Effect.fn("SchemaDump.dump")(function*() {
  const sql = yield* SqlClient.SqlClient
  const schema = (yield* sql<{ readonly schema: string }>`SELECT current_schema() AS schema`)[0]?.schema ?? "public"
  const clean = (text: string) => normalise(unqualified(schema, text))
  // A function's text is its header, qualified, and its body, which is left exactly as written.
  const cleanFunction = (text: string) => {
    const headerEnd = text.indexOf("\n")
    return normalise(unqualified(schema, text.slice(0, headerEnd)) + text.slice(headerEnd))
  }
  const tableColumns = byTable(yield* columns(sql))
  const tableConstraints = byTable(yield* constraints(sql))
  const tableIndexes = byTable(yield* indexes(sql))
  const tableTriggers = byTable(yield* triggers(sql))

  const parts: Array<string> = [header]
  for (const sequence of yield* sequences(sql)) {
    parts.push(`CREATE SEQUENCE ${sequence.name} AS ${sequence.type} START WITH ${sequence.start} INCREMENT BY ` +
      `${sequence.increment} MINVALUE ${sequence.min} MAXVALUE ${sequence.max} CACHE ${sequence.cache}` +
      `${sequence.cycle ? " CYCLE" : ""};\n`)
  }
  for (const [table, tableColumnsOf] of tableColumns) {
    const lines = tableColumnsOf.map((column) =>
      `  ${column.name} ${column.type}` +
      (column.collation === null ? "" : ` COLLATE "${column.collation}"`) +
      (column.not_null ? " NOT NULL" : "") +
      (column.default_value === null ? "" : ` DEFAULT ${clean(column.default_value)}`)
    )
    for (const constraint of tableConstraints.get(table) ?? []) {
      lines.push(`  CONSTRAINT ${constraint.name} ${clean(constraint.definition)}`)
    }
    const after = [...(tableIndexes.get(table) ?? []), ...(tableTriggers.get(table) ?? [])]
      .map((definition) => `${clean(definition.definition)};\n`)
    parts.push(`CREATE TABLE ${table} (\n${lines.join(",\n")}\n);\n${after.join("")}`)
  }
  for (const definition of yield* functions(sql)) {
    parts.push(`${cleanFunction(definition.definition).trimEnd()};\n`)
  }
  for (const object of yield* notShown(sql)) parts.push(`-- Not shown by this dump: ${object.kind} ${object.name}.\n`)
  return parts.join("\n")
})

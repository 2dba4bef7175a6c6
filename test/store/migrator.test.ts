import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Migrations } from "@ledger/engine"
import { makeTestApp, type TestApp } from "../support/index.ts"
import { inMigratedSchema } from "../support/migrations.ts"

/**
 * The migrator applies what a database lacks, once, and refuses a database made by another line of
 * migrations: one made before issue 18 squashed migrations 0001-0016 into one baseline per area
 * records numbers 1 to 5 under other names, and this build's baselines on top of it would leave a
 * schema that is neither.
 */

let app: TestApp
beforeAll(async () => {
  app = await makeTestApp()
}, 60_000)
afterAll(() => app?.close())

/** The tables of the scratch schema, by name. */
const tablesIn = (sql: SqlClient.SqlClient, schema: string) =>
  Effect.map(
    sql<{ relname: string }>`SELECT relname FROM pg_class
      WHERE relnamespace = ${schema}::regnamespace AND relkind = 'r' ORDER BY relname COLLATE "C"`,
    (rows) => rows.map((row) => row.relname)
  )

/** The migrator over the scratch schema's transaction. */
const run = (sql: SqlClient.SqlClient) => Effect.provideService(Migrations.run(), SqlClient.SqlClient, sql)

describe("migrator", () => {
  it("migrates an empty schema with every baseline, and a second run applies nothing", async () => {
    const { value } = await inMigratedSchema(app, 0, ({ sql, schema }) =>
      Effect.gen(function*() {
        const first = yield* run(sql)
        const second = yield* run(sql)
        return { first, second, tables: yield* tablesIn(sql, schema) }
      }))
    // An area whose tables have not landed has an empty baseline, which is neither applied nor recorded.
    expect(value.first).toEqual(Migrations.migrations.filter((migration) => migration.sql.trim() !== "").map((migration) => migration.id))
    expect(value.second).toEqual([])
    expect(value.tables).toContain("journal_lines")
    expect(value.tables).toContain("ledger_migrations")
  })

  it("runs beside a later build's migrations, as replicas upgrading one by one do", async () => {
    const { value } = await inMigratedSchema(app, 0, ({ sql }) =>
      Effect.gen(function*() {
        yield* run(sql)
        yield* sql`INSERT INTO ledger_migrations (id, name) VALUES (${Math.max(...Migrations.migrations.map((migration) => migration.id)) + 1}, 'a_later_change')`
        return yield* run(sql)
      }))
    expect(value).toEqual([])
  })

  it("refuses a database made before the squash, and changes nothing in it", async () => {
    const before = ["foundation", "ledger", "sales", "banking", "reports", "posting_path", "group_commit"]
    const { value } = await inMigratedSchema(app, 0, ({ sql, schema }) =>
      Effect.gen(function*() {
        yield* sql.unsafe(`CREATE TABLE ledger_migrations (
          id int PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`)
        for (const [index, name] of before.entries()) {
          yield* sql`INSERT INTO ledger_migrations (id, name) VALUES (${index + 1}, ${name})`
        }
        const refusal = yield* Effect.flip(run(sql))
        return { refusal, tables: yield* tablesIn(sql, schema) }
      }))
    expect(value.refusal).toBeInstanceOf(Migrations.MigrationsMismatch)
    const refusal = value.refusal as Migrations.MigrationsMismatch
    // Every recorded number this build names otherwise: the five squashed baselines and two area baselines.
    expect(refusal.recorded.map((row) => row.name)).toEqual(before)
    expect(refusal.message).toMatch(/squashed into one baseline per area.*discard it/)
    expect(value.tables).toEqual(["ledger_migrations"])
  })
})

import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Migrations, SchemaDump } from "@ledger/engine"
import { makeTestApp, type TestApp } from "../support/index.ts"
import { inMigratedSchema } from "../support/migrations.ts"

/**
 * The checked-in schema dump (packages/engine/src/store/schema.sql) is what the migrations make:
 * read afresh from the catalogs of a migrated database, PGlite here or PostgreSQL with
 * DATABASE_URL, it is the file byte for byte. A migration changed without `pnpm schema:dump` fails
 * here, and the diff a reviewer reads shows the change in the live schema.
 */

/** The file beside the engine's sources, found through the package, as a consumer would. */
const checkedIn = () =>
  readFileSync(join(dirname(createRequire(import.meta.url).resolve("@ledger/engine")), "store", "schema.sql"), "utf8")

let app: TestApp
beforeAll(async () => {
  app = await makeTestApp()
}, 60_000)
afterAll(() => app?.close())

describe("schema dump", () => {
  it("is what the migrations make", async () => {
    const dumped = await app.runtime.runPromise(SchemaDump.dump())
    // On failure: `pnpm schema:dump` rewrites the file; read its diff before committing it.
    expect(dumped).toBe(checkedIn())
  })

  it("is the same in any schema, as PostgreSQL tests migrate in one of their own", async () => {
    const { value: dumped } = await inMigratedSchema(app, 0, ({ sql }) =>
      Effect.provideService(Effect.andThen(Migrations.run(), SchemaDump.dump()), SqlClient.SqlClient, sql))
    expect(dumped).toBe(checkedIn())
  })

  it("shows every table, index, trigger and function once", () => {
    const text = checkedIn()
    const count = (pattern: RegExp) => text.match(pattern)?.length ?? 0
    expect(count(/^CREATE TABLE journal_lines \(/gm)).toBe(1)
    expect(count(/^CREATE OR REPLACE FUNCTION ledger_entry_check_committed\(/gm)).toBe(1)
    expect(count(/^CREATE CONSTRAINT TRIGGER journal_entry_checks_committed /gm)).toBe(1)
    expect(count(/^CREATE INDEX journal_lines_by_entry /gm)).toBe(1)
    // Names only: the current schema's qualification is taken out.
    expect(text).not.toMatch(/\bpublic\./)
  })
})

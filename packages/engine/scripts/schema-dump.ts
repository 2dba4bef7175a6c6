/**
 * Rewrites packages/engine/src/store/schema.sql from a database the migrations have just made:
 * embedded PGlite in memory, or, with DATABASE_URL, a scratch schema of that PostgreSQL (dropped
 * afterwards). Either gives the same text (SchemaDump.ts). `pnpm schema:dump`, after changing a
 * migration; test/store/schema.test.ts fails until then.
 */
import { writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { SchemaDump } from "@ledger/engine"
import { Storage } from "@ledger/server"

const target = fileURLToPath(new URL("../src/store/schema.sql", import.meta.url))
const databaseUrl = process.env.DATABASE_URL === "" ? undefined : process.env.DATABASE_URL
const scratch = `schema_dump_${Date.now().toString(36)}`

const program = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const text = yield* SchemaDump.dump()
  if (databaseUrl !== undefined) yield* sql.unsafe(`DROP SCHEMA ${scratch} CASCADE`)
  return text
})

const storage = Storage.layer(databaseUrl === undefined
  ? { dataDir: "memory" }
  : { databaseUrl, searchPath: scratch, maxConnections: 1 })

const text = await Effect.runPromise(program.pipe(Effect.provide(Layer.fresh(storage))))
writeFileSync(target, text)
process.stdout.write(`wrote ${target} (${databaseUrl === undefined ? "PGlite" : "PostgreSQL"})\n`)

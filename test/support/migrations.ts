import { Data, Effect } from "effect"
import { SqlClient } from "effect/sql"
import { Migrations } from "@ledger/engine"
import type { TestApp } from "./app.ts"

class RolledBack<A> extends Data.TaggedError("RolledBack")<{ readonly value: A }> {}

/**
 * For tests of what a migration does to data written before it: `body` runs in a schema of its
 * own holding migrations 1 to `upTo`, inside a transaction that is then rolled back, so nothing of
 * it stays. `apply(id)` runs one more migration there. Answers what `body` returned, and the
 * schema's name (gone afterwards).
 */
export const inMigratedSchema = async <A>(
  app: TestApp,
  upTo: number,
  body: (tools: {
    readonly sql: SqlClient.SqlClient
    readonly apply: (id: number) => Effect.Effect<void, unknown>
    readonly schema: string
  }) => Effect.Effect<A, unknown>
): Promise<{ readonly value: A; readonly schema: string }> => {
  const schema = `migration_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`
  const value = await app.runtime.runPromise(Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    // Migration numbers have gaps (numbers assigned to changes that never needed one): a missing
    // number applies nothing.
    const apply = (id: number) =>
      Effect.forEach(Migrations.splitStatements(Migrations.migrations.find((migration) => migration.id === id)?.sql ?? ""),
        (statement) => sql.unsafe(statement), { discard: true })
    return yield* sql.withTransaction(Effect.gen(function*() {
      yield* sql.unsafe(`CREATE SCHEMA ${schema}`)
      yield* sql.unsafe(`SET LOCAL search_path TO ${schema}`)
      for (let id = 1; id <= upTo; id++) yield* apply(id)
      return yield* Effect.fail(new RolledBack({ value: yield* body({ sql, apply, schema }) }))
    }))
  }).pipe(
    Effect.catchIf((error): error is RolledBack<A> => error instanceof RolledBack, (rolledBack) => Effect.succeed(rolledBack.value)),
    Effect.orDie
  ) as Effect.Effect<A, never, never>)
  return { value, schema }
}

import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { format, type NumberedKind, prefixes } from "./NumberingRules.ts"

const taken = (company: string, kind: NumberedKind, number: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = kind === "estimate"
      ? yield* sql`SELECT 1 FROM estimates WHERE company_id = ${company} AND number = ${number}`.pipe(Effect.orDie)
      : yield* sql`SELECT 1 FROM documents WHERE company_id = ${company} AND kind = ${kind} AND number = ${number}`.pipe(Effect.orDie)
    return rows.length > 0
  })

/**
 * The next number of a kind's sequence. With `consume`, the counter row is locked FOR UPDATE and
 * advanced inside the caller's transaction, so the number is spent only if that transaction
 * commits, and two concurrent writes never get the same one. Without it (a dry run), nothing is
 * locked or written: the preview shows the number the write would take now. Numbers a person
 * typed by hand are skipped, never handed out again.
 */
export const next = Effect.fn("NumberingStore.next")(function*(company: string, kind: NumberedKind, consume: boolean) {
  const sql = yield* SqlClient.SqlClient
  const prefix = prefixes[kind]
  if (consume) {
    yield* sql`INSERT INTO number_counters (company_id, prefix, last_value) VALUES (${company}, ${prefix}, 0)
      ON CONFLICT DO NOTHING`.pipe(Effect.orDie)
  }
  const rows = consume
    ? yield* sql<{ last_value: unknown }>`SELECT last_value FROM number_counters
        WHERE company_id = ${company} AND prefix = ${prefix} FOR UPDATE`.pipe(Effect.orDie)
    : yield* sql<{ last_value: unknown }>`SELECT last_value FROM number_counters
        WHERE company_id = ${company} AND prefix = ${prefix}`.pipe(Effect.orDie)
  let value = Number(rows[0]?.last_value ?? 0) + 1
  while (yield* taken(company, kind, format(prefix, value))) value += 1
  if (consume) {
    yield* sql`UPDATE number_counters SET last_value = ${value} WHERE company_id = ${company} AND prefix = ${prefix}`.pipe(Effect.orDie)
  }
  return format(prefix, value)
})

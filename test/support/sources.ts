import { expect } from "vitest"
import type { Call } from "./http.ts"

/**
 * Entries name their source (issue 38 item 11, docs/governed-writes.md "The entry's source"): an
 * entry posted for a record (a document, a payment, a lot, a refund, a synced order...) carries
 * `source.kind` and the record's id as `source.id`, whichever path posted it. Every test app checks
 * its whole database when it closes (`app.ts`), so every posting path the suite reaches is held to it.
 */

/**
 * The source kinds posted for no record: a person's own journal entry (`journal_entry`) and the
 * generic reversal of one (`reversal`, which names what it reverses in `reverses_entry_id`).
 */
export const unsourcedKinds: ReadonlyArray<string> = ["journal_entry", "reversal"]

/**
 * Kinds known to post without their record's id, left to their own area: a migration import's
 * entries (`migration_import`) could name the import, whose row is written after the attempt.
 * Remove a kind here when its area names it; the check then holds it too.
 */
export const notYetNamed: ReadonlyArray<string> = ["migration_import"]

type Query = <Row = Record<string, unknown>>(text: string, params?: ReadonlyArray<unknown>) => Promise<Array<Row>>

/** Entries (of one company when given) posted for a record without naming it, as `kind:id`. */
export const entriesWithoutSourceId = async (app: { readonly query: Query }, companyId?: string): Promise<Array<string>> => {
  const rows = await app.query<{ id: string; source_kind: string }>(
    `SELECT id::text, source_kind FROM journal_entries WHERE source_id IS NULL AND source_kind <> ALL($1::text[])
       AND ($2::uuid IS NULL OR company_id = $2::uuid) ORDER BY id LIMIT 20`,
    [[...unsourcedKinds, ...notYetNamed], companyId ?? null]
  )
  return rows.map((row) => `${row.source_kind}:${row.id}`)
}

/** The entry, read over HTTP, names `kind` and `id` as its source. */
export const expectSource = async (app: { readonly call: Call }, token: string, entryId: number | null, kind: string, id: number) => {
  expect(entryId, `an entry of ${kind} ${id}`).toEqual(expect.any(Number))
  expect(id, `the ${kind} record's id`).toEqual(expect.any(Number))
  const entry = await app.call("GET", `/v1/journal-entries/${entryId}`, { token })
  expect(entry.status).toBe(200)
  expect(entry.body.source, `entry ${entryId}`).toEqual({ kind, id })
}

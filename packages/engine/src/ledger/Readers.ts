import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import * as Row from "../kernel/Row.ts"

/**
 * Read-only views of the ledger for other areas (tax mapping, the 1099 forms), so their queries
 * never touch the ledger's tables: the chart, and journal entries posted by hand (and their
 * reversals) that name a contact on a line (the 1099 forms count cash paid to a vendor named on
 * one). Entries posted by documents, payments or bank categorizations are left out of the
 * latter: their areas report them.
 */

export interface ChartAccount {
  readonly code: string
  readonly name: string
  readonly type: string
  readonly subtype: string | null
  readonly active: boolean
}

/** Every account of the company, active or not, in code order (byte order, as the chart lists them). */
export const chart = Effect.fn("LedgerReaders.chart")(function*(company: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT code, name, type, subtype, active FROM accounts
    WHERE company_id = ${company} ORDER BY code COLLATE "C"`.pipe(Effect.orDie)
  return rows.map((row): ChartAccount => ({
    code: String(row.code),
    name: String(row.name),
    type: String(row.type),
    subtype: (row.subtype as string | null) ?? null,
    active: row.active === true
  }))
})

export interface Line {
  readonly account: string
  readonly accountType: string
  readonly accountSubtype: string | null
  /** Signed: debits positive, credits negative. */
  readonly amountCents: number
  readonly contactId: number | null
}

export interface Entry {
  readonly id: number
  readonly date: string
  readonly lines: ReadonlyArray<Line>
}

/** At most this many entries are read for one range; the rest are reported as `truncated`. */
export const entriesMax = 20_000

export const manualEntriesNamingContacts = Effect.fn("LedgerReaders.manualEntriesNamingContacts")(function*(company: string, from: string, to: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`WITH named AS (
      SELECT DISTINCT e.id, e.entry_date FROM journal_entries e
      JOIN journal_lines nl ON nl.company_id = e.company_id AND nl.entry_id = e.id AND nl.contact_id IS NOT NULL
      LEFT JOIN journal_entries o ON o.company_id = e.company_id AND o.id = e.reverses_entry_id
      WHERE e.company_id = ${company} AND e.entry_date BETWEEN ${from} AND ${to}
        AND (e.source_kind = 'journal_entry' OR (e.source_kind = 'reversal' AND o.source_kind IN ('journal_entry', 'reversal')))
      ORDER BY e.id LIMIT ${entriesMax + 1})
    SELECT n.id, n.entry_date, l.line_no, l.amount_cents, l.contact_id, a.code, a.type, a.subtype
    FROM named n
    JOIN journal_lines l ON l.company_id = ${company} AND l.entry_id = n.id
    JOIN accounts a ON a.company_id = l.company_id AND a.id = l.account_id
    ORDER BY n.id, l.line_no`.pipe(Effect.orDie)
  const entries = new Map<number, { id: number; date: string; lines: Array<Line> }>()
  for (const row of rows) {
    const id = Row.int(row.id)
    const entry = entries.get(id) ?? entries.set(id, { id, date: Row.date(row.entry_date), lines: [] }).get(id)!
    entry.lines.push({
      account: String(row.code),
      accountType: String(row.type),
      accountSubtype: (row.subtype as string | null) ?? null,
      amountCents: Row.int(row.amount_cents),
      contactId: Row.intOrNull(row.contact_id)
    })
  }
  const list = [...entries.values()]
  return { entries: list.slice(0, entriesMax) as ReadonlyArray<Entry>, truncated: list.length > entriesMax }
})

/**
 * Net debits (debits less credits) of the posted lines dated from `from` through `to` on the
 * accounts named by code or by type, optionally leaving out entries of some source kinds: an
 * expense account's spending, the income statement's result (negated), a wages account's year.
 */
export const netDebits = Effect.fn("LedgerReaders.netDebits")(function*(company: string, filter: {
  readonly codes?: ReadonlyArray<string>
  readonly types?: ReadonlyArray<string>
  readonly from: string
  readonly to: string
  readonly excludeSourceKinds?: ReadonlyArray<string>
}) {
  const sql = yield* SqlClient.SqlClient
  if (filter.codes !== undefined && filter.codes.length === 0) return 0
  if (filter.types !== undefined && filter.types.length === 0) return 0
  const excluded = filter.excludeSourceKinds ?? []
  const rows = yield* sql<{ total: unknown }>`SELECT coalesce(sum(l.amount_cents), 0) AS total
    FROM journal_lines l JOIN accounts a ON a.company_id = l.company_id AND a.id = l.account_id
    ${excluded.length === 0 ? sql`` : sql`JOIN journal_entries e ON e.company_id = l.company_id AND e.id = l.entry_id`}
    WHERE l.company_id = ${company} AND l.entry_date BETWEEN ${filter.from} AND ${filter.to}
      ${filter.codes === undefined ? sql`` : sql`AND a.code IN ${sql.in(filter.codes)}`}
      ${filter.types === undefined ? sql`` : sql`AND a.type IN ${sql.in(filter.types)}`}
      ${excluded.length === 0 ? sql`` : sql`AND e.source_kind NOT IN ${sql.in(excluded)}`}`.pipe(Effect.orDie)
  return yield* Row.summedCents(rows[0]?.total ?? 0)
})

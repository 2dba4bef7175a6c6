import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import * as Row from "../kernel/Row.ts"
import type * as GeneralLedger from "./GeneralLedgerRules.ts"
import type * as ReportDates from "./ReportDates.ts"
import * as TotalsStore from "./TotalsStore.ts"

/**
 * The general ledger's reads of journal lines: one account at a time through the lines' (company,
 * account, date) index, so a page reads about as many lines as it shows, however large the journal.
 */

type OneColumn = Exclude<TotalsStore.Selection, { readonly _tag: "ByClass" }>

const classCondition = (sql: SqlClient.SqlClient, selection: OneColumn) =>
  selection._tag === "All" ? sql`` : selection.classId === null ? sql`AND l.class_id IS NULL` : sql`AND l.class_id = ${selection.classId}`

/** Up to `limit` lines of an account in the span, after `after` (exclusive) when given. */
export const linesAfter = Effect.fn("GeneralLedgerStore.linesAfter")(function*(
  companyId: string,
  accountId: number,
  span: ReportDates.Span,
  selection: OneColumn,
  after: GeneralLedger.Position | null,
  limit: number
) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT l.entry_id, l.line_no, l.entry_date, l.amount_cents,
      coalesce(l.memo, e.memo) AS memo, e.source_kind, c.name AS class_name, l.contact_id
    FROM journal_lines l
    JOIN journal_entries e ON e.company_id = l.company_id AND e.id = l.entry_id
    LEFT JOIN classes c ON c.company_id = l.company_id AND c.id = l.class_id
    WHERE l.company_id = ${companyId} AND l.account_id = ${accountId}
      AND l.entry_date BETWEEN ${span.from} AND ${span.to}
      ${after === null ? sql`` : sql`AND (l.entry_date, l.entry_id, l.line_no) > (${after.date}::date, ${after.entryId}::bigint, ${after.lineNo}::int)`}
      ${classCondition(sql, selection)}
    ORDER BY l.entry_date, l.entry_id, l.line_no
    LIMIT ${limit}`.pipe(Effect.orDie)
  return rows.map((row): GeneralLedger.Line => ({
    position: { date: Row.date(row.entry_date), entryId: Row.int(row.entry_id), lineNo: Row.int(row.line_no) },
    amountCents: Row.int(row.amount_cents),
    yearEndClose: false,
    source: String(row.source_kind),
    memo: row.memo === null ? null : String(row.memo),
    className: row.class_name === null ? null : String(row.class_name),
    contactId: Row.intOrNull(row.contact_id)
  }))
})

/**
 * Debits minus credits of an account's lines from `from` through `through` (inclusive): where a
 * continued page's running balance starts. Whole days come from the totals (for all lines); the
 * last day, and everything for one class, from the lines.
 */
export const netThrough = Effect.fn("GeneralLedgerStore.netThrough")(function*(
  companyId: string,
  accountId: number,
  from: string,
  through: GeneralLedger.Position,
  selection: OneColumn,
  dayBefore: (date: string) => string
) {
  const sql = yield* SqlClient.SqlClient
  let net = 0
  let linesFrom = from
  if (selection._tag === "All" && from < through.date) {
    const sums = yield* TotalsStore.rangeSums(companyId, [accountId], [{ from, to: dayBefore(through.date) }], selection)
    net += TotalsStore.net(sums.get(TotalsStore.allColumn)?.get(accountId)?.[0] ?? TotalsStore.zero)
    linesFrom = through.date
  }
  const rows = yield* sql<{ net: unknown }>`SELECT coalesce(sum(l.amount_cents), 0) AS net
    FROM journal_lines l
    WHERE l.company_id = ${companyId} AND l.account_id = ${accountId}
      AND l.entry_date BETWEEN ${linesFrom} AND ${through.date}
      AND (l.entry_date, l.entry_id, l.line_no) <= (${through.date}::date, ${through.entryId}::bigint, ${through.lineNo}::int)
      ${classCondition(sql, selection)}`.pipe(Effect.orDie)
  return net + (yield* Row.summedCents(rows[0]?.net ?? 0))
})

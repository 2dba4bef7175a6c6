import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Limits } from "@ledger/api"
import * as Outbox from "../../pipeline/Outbox.ts"
import { requireCompanyId } from "../../kernel/CompanyContext.ts"
import { RequestContext } from "../../kernel/RequestContext.ts"
import { Registry } from "../../kernel/Registry.ts"
import * as Row from "../../kernel/Row.ts"
import * as DatabaseError from "../../store/DatabaseError.ts"
import * as AccountStore from "../accounts/AccountStore.ts"
import { type PeriodOnDate, periodOf, periodOn } from "../periods/PeriodStore.ts"
import { entryRow, lineRows, type PostOptions, type Prepared, postedEvent, recordOf } from "./JournalEntryRows.ts"
import * as JournalEntryRules from "./JournalEntryRules.ts"
import * as PostingPolicy from "./PostingPolicy.ts"

/**
 * The journal's storage: preparing a draft against the chart, finding the period of a date,
 * writing an entry with its lines and daily totals, reading an entry back. Policy (who may post)
 * lives in posting/Governed.ts; this module only posts what it is given, and refuses locked dates.
 */

// What other areas have always found here: the period of a date (periods/PeriodStore.ts) and the
// rows and record of a posting (JournalEntryRows.ts), which the group commit builds with too.
export { type PeriodOnDate, periodContaining, periodOf, periodOn } from "../periods/PeriodStore.ts"
export { entryRow, lineRows, type PostOptions, type Prepared, postedEvent, recordOf } from "./JournalEntryRows.ts"

/** Checks a draft's shape and resolves it against the company's chart, classes and contacts. */
export const prepare = Effect.fn("JournalEntryStore.prepare")(function*(
  draft: JournalEntryRules.DraftEntry,
  linesPath: JournalEntryRules.Path = ["body", "lines"]
) {
  const companyId = yield* requireCompanyId
  const shape = JournalEntryRules.checkShape(draft, linesPath)
  if (shape !== null) return yield* Effect.fail(shape)
  const accounts = yield* AccountStore.accountsByCode(companyId, draft.lines.map((line) => line.account))
  return yield* resolveDraft(companyId, draft, accounts, linesPath)
})

/**
 * `prepare` and `periodOn` in one: the accounts and the period of the entry's date are read by one
 * statement, since every posting needs both (one round trip fewer on the posting path).
 */
export const prepareOn = Effect.fn("JournalEntryStore.prepareOn")(function*(
  draft: JournalEntryRules.DraftEntry,
  linesPath: JournalEntryRules.Path,
  lock: "share" | "none"
) {
  const sql = yield* SqlClient.SqlClient
  const companyId = yield* requireCompanyId
  const shape = JournalEntryRules.checkShape(draft, linesPath)
  if (shape !== null) return yield* Effect.fail(shape)
  const codes = Array.from(new Set(draft.lines.map((line) => line.account)))
  // The period's subquery holds its own lock clause: FOR SHARE of the period row only.
  const rows = yield* sql<Record<string, unknown>>`
    SELECT 'account' AS row_kind, a.id, a.code, a.name, a.type, a.active, a.control, NULL::text AS status, NULL::date AS start_date,
        NULL::date AS end_date, turnover.turnover_debit, turnover.turnover_credit
      FROM accounts a ${AccountStore.turnoverJoin(sql)} WHERE a.company_id = ${companyId} AND a.code IN ${sql.in(codes)}
    UNION ALL
    SELECT 'period', id, NULL, NULL, NULL, NULL, NULL, status, start_date, end_date, NULL, NULL FROM (
      SELECT id, status, start_date, end_date FROM periods
      WHERE company_id = ${companyId} AND start_date <= ${draft.date} AND end_date >= ${draft.date}
      ${lock === "share" ? sql`FOR SHARE` : sql``}) AS period`.pipe(Effect.orDie)
  const accounts = new Map<string, JournalEntryRules.AccountRef>()
  let period: PeriodOnDate | null = null
  for (const row of rows) {
    if (row.row_kind === "period") period = periodOf(row)
    else accounts.set(String(row.code), AccountStore.accountRef(row))
  }
  const prepared = yield* resolveDraft(companyId, draft, accounts, linesPath)
  return { prepared, period }
})

const resolveDraft = Effect.fn("JournalEntryStore.resolveDraft")(function*(
  companyId: string,
  draft: JournalEntryRules.DraftEntry,
  accounts: ReadonlyMap<string, JournalEntryRules.AccountRef>,
  linesPath: JournalEntryRules.Path
) {
  const classNames = draft.lines.flatMap((line) => line.class === undefined || line.class === null ? [] : [line.class])
  const classes = yield* AccountStore.classesByName(companyId, classNames)
  const resolved = JournalEntryRules.resolve(draft, accounts, classes, linesPath)
  if (resolved instanceof ApiError.LedgerError) return yield* Effect.fail(resolved)
  const contactIds = draft.lines.flatMap((line) => line.contact_id === undefined || line.contact_id === null ? [] : [line.contact_id])
  const unknown = yield* AccountStore.unknownContacts(companyId, contactIds)
  if (unknown.length > 0) {
    const missing = new Set(unknown)
    return yield* Effect.fail(ApiError.fail("unknown_contact", "The entry names contacts that do not exist.", {
      issues: draft.lines.flatMap((line, index) =>
        line.contact_id !== undefined && line.contact_id !== null && missing.has(line.contact_id)
          ? [{ path: [...linesPath, index, "contact_id"], message: `No contact ${line.contact_id}` }]
          : []
      )
    }))
  }
  return { draft, lines: resolved, totalCents: JournalEntryRules.total(resolved) } satisfies Prepared
})

/**
 * Posts a prepared entry: checks (and holds) its period, writes the entry and its lines, and emits
 * `entry.posted`, all in the caller's transaction; the database adds the daily and monthly totals
 * as the lines are inserted (ADR 0705; store/migrations/0002_ledger.ts) and checks the entry at commit. No policy: callers decide
 * first (posting/Governed.ts).
 */
export const post = Effect.fn("JournalEntryStore.post")(function*(prepared: Prepared, options: PostOptions) {
  const sql = yield* SqlClient.SqlClient
  const request = yield* RequestContext
  const companyId = yield* requireCompanyId
  const softLockOverrideReason = options.softLockOverrideReason ?? null
  const period = options.heldPeriod !== undefined ? options.heldPeriod : yield* periodOn(prepared.draft.date, "share")
  const check = PostingPolicy.periodCheck(period?.status ?? null, softLockOverrideReason)
  if (check.refusal !== null) {
    return yield* Effect.fail(ApiError.fail(check.refusal.type, check.refusal.message, {
      entry_date: prepared.draft.date,
      ...(period === null ? {} : { period_id: period.id, period_status: period.status })
    }))
  }
  // The entry and its lines in one statement (one round trip): the lines take the entry's id from
  // its RETURNING row. The balance and account checks run at commit (store/migrations/0002_ledger.ts).
  const rows = yield* sql<Record<string, unknown>>`WITH entry AS (INSERT INTO journal_entries ${
    sql.insert(entryRow(prepared, options, request, companyId, period))
  } RETURNING *), lines AS (
    INSERT INTO journal_lines (company_id, entry_id, line_no, account_id, entry_date, amount_cents, memo, class_id, contact_id)
    SELECT entry.company_id, entry.id, line.line_no, line.account_id, entry.entry_date, line.amount_cents, line.memo,
      line.class_id, line.contact_id
    FROM entry, jsonb_to_recordset(${JSON.stringify(lineRows(prepared))}::jsonb)
      AS line(line_no int, account_id bigint, amount_cents bigint, memo text, class_id bigint, contact_id bigint)
  ) SELECT * FROM entry`.pipe(Effect.catchTag("SqlError", (error) =>
    // The database holds the amount bound for every path (migration 0045): one that read no
    // turnover (an approval, an import, a reversal) or read it before a concurrent posting committed.
    DatabaseError.isTurnoverPastBound(error) ? Effect.fail(JournalEntryRules.turnoverPastBound()) : Effect.die(error)))
  // The daily and monthly totals are added by the lines' statement trigger (store/migrations/0002_ledger.ts).
  const entry = recordOf(rows[0]!, prepared.lines, null)
  yield* Outbox.emit("entry.posted", postedEvent(entry)).pipe(Effect.orDie)
  if (entry.reverses_entry_id !== null) {
    yield* Outbox.emit("entry.reversed", {
      entry_id: entry.reverses_entry_id,
      reversal_entry_id: entry.id,
      entry_date: entry.entry_date,
      total_cents: entry.total_cents,
      source: entry.source
    }).pipe(Effect.orDie)
    const registry = yield* Registry
    for (const hook of registry.reversalHooks) yield* hook({ entryId: entry.reverses_entry_id, reversalEntryId: entry.id })
  }
  return entry
})

/** Lines of an entry as stored, resolved again (for reading and reversing). */
const loadLines = Effect.fn("JournalEntryStore.loadLines")(function*(companyId: string, entryId: number) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT l.line_no, l.account_id, l.amount_cents, l.memo, l.class_id,
      l.contact_id, a.code, a.name AS account_name, a.type, c.name AS class_name
    FROM journal_lines l
    JOIN accounts a ON a.company_id = l.company_id AND a.id = l.account_id
    LEFT JOIN classes c ON c.company_id = l.company_id AND c.id = l.class_id
    WHERE l.company_id = ${companyId} AND l.entry_id = ${entryId}
    ORDER BY l.line_no`.pipe(Effect.orDie)
  return rows.map((row): JournalEntryRules.ResolvedLine => ({
    lineNo: Row.int(row.line_no),
    accountId: Row.int(row.account_id),
    account: String(row.code),
    accountName: String(row.account_name),
    accountType: row.type as JournalEntryRules.AccountRef["type"],
    amountCents: Row.int(row.amount_cents),
    memo: row.memo === null ? null : String(row.memo),
    classId: Row.intOrNull(row.class_id),
    className: row.class_name === null ? null : String(row.class_name),
    contactId: Row.intOrNull(row.contact_id)
  }))
})

/** A posted entry with its lines, or undefined when the company has no such entry. */
export const load = Effect.fn("JournalEntryStore.load")(function*(entryId: number) {
  const sql = yield* SqlClient.SqlClient
  const companyId = yield* requireCompanyId
  const rows = yield* sql<Record<string, unknown>>`SELECT e.*,
      (SELECT r.id FROM journal_entries r WHERE r.company_id = e.company_id AND r.reverses_entry_id = e.id) AS reversed_by
    FROM journal_entries e WHERE e.company_id = ${companyId} AND e.id = ${entryId}`.pipe(Effect.orDie)
  const row = rows[0]
  if (row === undefined) return undefined
  const lines = yield* loadLines(companyId, entryId)
  return { record: recordOf(row, lines, Row.intOrNull(row.reversed_by)), lines, sourceKind: String(row.source_kind) }
})

/**
 * The exact reversal of a posted entry (every line on the other side: same accounts, classes,
 * contacts and memos), ready to post with `reversesEntryId`. Accounts deactivated since still
 * take their reversal. Holds a per-entry lock until the transaction ends, so of two concurrent
 * reversals the second waits, then finds the first (`entry_already_reversed`).
 */
export const prepareReversal = Effect.fn("JournalEntryStore.prepareReversal")(function*(entryId: number, options: {
  readonly date: string
  readonly memo?: string | null | undefined
}) {
  const sql = yield* SqlClient.SqlClient
  const companyId = yield* requireCompanyId
  yield* sql`SELECT pg_advisory_xact_lock(hashtext(${`${companyId}:reverse:${entryId}`}))`.pipe(Effect.orDie)
  const original = yield* load(entryId)
  if (original === undefined) return yield* Effect.fail(ApiError.notFound("journal entry"))
  if (original.record.reversed_by_entry_id !== null) {
    return yield* Effect.fail(ApiError.fail("entry_already_reversed", "This entry has already been reversed.", {
      entry_id: entryId,
      reversed_by_entry_id: original.record.reversed_by_entry_id
    }))
  }
  const lines = JournalEntryRules.reversal(original.lines)
  const memo = options.memo ??
    `Reversal of entry ${entryId}${original.record.memo === null ? "" : `: ${original.record.memo}`}`.slice(0, Limits.memoLengthMax)
  const prepared: Prepared = {
    draft: { date: options.date, memo, lines: lines.map(JournalEntryRules.toDraftLine) },
    lines,
    totalCents: JournalEntryRules.total(lines)
  }
  return { original, prepared }
})

/**
 * Posts the exact reversal of an entry dated `date` (`entry.posted` and `entry.reversed`). The
 * journal endpoint uses it; other areas reversing through the governed path pass `reverses` to
 * Governed.write instead. An entry is reversed at most once (`entry_already_reversed`).
 */
export const reverse = Effect.fn("JournalEntryStore.reverse")(function*(entryId: number, options: {
  readonly date: string
  readonly memo?: string | null
  readonly softLockOverrideReason?: string | null
  readonly sourceKind?: string
  readonly sourceId?: number | null
}) {
  const { original, prepared } = yield* prepareReversal(entryId, options)
  const reversal = yield* post(prepared, {
    sourceKind: options.sourceKind ?? "reversal",
    sourceId: options.sourceId ?? null,
    softLockOverrideReason: options.softLockOverrideReason ?? null,
    reversesEntryId: entryId
  })
  return { original: { ...original.record, reversed_by_entry_id: reversal.id }, reversal }
})

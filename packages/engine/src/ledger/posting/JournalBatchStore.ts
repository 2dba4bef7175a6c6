import { Data, Effect } from "effect"
import { SqlClient } from "effect/sql"
import * as Authenticate from "../../pipeline/Authenticate.ts"
import * as Idempotency from "../../pipeline/Idempotency.ts"
import * as Outbox from "../../pipeline/Outbox.ts"
import * as Row from "../../kernel/Row.ts"
import * as AccountStore from "../accounts/AccountStore.ts"
import type { AccountRef } from "../accounts/AccountRules.ts"
import type * as JournalEntryRules from "../entries/JournalEntryRules.ts"
import * as PeriodStore from "../periods/PeriodStore.ts"
import type { Charts } from "./BatchCharts.ts"

/**
 * The group commit's two statements (JournalBatch.ts): the read of a batch's charts, periods and
 * entry ids, and the one statement that writes the whole batch and checks what it relied on.
 */

/** What the read needs of a posting in the batch: its company and its draft's date and accounts. */
export interface Reading {
  readonly companyId: string
  readonly draft: JournalEntryRules.DraftEntry
}

/** What the batch writes, one row per posting (lines: one per line), as JournalBatch.ts built them. */
export interface Rows {
  readonly entries: ReadonlyArray<Record<string, unknown>>
  readonly lines: ReadonlyArray<Record<string, unknown>>
  readonly events: ReadonlyArray<Outbox.PendingEvent>
  readonly auditEvents: ReadonlyArray<Record<string, unknown>>
  readonly records: ReadonlyArray<Record<string, unknown>>
}

/**
 * The charts' accounts and the periods that the candidates name, and an entry id for each
 * candidate, in one statement (a candidate that does not post leaves a gap in the ids, as a
 * rolled-back posting does). Nothing is locked: the write's own statement re-checks the period of
 * every entry (the database refuses an entry into a period locked since: the commit checks of store/migrations/0002_ledger.ts) and every
 * account it posts to (ADR 0712), and the governed path reads accounts unlocked too.
 */
export const readCharts = Effect.fn("JournalBatchStore.readCharts")(function*(
  candidates: ReadonlyArray<Reading>
): Effect.fn.Return<Charts, never, SqlClient.SqlClient> {
  const sql = yield* SqlClient.SqlClient
  const accountKeys = new Map<string, { company_id: string; code: string }>()
  const periodKeys = new Map<string, { company_id: string; day: string }>()
  for (const candidate of candidates) {
    periodKeys.set(`${candidate.companyId} ${candidate.draft.date}`, { company_id: candidate.companyId, day: candidate.draft.date })
    for (const line of candidate.draft.lines) {
      accountKeys.set(`${candidate.companyId} ${line.account}`, { company_id: candidate.companyId, code: line.account })
    }
  }
  const rows = yield* sql<Record<string, unknown>>`
    SELECT 'account' AS row_kind, a.company_id, a.id, a.code, a.name, a.type, a.active, a.control,
        NULL::text AS status, NULL::date AS start_date, NULL::date AS end_date, turnover.turnover_debit, turnover.turnover_credit
      FROM json_to_recordset(${JSON.stringify([...accountKeys.values()])}::json) AS wanted(company_id uuid, code text)
      JOIN accounts a ON a.company_id = wanted.company_id AND a.code = wanted.code
      ${AccountStore.turnoverJoin(sql)}
    UNION ALL
    SELECT 'period', p.company_id, p.id, NULL, NULL, NULL, NULL, NULL, p.status, p.start_date, p.end_date, NULL, NULL
      FROM periods p WHERE (p.company_id, p.id) IN (
        SELECT held.company_id, held.id
        FROM json_to_recordset(${JSON.stringify([...periodKeys.values()])}::json) AS wanted(company_id uuid, day date)
        JOIN periods held ON held.company_id = wanted.company_id AND held.start_date <= wanted.day AND held.end_date >= wanted.day)
    UNION ALL
    SELECT 'id', NULL, nextval('ledger_ids'), NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL FROM generate_series(1, ${candidates.length})`
    .pipe(Effect.orDie)
  const accounts = new Map<string, Map<string, AccountRef>>()
  const periods = new Map<string, Array<PeriodStore.PeriodOnDate>>()
  const ids: Array<number> = []
  for (const row of rows) {
    const companyId = String(row.company_id)
    if (row.row_kind === "id") {
      ids.push(Row.int(row.id))
    } else if (row.row_kind === "period") {
      periods.set(companyId, [...periods.get(companyId) ?? [], PeriodStore.periodOf(row)])
    } else {
      const chart = accounts.get(companyId) ?? new Map<string, AccountRef>()
      chart.set(String(row.code), AccountStore.accountRef(row))
      accounts.set(companyId, chart)
    }
  }
  // In request order, as the governed path would draw them one request after another.
  ids.sort((a, b) => a - b)
  return { accounts, periods, ids }
})

/** The statement's writes: the idempotency records, the entries and their lines, the audit and outbox events. */
const writes = (sql: SqlClient.SqlClient, rows: Rows) =>
  sql`records AS (
      INSERT INTO idempotency_records (scope, expires_at, status, request_hash, answer)
      SELECT ledger_idempotency_scope(r.tenant, r.principal, r.idempotency_key), r.expires_at, r.status,
        decode(r.request_hash_hex, 'hex'), decode(r.answer_base64, 'base64')
      FROM wait_bound, json_to_recordset(${JSON.stringify(rows.records)}::json) AS r(tenant text, principal text,
        idempotency_key text, request_hash_hex text, status int, answer_base64 text, expires_at timestamptz)
      ${sql.literal(Idempotency.replacingExpired)}
      RETURNING 1
    ), entries AS (
      INSERT INTO journal_entries (company_id, id, entry_date, memo, total_cents, source_kind, source_id, reverses_entry_id,
        proposal_id, soft_lock_override_reason, confidence, posted_by_type, posted_by_id, posted_by_name, agent_model, posted_at)
      SELECT e.company_id, e.id, e.entry_date, e.memo, e.total_cents, e.source_kind, e.source_id, e.reverses_entry_id,
        e.proposal_id, e.soft_lock_override_reason, e.confidence, e.posted_by_type, e.posted_by_id, e.posted_by_name,
        e.agent_model, e.posted_at
      FROM json_to_recordset(${JSON.stringify(rows.entries)}::json) AS e(company_id uuid, id bigint, entry_date date, memo text,
        total_cents bigint, source_kind text, source_id bigint, reverses_entry_id bigint, proposal_id bigint,
        soft_lock_override_reason text, confidence double precision, posted_by_type text, posted_by_id bigint,
        posted_by_name text, agent_model text, posted_at timestamptz)
      RETURNING id
    ), lines AS (
      INSERT INTO journal_lines (company_id, entry_id, line_no, account_id, entry_date, amount_cents, memo, class_id, contact_id)
      SELECT l.company_id, l.entry_id, l.line_no, l.account_id, l.entry_date, l.amount_cents, l.memo, l.class_id, l.contact_id
      FROM json_to_recordset(${JSON.stringify(rows.lines)}::json) AS l(company_id uuid, entry_id bigint, line_no int,
        account_id bigint, entry_date date, amount_cents bigint, memo text, class_id bigint, contact_id bigint)
      -- Each line after its entry: the entry's commit check then runs before its lines' own
      -- triggers, which find it checked (ADR 0705) instead of checking it again.
      WHERE l.entry_id IN (SELECT id FROM entries)
    ), audit AS (
      INSERT INTO audit_events (company_id, occurred_at, action, outcome, status, error_type, principal_type, principal_id,
        principal_name, key_id, agent_model, agent_run_id, target_type, target_id, reason, via, details)
      SELECT a.company_id, a.occurred_at, a.action, a.outcome, a.status, a.error_type, a.principal_type, a.principal_id,
        a.principal_name, a.key_id, a.agent_model, a.agent_run_id, a.target_type, a.target_id, a.reason, a.via, a.details::jsonb
      FROM json_to_recordset(${JSON.stringify(rows.auditEvents)}::json) AS a(company_id uuid, occurred_at timestamptz, action text,
        outcome text, status int, error_type text, principal_type text, principal_id text, principal_name text, key_id bigint,
        agent_model text, agent_run_id text, target_type text, target_id text, reason text, via text, details text)
    ), outbox AS (${Outbox.insert(sql, rows.events)}
    )`

/**
 * The batch's statement was refused as a whole for a reason its requests' own paths answer: a key
 * a concurrent duplicate recorded first (LD020, or the wait on it timed out), a period locked since
 * it was read (LD011), an account changed since it was read (LD021), an API key changed since its
 * request was authenticated (LD022), an account whose turnover the batch would take past the safe
 * range (LD013, migration 0045: with a concurrent posting, or several of the batch's own, or the
 * turnover a remembered account was read with). Nothing of it was written; its writes run alone,
 * and the governed path answers each as it always does.
 */
export class BatchAbandoned extends Data.TaggedError("BatchAbandoned")<{ readonly state: string | undefined }> {}

const expectedStates = new Set<string | undefined>(["LD020", "LD011", "LD013", "LD021", "LD022"])

/** The SQLSTATE of a failed statement, as both drivers keep it on the error's cause. */
const sqlState = (error: { readonly reason: { readonly cause?: unknown } }): string | undefined => {
  const cause = error.reason.cause
  return typeof cause === "object" && cause !== null && "code" in cause ? String(cause.code) : undefined
}

/**
 * Everything in ONE statement, which PostgreSQL runs as one transaction: the records, the
 * entries and their lines (their totals added by the lines' trigger), the audit events, the
 * outbox events an endpoint wants, and at its end the commit checks of every entry. A key that a
 * concurrent duplicate recorded first returns no row, and ledger_batch_recorded then refuses the
 * whole statement: nothing is written, and each of its requests runs alone (that one replays).
 * So does an account changed since the batch read or remembered it (ledger_batch_charts_current),
 * and an API key changed since its request was authenticated or remembered (LD022: migration
 * 0015, CredentialMemory.ts). The statement also draws `idsAhead` entry ids for the next batch.
 * `used` are the accounts the postings rely on, `credentials` the API keys (JournalBatch.ts).
 */
export const write = (
  sql: SqlClient.SqlClient,
  rows: Rows,
  used: ReadonlyArray<Record<string, unknown>>,
  credentials: ReadonlyArray<Authenticate.CredentialState>,
  postings: number,
  idsAhead: number
) =>
  sql<{ readonly next_ids: ReadonlyArray<unknown> | null }>`WITH wait_bound AS (
      SELECT set_config('lock_timeout', ${Idempotency.waitBound}, true)
    ), ${writes(sql, rows)}, charts AS (
      -- Each account found by its key in a scalar subquery: never a join over every company's chart.
      SELECT count(*) AS current
      FROM json_to_recordset(${JSON.stringify(used)}::json) AS u(company_id uuid, id bigint, code text, name text, type text)
      WHERE (SELECT a.code = u.code AND a.name = u.name AND a.type = u.type AND a.active
        FROM accounts a WHERE a.company_id = u.company_id AND a.id = u.id)
    ), credentials AS (${Authenticate.currentCredentialsCount(sql, credentials)}
    )
    SELECT ledger_batch_recorded(count(*), ${postings}) AS recorded,
      ledger_batch_charts_current((SELECT current FROM charts), ${used.length}) AS charts_current,
      ledger_batch_found((SELECT count FROM credentials), ${credentials.length}, 'LD022', 'API keys') AS credentials_current,
      (SELECT array_agg(id ORDER BY id) FROM (SELECT nextval('ledger_ids') AS id
        FROM generate_series(1, ${idsAhead})) AS ahead) AS next_ids
    FROM records`.pipe(
    Effect.catchTag("SqlError", (error) =>
      // A key taken, or a wait too long on a concurrent duplicate's record, is expected; so is a
      // period locked, an account or an API key changed since it was read. Anything else is a
      // defect (logged by GroupCommit).
      expectedStates.has(sqlState(error)) || error.reason._tag === "LockTimeoutError"
        ? Effect.fail(new BatchAbandoned({ state: sqlState(error) }))
        : Effect.die(error))
  )

/** The entry ids a batch's statement drew ahead, ascending. */
export const idsDrawn = (drawn: ReadonlyArray<{ readonly next_ids: ReadonlyArray<unknown> | null }>): Array<number> =>
  (drawn[0]?.next_ids ?? []).map(Row.int)

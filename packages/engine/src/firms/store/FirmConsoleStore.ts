import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * What the accountant's console and the close checklist read across a firm's clients (spec 4.3):
 * only companies with a live grant to the firm, each figure by a subquery that names the client's
 * company_id. Reads of other areas' tables, by SQL only (no import of those areas).
 */

export const clients = Effect.fn("FirmConsoleStore.clients")(function*(firmId: number, asOf: string, after: string | null, limit: number) {
  const sql = yield* SqlClient.SqlClient
  return yield* sql<Record<string, unknown>>`
    SELECT g.company_id, g.id AS grant_id, g.scopes, g.billing, c.name, c.kill_switch_suspended,
      (SELECT count(*) FROM bank_accounts b WHERE b.company_id = g.company_id) AS bank_accounts,
      (SELECT count(*) FROM bank_lines l WHERE l.company_id = g.company_id AND l.status = 'unmatched' AND l.withdrawn_at IS NULL
        AND l.line_date <= ${asOf}) AS unmatched_lines,
      (SELECT min(l.line_date) FROM bank_lines l WHERE l.company_id = g.company_id AND l.status = 'unmatched'
        AND l.withdrawn_at IS NULL AND l.line_date <= ${asOf}) AS oldest_unmatched_date,
      (SELECT max(r.statement_date) FROM reconciliations r WHERE r.company_id = g.company_id AND r.status = 'finished') AS last_reconciled_date,
      (SELECT count(*) FROM proposals p WHERE p.company_id = g.company_id AND p.status = 'pending') AS pending,
      (SELECT coalesce(sum(p.amount_cents), 0) FROM proposals p WHERE p.company_id = g.company_id AND p.status = 'pending') AS pending_cents,
      (SELECT min(p.created_at) FROM proposals p WHERE p.company_id = g.company_id AND p.status = 'pending') AS oldest_pending_at,
      (SELECT max(pe.end_date) FROM periods pe WHERE pe.company_id = g.company_id AND pe.status <> 'open') AS locked_through,
      (SELECT count(*) FROM periods pe WHERE pe.company_id = g.company_id AND pe.status = 'open' AND pe.end_date < ${asOf}) AS open_before,
      (SELECT count(*) FROM documents d WHERE d.company_id = g.company_id AND d.kind = 'invoice' AND NOT d.voided
        AND d.due_date < ${asOf} AND d.total_cents > (SELECT coalesce(sum(a.amount_cents), 0) FROM applications a
          WHERE a.company_id = d.company_id AND a.document_id = d.id AND a.voided_on IS NULL)) AS overdue_invoices,
      (SELECT coalesce(sum(d.total_cents - (SELECT coalesce(sum(a.amount_cents), 0) FROM applications a
          WHERE a.company_id = d.company_id AND a.document_id = d.id AND a.voided_on IS NULL)), 0)
        FROM documents d WHERE d.company_id = g.company_id AND d.kind = 'invoice' AND NOT d.voided AND d.due_date < ${asOf}) AS overdue_cents,
      (SELECT max(e.occurred_at) FROM audit_events e WHERE e.company_id = g.company_id AND e.outcome = 'ok') AS last_activity_at
    FROM firm_grants g JOIN companies c ON c.company_id = g.company_id
    WHERE g.firm_id = ${firmId} AND g.revoked_at IS NULL ${after === null ? sql`` : sql`AND g.company_id > ${after}`}
    ORDER BY g.company_id LIMIT ${limit + 1}`.pipe(Effect.orDie)
})

/**
 * Migration state per client, from the migrations area's tables when they exist: `done` once an
 * import was cut over, `in_progress` while a connection is open, else `none`.
 */
export const migrationStates = Effect.fn("FirmConsoleStore.migrationStates")(function*(companyIds: ReadonlyArray<string>) {
  const sql = yield* SqlClient.SqlClient
  const states = new Map<string, "none" | "in_progress" | "done">()
  if (companyIds.length === 0) return states
  const rows = yield* sql<{ company_id: unknown; state: unknown }>`
    SELECT mc.company_id, CASE WHEN bool_or(mi.status = 'cut_over') THEN 'done' ELSE 'in_progress' END AS state
    FROM migration_connections mc LEFT JOIN migration_imports mi ON mi.company_id = mc.company_id AND mi.connection_id = mc.id
    WHERE mc.company_id IN ${sql.in(companyIds)} AND (mc.revoked_at IS NULL OR mi.status = 'cut_over')
    GROUP BY mc.company_id`.pipe(Effect.catch(() => Effect.succeed([])))
  for (const row of rows) states.set(String(row.company_id), row.state as "in_progress" | "done")
  return states
})

export const proposals = Effect.fn("FirmConsoleStore.proposals")(function*(
  firmId: number,
  filters: {
    readonly companyId: string | null
    readonly agentId: number | null
    readonly agentName: string | null
    readonly minCents: number | null
    readonly maxCents: number | null
    readonly createdBefore: string | null
    readonly after: { readonly createdAt: string; readonly id: number } | null
    readonly limit: number
  }
) {
  const sql = yield* SqlClient.SqlClient
  return yield* sql<Record<string, unknown>>`
    SELECT p.company_id, c.name AS company_name, p.id, p.kind, p.summary, p.amount_cents, p.entry_date, p.created_by_type,
      p.created_by_id, p.created_by_name, p.created_at, p.reasons
    FROM firm_grants g JOIN companies c ON c.company_id = g.company_id
    JOIN proposals p ON p.company_id = g.company_id AND p.status = 'pending'
    WHERE g.firm_id = ${firmId} AND g.revoked_at IS NULL
      ${filters.companyId === null ? sql`` : sql`AND g.company_id = ${filters.companyId}`}
      ${filters.agentId === null ? sql`` : sql`AND p.created_by_id = ${filters.agentId} AND p.created_by_type IN ('agent', 'firm_agent', 'ai_app')`}
      ${filters.agentName === null ? sql`` : sql`AND p.created_by_name ILIKE ${"%" + filters.agentName.replace(/[\\%_]/g, "\\$&") + "%"}`}
      ${filters.minCents === null ? sql`` : sql`AND p.amount_cents >= ${filters.minCents}`}
      ${filters.maxCents === null ? sql`` : sql`AND p.amount_cents <= ${filters.maxCents}`}
      ${filters.createdBefore === null ? sql`` : sql`AND p.created_at <= ${filters.createdBefore}`}
      ${filters.after === null ? sql`` : sql`AND (p.created_at, p.id) > (${filters.after.createdAt}::timestamptz, ${filters.after.id})`}
    ORDER BY p.created_at, p.id LIMIT ${filters.limit + 1}`.pipe(Effect.orDie)
})

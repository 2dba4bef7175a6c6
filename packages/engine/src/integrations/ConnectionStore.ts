import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, type Integrations } from "@ledger/api"
import * as Row from "../kernel/Row.ts"
import type { MappingRow } from "./MappingRules.ts"
import * as MappingRules from "./MappingRules.ts"
import * as Providers from "./Providers.ts"

/** The SQL of integration connections, their mappings, sync runs and objects. */

type Connection = Integrations.Connections.Connection

export const load = Effect.fn("ConnectionStore.load")(function*(company: string, id: number, lock = false) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM integration_connections WHERE company_id = ${company} AND id = ${id}
    ${lock ? sql`FOR UPDATE` : sql``}`.pipe(Effect.orDie)
  if (rows[0] === undefined || rows[0].status === "pending") return yield* Effect.fail(ApiError.notFound("integration connection"))
  return rows[0]
})

export const requireLive = (row: Record<string, unknown>) =>
  row.status === "disconnected"
    ? Effect.fail(ApiError.fail("integration_disconnected", "This connection is disconnected; connect the provider again to resume."))
    : Effect.void

export const mappings = Effect.fn("ConnectionStore.mappings")(function*(company: string, connection: number) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM integration_mappings WHERE company_id = ${company}
    AND connection_id = ${connection} ORDER BY kind, source_key`.pipe(Effect.orDie)
  return rows
})

export const mappingRow = (row: Record<string, unknown>): MappingRow => ({
  kind: row.kind as MappingRules.Kind,
  sourceKey: String(row.source_key),
  accountCode: (row.account_code as string | null) ?? null,
  className: (row.class_name as string | null) ?? null
})

const clearingBalance = Effect.fn("ConnectionStore.clearingBalance")(function*(company: string, code: string | null) {
  if (code === null) return 0
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ total: unknown }>`SELECT COALESCE(SUM(l.amount_cents), 0) AS total FROM journal_lines l
    JOIN accounts a ON a.company_id = l.company_id AND a.id = l.account_id
    WHERE l.company_id = ${company} AND a.code = ${code}`.pipe(Effect.orDie)
  return Row.int(rows[0]?.total ?? 0)
})

export const gapsOf = (row: Record<string, unknown>, rows: ReadonlyArray<Record<string, unknown>>) =>
  MappingRules.gaps(rows.map(mappingRow), (row.payout_account as string | null) ?? null, Providers.find(String(row.provider))?.kinds ?? [])

/** A connection on the wire, with its health, clearing balance, proposals waiting and mapping gaps. */
export const wire = Effect.fn("ConnectionStore.wire")(function*(company: string, row: Record<string, unknown>) {
  const sql = yield* SqlClient.SqlClient
  const id = Row.int(row.id)
  const gaps = gapsOf(row, yield* mappings(company, id))
  const waiting = yield* sql<{ count: unknown }>`SELECT count(*) AS count FROM integration_objects WHERE company_id = ${company}
    AND connection_id = ${id} AND status IN ('proposed', 'needs_review', 'pending')`.pipe(Effect.orDie)
  const runs = yield* sql<Record<string, unknown>>`SELECT id, status, finished_at FROM integration_sync_runs
    WHERE company_id = ${company} AND connection_id = ${id} ORDER BY id DESC LIMIT 1`.pipe(Effect.orDie)
  const proposals = Row.int(waiting[0]?.count ?? 0)
  const status = row.status as Connection["status"]
  const lastFailed = runs[0]?.status === "failed"
  const body: Connection = {
    id,
    provider: String(row.provider),
    status,
    external_account_id: (row.external_account_id as string | null) ?? null,
    account_name: (row.account_name as string | null) ?? null,
    agent_id: Row.intOrNull(row.agent_id),
    clearing_account: (row.clearing_account as string | null) ?? null,
    payout_bank_account_id: (row.payout_account as string | null) ?? null,
    posting_threshold_cents: Row.int(row.posting_threshold_cents),
    mapping_approved: row.mapping_approved_at !== null && row.mapping_approved_at !== undefined,
    mapping_approved_at: row.mapping_approved_at === null || row.mapping_approved_at === undefined ? null : Row.iso(row.mapping_approved_at),
    health: status === "disconnected" ? "disconnected" : lastFailed || row.last_error != null || gaps.length > 0 ? "needs_attention" : "ok",
    clearing_balance_cents: yield* clearingBalance(company, (row.clearing_account as string | null) ?? null),
    provider_balance_cents: row.provider_balance_cents === null || row.provider_balance_cents === undefined ? null : Row.int(row.provider_balance_cents),
    proposals_waiting: proposals,
    mapping_gaps: gaps,
    last_sync: runs[0] === undefined ? null : {
      id: Row.int(runs[0].id),
      status: String(runs[0].status),
      finished_at: runs[0].finished_at === null ? null : Row.iso(runs[0].finished_at)
    },
    sync_interval_minutes: Row.int(row.sync_interval_minutes ?? 60),
    next_sync_at: status !== "connected" || row.next_sync_at === null || row.next_sync_at === undefined ? null : Row.iso(row.next_sync_at),
    last_error: (row.last_error as string | null | undefined) ?? null,
    last_error_at: row.last_error_at === null || row.last_error_at === undefined ? null : Row.iso(row.last_error_at),
    created_at: Row.iso(row.created_at),
    disconnected_at: row.disconnected_at === null || row.disconnected_at === undefined ? null : Row.iso(row.disconnected_at),
    disconnect_reason: (row.disconnect_reason as string | null) ?? null
  }
  return body
})

export const mappingsBody = Effect.fn("ConnectionStore.mappingsBody")(function*(company: string, row: Record<string, unknown>) {
  const id = Row.int(row.id)
  const rows = yield* mappings(company, id)
  return {
    connection_id: id,
    approved: row.mapping_approved_at !== null && row.mapping_approved_at !== undefined,
    approved_at: row.mapping_approved_at === null || row.mapping_approved_at === undefined ? null : Row.iso(row.mapping_approved_at),
    approval_note: (row.mapping_note as string | null) ?? null,
    gaps: gapsOf(row, rows),
    data: rows.map((mapping) => ({
      kind: mapping.kind as MappingRules.Kind,
      source_key: String(mapping.source_key),
      account_code: (mapping.account_code as string | null) ?? null,
      class_name: (mapping.class_name as string | null) ?? null,
      project_name: (mapping.project_name as string | null) ?? null,
      updated_at: Row.iso(mapping.updated_at)
    })),
    has_more: false,
    next_cursor: null as string | null
  }
})

export const syncRun = (row: Record<string, unknown>): Integrations.Connections.SyncRun => ({
  id: Row.int(row.id),
  connection_id: Row.int(row.connection_id),
  status: row.status as Integrations.Connections.SyncRun["status"],
  trigger: row.trigger as "request" | "schedule",
  counts: Row.json<Integrations.Connections.SyncRun["counts"]>(row.counts),
  errors: Row.json<Array<string>>(row.errors),
  created_at: Row.iso(row.created_at),
  finished_at: row.finished_at === null ? null : Row.iso(row.finished_at)
})

export const syncedObject = (row: Record<string, unknown>): Integrations.Mappings.SyncedObject => ({
  id: Row.int(row.id),
  connection_id: Row.int(row.connection_id),
  external_id: String(row.external_id),
  type: String(row.type),
  version: String(row.version),
  date: Row.date(row.date),
  total_cents: Row.int(row.total_cents),
  status: row.status as Integrations.Mappings.SyncedObject["status"],
  entry_id: Row.intOrNull(row.entry_id),
  proposal_id: Row.intOrNull(row.proposal_id),
  note: (row.note as string | null) ?? null,
  updated_at: Row.iso(row.updated_at)
})

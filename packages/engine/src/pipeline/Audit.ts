import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { ApiError } from "@ledger/api"
import type { Actor } from "../kernel/Actor.ts"
import type { AuditNote } from "../kernel/Handler.ts"
import type { RequestInfo } from "../kernel/RequestContext.ts"

export interface AuditEntry {
  readonly companyId: string
  readonly occurredAt: string
  readonly action: string
  readonly outcome: "ok" | "refused"
  readonly status: number
  readonly errorType?: string | null
  readonly actor: Actor
  readonly agentModel?: string | null
  readonly agentRunId?: string | null
  readonly targetType?: string | null
  readonly targetId?: string | number | null
  readonly reason?: string | null
  readonly via: "http" | "mcp" | "engine"
  readonly details?: Record<string, unknown>
}

/** Appends one event to a company's audit log, in whatever transaction is current. */
export const record = Effect.fn("Audit.record")(function*(entry: AuditEntry) {
  const sql = yield* SqlClient.SqlClient
  yield* insert(sql, entry)
})

/**
 * The event of a request's change that succeeded: who, through what, with what the handler noted
 * and the key it came with. The Dispatcher writes it with the change; a group commit, with each of
 * its changes.
 */
export const ofWrite = (request: RequestInfo, status: number, note: AuditNote | undefined): AuditEntry | null => {
  const companyId = note?.companyId ?? request.companyId
  if (companyId === null) return null
  return {
    companyId,
    occurredAt: request.now,
    action: request.operationId,
    outcome: "ok",
    status,
    actor: request.actor,
    agentModel: request.agentModel,
    agentRunId: request.agentRunId,
    targetType: note?.targetType ?? null,
    targetId: note?.targetId ?? null,
    reason: note?.reason ?? null,
    via: request.via,
    details: { ...note?.details, ...(request.idempotencyKey === null ? {} : { idempotency_key: request.idempotencyKey }) }
  }
}

/** Issues kept in a refusal's event: enough to see what was wrong, bounded in size. */
export const refusedIssuesMax = 20

/** A refusal as the pipeline knows it: the request's identity and the spec's error. */
export interface Refusal {
  readonly actor: Actor
  readonly companyId: string
  readonly action: string
  readonly agentModel: string | null
  readonly agentRunId: string | null
  readonly via: "http" | "mcp" | "engine"
  readonly now: string
  readonly error: ApiError.LedgerError
}

/**
 * The event of a request refused by a known credential (spec 5.7): the error's type, status,
 * message and details, its issues cut to `refusedIssuesMax` (with their count).
 */
export const ofRefusal = (refusal: Refusal): AuditEntry => {
  const details: Record<string, unknown> = { message: refusal.error.message, ...refusal.error.details }
  // The error itself may be cut already (ApiError.invalidRequest: `issues_total`); the event says `issues_count`.
  if (typeof details.issues_total === "number") {
    details.issues_count = details.issues_total
    delete details.issues_total
  }
  if (Array.isArray(details.issues) && details.issues.length > refusedIssuesMax) {
    details.issues_count = details.issues.length
    details.issues = details.issues.slice(0, refusedIssuesMax)
  }
  return {
    companyId: refusal.companyId,
    occurredAt: refusal.now,
    action: refusal.action,
    outcome: "refused",
    status: refusal.error.status,
    errorType: refusal.error.type,
    actor: refusal.actor,
    agentModel: refusal.agentModel,
    agentRunId: refusal.agentRunId,
    via: refusal.via,
    details
  }
}

/**
 * The INSERT of one event, unrun: the Dispatcher runs it inside the statement that completes the
 * idempotency record, saving a round trip on every keyed write.
 */
export const insert = (sql: SqlClient.SqlClient, entry: AuditEntry) => sql`INSERT INTO audit_events ${sql.insert(row(entry))}`

/** The `audit_events` row of an event (its id is the table's default). */
export const row = (entry: AuditEntry) => ({
  company_id: entry.companyId,
  occurred_at: entry.occurredAt,
  action: entry.action,
  outcome: entry.outcome,
  status: entry.status,
  error_type: entry.errorType ?? null,
  principal_type: entry.actor.type,
  principal_id: entry.actor.id === null ? null : String(entry.actor.id),
  principal_name: entry.actor.name,
  key_id: entry.actor.keyId,
  agent_model: entry.agentModel ?? null,
  agent_run_id: entry.agentRunId ?? null,
  target_type: entry.targetType ?? null,
  target_id: entry.targetId === undefined || entry.targetId === null ? null : String(entry.targetId),
  reason: entry.reason ?? null,
  via: entry.via,
  details: JSON.stringify(storable(entry.details ?? {}))
})

/** A character PostgreSQL's jsonb refuses: NUL, or half of a surrogate pair. */
const unstorableCharacter = /[\u0000\ud800-\udfff]/gu

/**
 * The details as jsonb can hold them: a refusal's details may quote what a caller sent (a property
 * name in an issue's path), and recording a refusal must never fail because of it.
 */
export const storable = (value: unknown): unknown => {
  if (typeof value === "string") return value.replace(unstorableCharacter, "\ufffd")
  if (Array.isArray(value)) return value.map(storable)
  if (value === null || typeof value !== "object") return value
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [storable(key) as string, storable(item)]))
}

/** What a handler tells the pipeline to write into the audit event of its change (declared with the handler, in kernel/). */
export type { AuditNote } from "../kernel/Handler.ts"

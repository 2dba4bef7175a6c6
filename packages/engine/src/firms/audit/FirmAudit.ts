import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { type Actor, reference } from "../../kernel/Actor.ts"
import { RequestContext } from "../../kernel/RequestContext.ts"
import * as Row from "../../kernel/Row.ts"
import { appendEvent } from "./FirmAuditChain.ts"
import { type Anchor, type ChainedEvent, verify } from "./FirmAuditRules.ts"

/**
 * The firm's audit log (spec 5.7; docs/decisions/0901-firm-audit-hash-chain.md): every change of a
 * firm is appended here by its handler, inside the change's own transaction, chained to the event
 * before it. The firm's row holds the head (its last seq and hash) and is locked while appending,
 * so a firm's events are numbered 1, 2, 3... without gaps whatever runs concurrently.
 */

export interface FirmEvent {
  readonly action: string
  readonly companyId?: string | null
  readonly targetType?: string | null
  readonly targetId?: string | number | null
  readonly reason?: string | null
  readonly details?: Record<string, unknown>
  /** Who, when not the request's actor (the operator creating a firm is the request's actor). */
  readonly actor?: Actor
}

export const append = Effect.fn("FirmAudit.append")(function*(firmId: number, event: FirmEvent) {
  const sql = yield* SqlClient.SqlClient
  const request = yield* RequestContext
  const actor = event.actor ?? request.actor
  const appended = yield* appendEvent(sql, firmId, {
    occurred_at: Row.iso(request.now),
    action: event.action,
    principal_type: actor.type,
    principal_id: actor.id === null ? null : String(actor.id),
    principal_name: actor.name,
    key_id: actor.keyId,
    company_id: event.companyId ?? null,
    target_type: event.targetType ?? null,
    target_id: event.targetId === undefined || event.targetId === null ? null : String(event.targetId),
    reason: event.reason ?? null,
    via: request.via,
    details: { ...event.details, ...(request.idempotencyKey === null ? {} : { idempotency_key: request.idempotencyKey }) }
  })
  return { ...appended, principal: reference(actor) }
})

/** A stored event as it was hashed, with its hash. */
export const eventOf = (row: Record<string, unknown>): ChainedEvent & { readonly hash: string } => ({
  firm_id: Row.int(row.firm_id),
  seq: Row.int(row.seq),
  occurred_at: Row.iso(row.occurred_at),
  action: String(row.action),
  principal_type: String(row.principal_type),
  principal_id: row.principal_id === null ? null : String(row.principal_id),
  principal_name: row.principal_name === null ? null : String(row.principal_name),
  key_id: Row.intOrNull(row.key_id),
  company_id: row.company_id === null ? null : String(row.company_id),
  target_type: row.target_type === null ? null : String(row.target_type),
  target_id: row.target_id === null ? null : String(row.target_id),
  reason: row.reason === null ? null : String(row.reason),
  via: String(row.via),
  details: Row.json(row.details),
  prev_hash: String(row.prev_hash),
  hash: String(row.hash)
})

/** Pages read while verifying: the whole chain is walked, a page at a time. */
const verifyPageSize = 1_000

export const verifyChain = Effect.fn("FirmAudit.verifyChain")(function*(firmId: number, anchor: Anchor | null = null) {
  const sql = yield* SqlClient.SqlClient
  const heads = yield* sql<Record<string, unknown>>`SELECT audit_seq, audit_head FROM firms WHERE id = ${firmId}`.pipe(Effect.orDie)
  const head = { seq: Row.int(heads[0]!.audit_seq), hash: String(heads[0]!.audit_head) }
  const events: Array<ChainedEvent & { readonly hash: string }> = []
  let after = 0
  while (true) {
    const rows = yield* sql<Record<string, unknown>>`SELECT * FROM firm_audit_events WHERE firm_id = ${firmId} AND seq > ${after}
      ORDER BY seq LIMIT ${verifyPageSize}`.pipe(Effect.orDie)
    events.push(...rows.map(eventOf))
    if (rows.length < verifyPageSize) break
    after = Row.int(rows[rows.length - 1]!.seq)
  }
  return verify(events, head, anchor)
})

export const list = Effect.fn("FirmAudit.list")(function*(firmId: number, beforeSeq: number | null, limit: number) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM firm_audit_events WHERE firm_id = ${firmId}
    ${beforeSeq === null ? sql`` : sql`AND seq < ${beforeSeq}`} ORDER BY seq DESC LIMIT ${limit + 1}`.pipe(Effect.orDie)
  const shown = rows.slice(0, limit).map(eventOf)
  const hasMore = rows.length > limit
  return { data: shown, has_more: hasMore, next_before_seq: hasMore ? shown[shown.length - 1]!.seq : null }
})

/**
 * The firm's head as the database holds it (its last seq and hash), for an operator to record
 * outside the database (`ledger firm-audit-head`, `GET /v1/operator/firms/{id}/audit-head`) and
 * give back to the verifier later as its anchor (ADR 0903). None for a firm that does not exist.
 */
export const head = Effect.fn("FirmAudit.head")(function*(firmId: number) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT id, audit_seq, audit_head FROM firms WHERE id = ${firmId}`.pipe(Effect.orDie)
  const row = rows[0]
  return row === undefined ? null : { firm_id: Row.int(row.id), head_seq: Row.int(row.audit_seq), head_hash: String(row.audit_head) }
})

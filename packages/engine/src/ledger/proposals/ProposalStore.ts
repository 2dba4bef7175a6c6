import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, type Ledger } from "@ledger/api"
import { RequestContext } from "../../kernel/RequestContext.ts"
import * as Row from "../../kernel/Row.ts"
import type * as JournalEntry from "../entries/JournalEntryRules.ts"
import type { Reason } from "../entries/PostingPolicy.ts"

/**
 * Storage of proposals: what an agent asked to post beyond its policy, kept with the operation's
 * kind, the validated request and the exact entry, until a person decides.
 */

export type Proposal = Ledger.Governed.Proposal

const principal = (type: unknown, id: unknown, name: unknown) => ({
  type: String(type),
  id: Row.intOrNull(id),
  name: name === null || name === undefined ? null : String(name)
})

export const fromRow = (row: Record<string, unknown>): Proposal => ({
  id: Row.int(row.id),
  kind: String(row.kind),
  status: row.status as Proposal["status"],
  summary: String(row.summary),
  amount_cents: Row.int(row.amount_cents),
  entry: Row.json<Ledger.Governed.EntryPreview>(row.entry),
  request: Row.json<unknown>(row.request),
  reasons: Row.json<Array<Reason>>(row.reasons),
  soft_lock_override_reason: row.soft_lock_override_reason === null ? null : String(row.soft_lock_override_reason),
  created_by: principal(row.created_by_type, row.created_by_id, row.created_by_name),
  agent_model: row.agent_model === null ? null : String(row.agent_model),
  agent_run_id: row.agent_run_id === null ? null : String(row.agent_run_id),
  created_at: Row.iso(row.created_at),
  decided_by: row.decided_by_type === null ? null : principal(row.decided_by_type, row.decided_by_id, row.decided_by_name),
  decided_at: Row.isoOrNull(row.decided_at),
  decision_reason: row.decision_reason === null ? null : String(row.decision_reason),
  entry_id: Row.intOrNull(row.entry_id),
  reverses_entry_id: Row.intOrNull(row.reverses_entry_id)
})

/** The 202 body's proposal (DECISIONS.md). */
export const summaryOf = (proposal: Proposal): Ledger.Governed.Queued["proposal"] => ({
  id: proposal.id,
  kind: proposal.kind,
  summary: proposal.summary,
  amount_cents: proposal.amount_cents,
  created_by: proposal.created_by,
  created_at: proposal.created_at,
  reasons: proposal.reasons
})

/** The stored entry back as a draft, to be posted exactly on approval. */
export const draftOf = (proposal: Proposal): JournalEntry.DraftEntry => ({
  date: proposal.entry.date,
  memo: proposal.entry.memo,
  lines: proposal.entry.lines.map((line) => ({
    account: line.account,
    ...(line.debit_cents > 0 ? { debit_cents: line.debit_cents } : { credit_cents: line.credit_cents }),
    ...(line.memo === null ? {} : { memo: line.memo }),
    ...(line.class === null ? {} : { class: line.class }),
    ...(line.contact_id === null ? {} : { contact_id: line.contact_id })
  }))
})

export const insert = Effect.fn("ProposalStore.insert")(function*(input: {
  readonly kind: string
  readonly summary: string
  readonly entry: Ledger.Governed.EntryPreview
  readonly request: unknown
  readonly reasons: ReadonlyArray<Reason>
  readonly softLockOverrideReason: string | null
  readonly confidence: number | null
  readonly reversesEntryId: number | null
}) {
  const sql = yield* SqlClient.SqlClient
  const request = yield* RequestContext
  const actor = request.actor
  const rows = yield* sql<Record<string, unknown>>`INSERT INTO proposals ${sql.insert({
    company_id: request.companyId,
    kind: input.kind,
    summary: input.summary,
    amount_cents: input.entry.total_cents,
    entry_date: input.entry.date,
    entry: JSON.stringify(input.entry),
    request: JSON.stringify(input.request ?? null),
    reasons: JSON.stringify(input.reasons),
    soft_lock_override_reason: input.softLockOverrideReason,
    confidence: input.confidence,
    created_by_type: actor.type,
    created_by_id: actor.id,
    created_by_name: actor.name,
    agent_model: request.agentModel,
    agent_run_id: request.agentRunId,
    created_at: request.now,
    reverses_entry_id: input.reversesEntryId
  })} RETURNING *`.pipe(Effect.orDie)
  return fromRow(rows[0]!)
})

/** One proposal of the caller's company; `lock` holds it until the decision commits. */
export const load = Effect.fn("ProposalStore.load")(function*(id: number, lock = false) {
  const sql = yield* SqlClient.SqlClient
  const request = yield* RequestContext
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM proposals WHERE company_id = ${request.companyId} AND id = ${id}
    ${lock ? sql`FOR UPDATE` : sql``}`.pipe(Effect.orDie)
  const row = rows[0]
  if (row === undefined) return yield* Effect.fail(ApiError.notFound("proposal"))
  return fromRow(row)
})

export const decide = Effect.fn("ProposalStore.decide")(function*(id: number, decision: {
  readonly status: "approved" | "rejected"
  readonly reason: string | null
  readonly entryId: number | null
}) {
  const sql = yield* SqlClient.SqlClient
  const request = yield* RequestContext
  const actor = request.actor
  const rows = yield* sql<Record<string, unknown>>`UPDATE proposals SET status = ${decision.status},
      decided_by_type = ${actor.type}, decided_by_id = ${actor.id}, decided_by_name = ${actor.name},
      decided_at = ${request.now}, decision_reason = ${decision.reason}, entry_id = ${decision.entryId}
    WHERE company_id = ${request.companyId} AND id = ${id} AND status = 'pending' RETURNING *`.pipe(Effect.orDie)
  return fromRow(rows[0]!)
})

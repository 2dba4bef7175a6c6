import { Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Ledger } from "@ledger/api"
import * as Handler from "../../kernel/Handler.ts"
import * as Outbox from "../../pipeline/Outbox.ts"
import * as Pagination from "../../kernel/Pagination.ts"
import { Registry } from "../../kernel/Registry.ts"
import { RequestContext } from "../../kernel/RequestContext.ts"
import * as Row from "../../kernel/Row.ts"
import * as ControlAccountRules from "../entries/ControlAccountRules.ts"
import * as JournalEntryStore from "../entries/JournalEntryStore.ts"
import * as ProposalStore from "./ProposalStore.ts"

/**
 * Deciding proposals (DECISIONS.md): a person with the approve scope, never the proposer. Approval
 * posts exactly the stored entry (checking the period again) and hands it to the owning area;
 * rejection records the reason and lets the area release what it held.
 */

const operations = Ledger.Proposals

const pendingOrRefuse = (proposal: ProposalStore.Proposal) =>
  proposal.status === "pending"
    ? Effect.void
    : Effect.fail(ApiError.fail("proposal_not_pending", `This proposal is already ${proposal.status}.`, {
      status: proposal.status,
      decided_at: proposal.decided_at
    }))

const notTheProposer = Effect.fn("Proposals.notTheProposer")(function*(proposal: ProposalStore.Proposal) {
  const request = yield* RequestContext
  const actor = request.actor
  if (proposal.created_by.type === actor.type && proposal.created_by.id === actor.id) {
    return yield* Effect.fail(ApiError.fail("self_approval_refused", "A proposal is never decided by its proposer."))
  }
})

/**
 * The kind that finishes the proposal, registered by its area, and the stored request decoded by
 * the kind's Schema: the area wrote it, so one that does not decode is a defect.
 */
const kindOf = Effect.fn("Proposals.kindOf")(function*(proposal: ProposalStore.Proposal) {
  const kind = yield* Registry.proposalKind(proposal.kind)
  const request = yield* Schema.decodeUnknownEffect(kind.request)(proposal.request).pipe(Effect.orDie)
  return { kind, request }
})

export const handlers = [
  Handler.make(operations.listProposals, ({ query }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const select = (after: number | null, limitPlusOne: number) =>
        sql<Record<string, unknown>>`SELECT * FROM proposals WHERE company_id = ${request.companyId}
        ${query.status === undefined ? sql`` : sql`AND status = ${query.status}`}
        ${query.kind === undefined ? sql`` : sql`AND kind = ${query.kind}`}
        ${query.agent_id === undefined ? sql`` : sql`AND created_by_type = 'agent' AND created_by_id = ${query.agent_id}`}
        ${after === null ? sql`` : sql`AND id < ${after}`}
        ORDER BY id DESC LIMIT ${limitPlusOne}`.pipe(Effect.orDie)
      return { body: yield* Pagination.listPage(query, select, (row) => Row.int(row.id), ProposalStore.fromRow) }
    })),

  Handler.make(operations.getProposal, ({ path }) =>
    Effect.map(ProposalStore.load(path.id), (proposal) => ({ body: proposal }))),

  Handler.make(operations.approveProposal, ({ body, path }) =>
    Effect.gen(function*() {
      const proposal = yield* ProposalStore.load(path.id, true)
      yield* pendingOrRefuse(proposal)
      yield* notTheProposer(proposal)
      const { kind, request } = yield* kindOf(proposal)
      // Exactly what was proposed: the stored entry, or again the exact reversal it was.
      const prepared = proposal.reverses_entry_id === null
        ? yield* JournalEntryStore.prepare(ProposalStore.draftOf(proposal), ["proposal", "entry", "lines"])
        : (yield* JournalEntryStore.prepareReversal(proposal.reverses_entry_id, { date: proposal.entry.date, memo: proposal.entry.memo }))
          .prepared
      // A proposal stored before the control-account rule (ADR 0106) is held to it too.
      if (proposal.reverses_entry_id === null) {
        const control = ControlAccountRules.checkEntry(proposal.kind, prepared.lines, ["proposal", "entry", "lines"])
        if (control !== null) return yield* Effect.fail(control)
      }
      const entry = yield* JournalEntryStore.post(prepared, {
        sourceKind: proposal.kind,
        sourceId: kind.sourceId === undefined ? null : yield* kind.sourceId({ proposal, request }),
        // The date may have been soft-locked since: the proposer's reason, else the approver's.
        softLockOverrideReason: proposal.soft_lock_override_reason ?? body.reason ?? null,
        proposalId: proposal.id,
        reversesEntryId: proposal.reverses_entry_id
      })
      const result = yield* kind.approved({ proposal, request, entry })
      const decided = yield* ProposalStore.decide(proposal.id, { status: "approved", reason: body.reason ?? null, entryId: entry.id })
      yield* Outbox.emit("proposal.decided", {
        proposal_id: decided.id,
        kind: decided.kind,
        decision: "approved",
        entry_id: entry.id,
        decided_by: decided.decided_by,
        reason: decided.decision_reason
      }).pipe(Effect.orDie)
      return {
        body: { proposal: decided, entry_id: entry.id, result },
        audit: {
          targetType: "proposal",
          targetId: decided.id,
          reason: body.reason ?? null,
          details: { decision: "approved", kind: decided.kind, entry_id: entry.id, amount_cents: decided.amount_cents }
        }
      }
    })),

  Handler.make(operations.rejectProposal, ({ body, path }) =>
    Effect.gen(function*() {
      const proposal = yield* ProposalStore.load(path.id, true)
      yield* pendingOrRefuse(proposal)
      yield* notTheProposer(proposal)
      const { kind, request } = yield* kindOf(proposal)
      const decided = yield* ProposalStore.decide(proposal.id, { status: "rejected", reason: body.reason, entryId: null })
      yield* kind.rejected({ proposal: decided, request })
      yield* Outbox.emit("proposal.decided", {
        proposal_id: decided.id,
        kind: decided.kind,
        decision: "rejected",
        entry_id: null,
        decided_by: decided.decided_by,
        reason: decided.decision_reason
      }).pipe(Effect.orDie)
      return {
        body: decided,
        audit: {
          targetType: "proposal",
          targetId: decided.id,
          reason: body.reason,
          details: { decision: "rejected", kind: decided.kind, amount_cents: decided.amount_cents }
        }
      }
    }))
] as const

import { Schema } from "effect"
import { DateString, Id, Timestamp } from "../Common.ts"
import { AccountType, JournalLine, Principal } from "./Records.ts"

/**
 * The wire shapes of the governed write path (spec 3.1, DECISIONS.md "Governed writes"), shared by
 * every governed operation: journal entries here, documents and payments in sales, bank-line
 * categorization in banking. An operation declares them with:
 *
 *   success: TheRecord, otherResponses: { 200: Governed.preview(ThePreviewDocument), 202: Governed.Queued }
 */

export const verdicts = ["post", "propose", "refuse"] as const
export const Verdict = Schema.Literals(verdicts)
export type Verdict = typeof Verdict.Type

/** Why the policy decided as it did: `within_threshold`, `over_threshold`, `period_hard_locked`, ... */
export const PolicyReason = Schema.Struct({
  type: Schema.String,
  message: Schema.String
}).annotate({ identifier: "PolicyReason" })
export type PolicyReason = typeof PolicyReason.Type

/** The exact entry a governed write posts (or would post). */
export const EntryPreview = Schema.Struct({
  date: DateString,
  memo: Schema.NullOr(Schema.String),
  lines: Schema.Array(JournalLine),
  total_cents: Schema.Int
}).annotate({ identifier: "EntryPreview" })
export type EntryPreview = typeof EntryPreview.Type

/** An account the entry moves: its balance as of the entry date before and after posting. */
export const BalanceChange = Schema.Struct({
  account: Schema.String,
  name: Schema.String,
  type: AccountType,
  balance_cents: Schema.Int,
  change_cents: Schema.Int,
  balance_after_cents: Schema.Int
}).annotate({
  identifier: "BalanceChange",
  description: "Balances are signed in the account's natural direction, as of the entry date."
})

const previewFields = {
  dry_run: Schema.Literal(true),
  verdict: Verdict,
  reasons: Schema.Array(PolicyReason),
  entry: EntryPreview,
  number: Schema.optionalKey(Schema.String).annotate({ description: "The document number it would take (not consumed)." }),
  balances: Schema.Array(BalanceChange)
}

/** The 200 body of a dry run: nothing is written, no number consumed. */
export const Preview = Schema.Struct({
  ...previewFields,
  document: Schema.optionalKey(Schema.Record(Schema.String, Schema.Unknown))
}).annotate({ identifier: "GovernedPreview" })
export type Preview = typeof Preview.Type

/** The 200 body of a dry run whose `document` has a known shape. */
export const preview = <S extends Schema.Top>(document: S) =>
  Schema.Struct({ ...previewFields, document: Schema.optionalKey(document) })

export const proposalStatuses = ["pending", "approved", "rejected"] as const
export const ProposalStatus = Schema.Literals(proposalStatuses)

/** A proposal as the 202 result carries it (DECISIONS.md). */
export const ProposalSummary = Schema.Struct({
  id: Id,
  kind: Schema.String,
  summary: Schema.String,
  amount_cents: Schema.Int,
  created_by: Principal,
  created_at: Timestamp,
  reasons: Schema.Array(PolicyReason)
}).annotate({ identifier: "ProposalSummary" })

/** The 202 body: queued for a person's approval. */
export const Queued = Schema.Struct({
  status: Schema.Literal("pending_approval"),
  proposal: ProposalSummary
}).annotate({ identifier: "GovernedQueued" })
export type Queued = typeof Queued.Type

/** A proposal with everything a person needs to decide it. */
export const Proposal = Schema.Struct({
  id: Id,
  kind: Schema.String,
  status: ProposalStatus,
  summary: Schema.String,
  amount_cents: Schema.Int,
  entry: EntryPreview.annotate({ description: "Exactly what approval posts (dated lines as proposed)." }),
  request: Schema.Unknown.annotate({ description: "The validated request the proposer sent." }),
  reasons: Schema.Array(PolicyReason),
  soft_lock_override_reason: Schema.NullOr(Schema.String),
  created_by: Principal,
  agent_model: Schema.NullOr(Schema.String),
  agent_run_id: Schema.NullOr(Schema.String),
  created_at: Timestamp,
  decided_by: Schema.NullOr(Principal),
  decided_at: Schema.NullOr(Timestamp),
  decision_reason: Schema.NullOr(Schema.String),
  entry_id: Schema.NullOr(Id).annotate({ description: "The entry approval posted." }),
  reverses_entry_id: Schema.NullOr(Id).annotate({ description: "Set when approval posts the exact reversal of this entry (a void)." })
}).annotate({ identifier: "Proposal" })
export type Proposal = typeof Proposal.Type

/** An agent's confidence in what it proposes, 0 to 1; recorded, never decisive. */
export const Confidence = Schema.Finite.check(Schema.isBetween({ minimum: 0, maximum: 1 })).annotate({
  description: "The agent's confidence in what it proposes, 0 to 1; recorded, never decisive."
})

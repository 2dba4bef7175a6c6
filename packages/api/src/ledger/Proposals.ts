import { Schema } from "effect"
import { Id, PageQuery, Reason } from "../Common.ts"
import * as Operation from "../Operation.ts"
import { Proposal, ProposalStatus } from "./Governed.ts"

const area = "Proposals (DECISIONS.md)"
const IdPath = Schema.Struct({ id: Id })

export const listProposals = Operation.make({
  id: "listProposals",
  method: "GET",
  path: "/v1/proposals",
  area,
  summary: "Proposals, newest first: what agents asked to post beyond their policy.",
  scope: "read",
  mode: "R",
  query: Schema.Struct({
    status: Schema.optionalKey(ProposalStatus),
    agent_id: Schema.optionalKey(Id),
    kind: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(60)).annotate({
      description: "Only proposals of this kind (journal_entry, invoice, bill, payment...)."
    })),
    ...PageQuery
  }),
  success: Schema.Struct({
    data: Schema.Array(Proposal),
    has_more: Schema.Boolean,
    next_cursor: Schema.NullOr(Schema.String)
  })
})

export const getProposal = Operation.make({
  id: "getProposal",
  method: "GET",
  path: "/v1/proposals/{id}",
  area,
  summary: "One proposal: the exact entry, the request, who proposed it and the decision.",
  scope: "read",
  mode: "R",
  pathParams: IdPath,
  success: Proposal
})

export const ApprovedProposal = Schema.Struct({
  proposal: Proposal,
  entry_id: Id,
  result: Schema.Unknown.annotate({ description: "The posted record (entry, document, payment...) with its entry_id." })
}).annotate({ identifier: "ApprovedProposal" })

export const approveProposal = Operation.make({
  id: "approveProposal",
  method: "POST",
  path: "/v1/proposals/{id}/approve",
  area,
  summary: "Approve a pending proposal: posts exactly what was proposed, after checking the period again.",
  description: "A person with the approve scope, never the proposer. When the date has become soft-locked and the " +
    "proposal carried no override reason, the approval's reason serves as one.",
  scope: "approve",
  mode: "K",
  peopleOnly: true,
  pathParams: IdPath,
  body: Schema.Struct({ reason: Schema.optionalKey(Reason) }),
  success: ApprovedProposal,
  errors: ["proposal_not_pending", "self_approval_refused", "period_hard_locked", "amount_out_of_range", "soft_lock_reason_required"]
})

export const rejectProposal = Operation.make({
  id: "rejectProposal",
  method: "POST",
  path: "/v1/proposals/{id}/reject",
  area,
  summary: "Reject a pending proposal with a reason. Nothing posts.",
  scope: "approve",
  mode: "K",
  status: 200,
  peopleOnly: true,
  pathParams: IdPath,
  body: Schema.Struct({ reason: Reason }),
  success: Proposal,
  errors: ["proposal_not_pending", "self_approval_refused"]
})

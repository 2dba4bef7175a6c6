import { Schema } from "effect"
import { CompanyId, DateString, DryRun, Id, PageQuery, Reason } from "../Common.ts"
import * as Operation from "../Operation.ts"
import * as Limits from "./FirmLimits.ts"
import { area, BatchResult } from "./Records.ts"

/** Work across clients: period locks, the proposal queue and its decisions, the month-end close (spec 4.3). */

export const lockClientPeriods = Operation.make({
  id: "lockClientPeriods",
  method: "POST",
  path: "/v1/firm/clients/lock-period",
  area,
  summary: "Lock the period containing a date in many clients: each locked separately as the caller, in its own log.",
  description: "Per-company results; one failure never blocks the others. Firm members only.",
  credential: "firm",
  scope: "approve",
  mode: "K",
  status: 200,
  peopleOnly: true,
  body: Schema.Struct({
    company_ids: Schema.Array(CompanyId).check(Schema.isMinLength(1), Schema.isMaxLength(Limits.batchItemsMax)).annotate({
      description: "The clients whose period containing the date to lock."
    }),
    date: DateString,
    status: Schema.Literals(["soft_locked", "hard_locked"]).annotate({
      description: "soft_locked posts only with an override reason; hard_locked refuses every posting."
    }),
    reason: Reason,
    dry_run: DryRun
  }),
  success: BatchResult
})

const Count = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))

export const FirmProposal = Schema.Struct({
  company_id: Schema.String,
  company_name: Schema.String,
  proposal_id: Schema.Int,
  kind: Schema.String,
  summary: Schema.String,
  amount_cents: Schema.Int,
  entry_date: Schema.String,
  created_by_type: Schema.String,
  created_by_id: Schema.NullOr(Schema.Int),
  created_by_name: Schema.NullOr(Schema.String),
  created_at: Schema.String,
  age_days: Schema.Int,
  reasons: Schema.Unknown
}).annotate({ identifier: "FirmProposal" })

export const listFirmProposals = Operation.make({
  id: "listFirmProposals",
  method: "GET",
  path: "/v1/firm/proposals",
  area,
  summary: "Pending proposals across every granting client, oldest first.",
  credential: "firm",
  scope: "read",
  mode: "R",
  query: Schema.Struct({
    company_id: Schema.optionalKey(CompanyId),
    agent_id: Schema.optionalKey(Id),
    agent_name: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(200)).annotate({ description: "Only proposals by agents with this name." })),
    min_cents: Schema.optionalKey(Count),
    max_cents: Schema.optionalKey(Count),
    older_than_days: Schema.optionalKey(Count.annotate({ description: "Only proposals waiting more than this many days." })),
    ...PageQuery
  }),
  success: Schema.Struct({ data: Schema.Array(FirmProposal), has_more: Schema.Boolean, next_cursor: Schema.NullOr(Schema.String) })
})

export const decideFirmProposals = Operation.make({
  id: "decideFirmProposals",
  method: "POST",
  path: "/v1/firm/proposals/decide",
  area,
  summary: "Approve or reject proposals across clients: each in its company as the caller, with a single approval's rules.",
  description: "Items `{company_id, proposal_id}` (DECISIONS.md); one failure never blocks the others. Firm members only.",
  credential: "firm",
  scope: "approve",
  mode: "K",
  status: 200,
  peopleOnly: true,
  body: Schema.Struct({
    decision: Schema.Literals(["approve", "reject"]).annotate({ description: "What to do with every listed proposal." }),
    reason: Schema.optionalKey(Reason),
    items: Schema.Array(Schema.Struct({ company_id: CompanyId, proposal_id: Id })).annotate({ description: "The proposals to decide, each by its client and id." })
      .check(Schema.isMinLength(1), Schema.isMaxLength(Limits.batchItemsMax)),
    dry_run: DryRun
  }),
  success: BatchResult
})

export const CloseChecklist = Schema.Struct({
  company_id: Schema.String,
  name: Schema.String,
  period: Schema.NullOr(Schema.Struct({ id: Schema.Int, start_date: Schema.String, end_date: Schema.String, status: Schema.String })),
  unreconciled_bank_accounts: Schema.Array(Schema.Struct({
    bank_account_id: Schema.Int,
    name: Schema.String,
    last_reconciled_date: Schema.NullOr(Schema.String)
  })),
  unposted_bank_lines: Count,
  unapplied_payments: Schema.Struct({ count: Count, cents: Schema.Int }),
  open_proposals: Count,
  unlocked_prior_periods: Count,
  ar_ap_tie_out: Schema.Struct({
    ar_ledger_cents: Schema.Int,
    ar_open_documents_cents: Schema.Int,
    ap_ledger_cents: Schema.Int,
    ap_open_documents_cents: Schema.Int,
    ties: Schema.Boolean
  }),
  ready: Schema.Boolean
}).annotate({ identifier: "FirmCloseChecklist" })

export const getFirmClose = Operation.make({
  id: "getFirmClose",
  method: "GET",
  path: "/v1/firm/close",
  area,
  summary: "The month-end close checklist of the period containing the date, for every client (docs/firms.md).",
  credential: "firm",
  scope: "read",
  mode: "R",
  query: Schema.Struct({
    date: Schema.optionalKey(DateString),
    unapplied_days: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: Limits.unappliedDaysMax })).annotate({
      description: `Flag payments and credits left unapplied longer than this many days (default ${Limits.unappliedDaysDefault}).`
    })),
    ...PageQuery
  }),
  success: Schema.Struct({
    date: Schema.String,
    unapplied_days: Schema.Int,
    data: Schema.Array(CloseChecklist),
    has_more: Schema.Boolean,
    next_cursor: Schema.NullOr(Schema.String)
  })
    .annotate({ identifier: "FirmClose" })
})

export const operations = [lockClientPeriods, listFirmProposals, decideFirmProposals, getFirmClose] as const

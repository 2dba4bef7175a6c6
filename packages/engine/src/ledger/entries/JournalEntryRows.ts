import type { Ledger } from "@ledger/api"
import type { RequestInfo } from "../../kernel/RequestContext.ts"
import * as Row from "../../kernel/Row.ts"
import type { PeriodOnDate } from "../periods/PeriodStore.ts"
import * as JournalEntryRules from "./JournalEntryRules.ts"

/**
 * What a posting stores and answers, as pure builders: its `journal_entries` row, its lines'
 * rows, the payload of `entry.posted` and the record the API shows. The governed path
 * (JournalEntryStore.post) and the group commit (posting/JournalBatch.ts) both build with these,
 * so a posting is stored and answered the same way whichever path writes it.
 */

/** A draft resolved against the chart, ready to post: its lines signed and its total. */
export interface Prepared {
  readonly draft: JournalEntryRules.DraftEntry
  readonly lines: ReadonlyArray<JournalEntryRules.ResolvedLine>
  readonly totalCents: number
}

export interface PostOptions {
  /** What is posting: `journal_entry`, `reversal`, `invoice`, `bank_line`, ... (shown as `source.kind`). */
  readonly sourceKind: string
  /** The owning record's id when it is known before posting (e.g. from `SELECT nextval('ledger_ids')`). */
  readonly sourceId?: number | null
  readonly softLockOverrideReason?: string | null
  readonly proposalId?: number | null
  readonly confidence?: number | null
  readonly reversesEntryId?: number | null
  /** The date's period as the caller already read it FOR SHARE in this transaction (saves a query). */
  readonly heldPeriod?: PeriodOnDate | null
}

/** The `journal_entries` row of a prepared entry, as `post` inserts it (and a group commit, with its id). */
export const entryRow = (
  prepared: Prepared,
  options: PostOptions,
  request: RequestInfo,
  companyId: string,
  period: PeriodOnDate | null
) => ({
  company_id: companyId,
  entry_date: prepared.draft.date,
  memo: prepared.draft.memo ?? null,
  total_cents: prepared.totalCents,
  source_kind: options.sourceKind,
  source_id: options.sourceId ?? null,
  reverses_entry_id: options.reversesEntryId ?? null,
  proposal_id: options.proposalId ?? null,
  // Recorded only where it mattered: a soft-locked period.
  soft_lock_override_reason: period?.status === "soft_locked" ? options.softLockOverrideReason ?? null : null,
  confidence: options.confidence ?? null,
  posted_by_type: request.actor.type,
  posted_by_id: request.actor.id,
  posted_by_name: request.actor.name,
  agent_model: request.agentModel,
  posted_at: request.now
})

/** The `journal_lines` columns of a prepared entry's lines that are not the entry's own. */
export const lineRows = (prepared: Prepared) =>
  prepared.lines.map((line) => ({
    line_no: line.lineNo,
    account_id: line.accountId,
    amount_cents: line.amountCents,
    memo: line.memo,
    class_id: line.classId,
    contact_id: line.contactId
  }))

/** The payload of `entry.posted` (spec 6.1). */
export const postedEvent = (entry: Ledger.Records.JournalEntry): Record<string, unknown> => ({
  entry_id: entry.id,
  entry_date: entry.entry_date,
  total_cents: entry.total_cents,
  source: entry.source,
  proposal_id: entry.proposal_id,
  reverses_entry_id: entry.reverses_entry_id
})

/** A posted entry as the API shows it, from its row as stored (or as about to be) and its lines. */
export const recordOf = (
  row: Record<string, unknown>,
  lines: ReadonlyArray<JournalEntryRules.ResolvedLine>,
  reversedBy: number | null
): Ledger.Records.JournalEntry => {
  const id = Row.int(row.id)
  return {
    id,
    entry_id: id,
    entry_date: Row.date(row.entry_date),
    memo: row.memo === null ? null : String(row.memo),
    lines: lines.map(JournalEntryRules.toWireLine),
    total_cents: Row.int(row.total_cents),
    source: { kind: String(row.source_kind), id: Row.intOrNull(row.source_id) },
    reverses_entry_id: Row.intOrNull(row.reverses_entry_id),
    reversed_by_entry_id: reversedBy,
    proposal_id: Row.intOrNull(row.proposal_id),
    soft_lock_override_reason: row.soft_lock_override_reason === null ? null : String(row.soft_lock_override_reason),
    confidence: row.confidence === null ? null : Number(row.confidence),
    posted_by: {
      type: String(row.posted_by_type),
      id: Row.intOrNull(row.posted_by_id),
      name: row.posted_by_name === null ? null : String(row.posted_by_name)
    },
    agent_model: row.agent_model === null ? null : String(row.agent_model),
    posted_at: Row.iso(row.posted_at)
  }
}

import { Schema } from "effect"
import { DateString, DryRun, Id, Memo, Reason } from "../Common.ts"
import * as Operation from "../Operation.ts"
import { Confidence, Preview, Queued } from "./Governed.ts"
import { DraftLines, JournalEntry } from "./Records.ts"

const area = "4.4 Ledger"

const entryErrors = [
  "unbalanced_entry",
  "control_account_line",
  "single_line_entry",
  "zero_amount_line",
  "two_sided_line",
  "unknown_account",
  "inactive_account",
  "unknown_class",
  "unknown_contact",
  "period_hard_locked", "amount_out_of_range",
  "soft_lock_reason_required"
] as const

export const proposeJournalEntry = Operation.make({
  id: "proposeJournalEntry",
  method: "POST",
  path: "/v1/journal-entries/propose",
  area,
  summary: "Post a journal entry through the governed write path: 201 posted, 202 queued for approval, 200 dry run.",
  description: "A person with the scope posts. An agent posts when the entry total is at or under its posting " +
    "threshold, otherwise a proposal is queued (202). A soft-locked date needs soft_lock_override_reason; a " +
    "hard-locked date is refused. dry_run returns the verdict, the exact entry and the affected balances.",
  scope: "propose",
  mode: "K",
  governed: true,
  body: Schema.Struct({
    entry_date: DateString,
    memo: Schema.optionalKey(Memo),
    lines: DraftLines,
    dry_run: DryRun,
    confidence: Schema.optionalKey(Confidence),
    soft_lock_override_reason: Schema.optionalKey(Reason)
  }),
  success: JournalEntry,
  otherResponses: { 200: Preview, 202: Queued },
  errors: entryErrors
})

export const getJournalEntry = Operation.make({
  id: "getJournalEntry",
  method: "GET",
  path: "/v1/journal-entries/{id}",
  area,
  summary: "A posted journal entry with its lines, and the entry that reversed it if any.",
  scope: "read",
  mode: "R",
  pathParams: Schema.Struct({ id: Id }),
  success: JournalEntry
})

export const reverseJournalEntry = Operation.make({
  id: "reverseJournalEntry",
  method: "POST",
  path: "/v1/journal-entries/{id}/reverse",
  area,
  summary: "Post the exact reversal of an entry (every line on the other side), dated entry_date (default today).",
  scope: "approve",
  mode: "K",
  pathParams: Schema.Struct({ id: Id }),
  body: Schema.Struct({
    entry_date: Schema.optionalKey(DateString),
    memo: Schema.optionalKey(Memo),
    soft_lock_override_reason: Schema.optionalKey(Reason)
  }),
  success: JournalEntry,
  errors: ["entry_already_reversed", "entry_not_reversible", "period_hard_locked", "amount_out_of_range", "soft_lock_reason_required"]
})

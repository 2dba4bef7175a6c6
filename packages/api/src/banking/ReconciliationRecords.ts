import { Schema } from "effect"
import { DateString, Id, Timestamp } from "../Common.ts"

/** Reconciliations' records (spec 3.6): a reconciliation, its cleared items, its report and tie-out. */

export const reconciliationStatuses = ["in_progress", "finished", "cancelled", "undone"] as const
export const ReconciliationStatus = Schema.Literals(reconciliationStatuses)

export const ReconciliationItem = Schema.Struct({
  entry_id: Id,
  date: DateString,
  amount_cents: Schema.Int.annotate({ description: "The entry's effect on the ledger account, natural direction." }),
  memo: Schema.NullOr(Schema.String),
  bank_line_id: Schema.NullOr(Id)
}).annotate({ identifier: "ReconciliationItem" })

export const Reconciliation = Schema.Struct({
  id: Id,
  bank_account_id: Id,
  status: ReconciliationStatus,
  statement_date: DateString,
  beginning_balance_cents: Schema.Int,
  statement_ending_balance_cents: Schema.Int,
  cleared_balance_cents: Schema.Int,
  difference_cents: Schema.Int,
  cleared_count: Schema.Int,
  finished_at: Schema.NullOr(Timestamp),
  reason: Schema.NullOr(Schema.String),
  created_at: Timestamp
}).annotate({ identifier: "Reconciliation" })

export const ReconciliationDetail = Schema.Struct({
  ...Reconciliation.fields,
  cleared: Schema.Array(ReconciliationItem),
  candidates: Schema.Array(ReconciliationItem).annotate({ description: "While in progress: uncleared items up to the statement date." })
}).annotate({ identifier: "ReconciliationDetail" })

export const ReconciliationReport = Schema.Struct({
  reconciliation: Reconciliation,
  cleared_deposits: Schema.Array(ReconciliationItem),
  cleared_payments: Schema.Array(ReconciliationItem),
  uncleared: Schema.Array(ReconciliationItem),
  tie_out: Schema.Struct({
    beginning_balance_cents: Schema.Int,
    cleared_deposits_cents: Schema.Int,
    cleared_payments_cents: Schema.Int,
    statement_ending_balance_cents: Schema.Int,
    uncleared_cents: Schema.Int,
    book_balance_cents: Schema.Int.annotate({ description: "The ledger account's balance as of the statement date." }),
    difference_cents: Schema.Int
  })
}).annotate({ identifier: "ReconciliationReport" })

import { Schema } from "effect"
import { Cents, DateString, Empty, Id, PageQuery, Page, Reason } from "../Common.ts"
import * as Limits from "../Limits.ts"
import * as File from "../File.ts"
import * as Operation from "../Operation.ts"
import { Reconciliation, ReconciliationDetail, ReconciliationReport } from "./Records.ts"

const area = "4.6 Reconciliation"
const IdPath = Schema.Struct({ id: Id })
const EntryIds = Schema.Array(Id).check(Schema.isMaxLength(Limits.reconciliationChangeItemsMax)).annotate({
  description: "Journal entry ids of this bank account."
})

export const startReconciliation = Operation.make({
  id: "startReconciliation",
  method: "POST",
  path: "/v1/bank-accounts/{id}/reconciliations",
  area,
  summary: "Start reconciling a statement; the beginning balance is the last finished statement's ending balance.",
  description: "auto_clear clears every posted entry linked to a bank line of this account dated on or before the statement date.",
  scope: "propose",
  mode: "K",
  pathParams: IdPath,
  body: Schema.Struct({
    statement_date: DateString,
    statement_ending_balance_cents: Cents,
    auto_clear: Schema.optionalKey(Schema.Boolean.annotate({
      description: "Clear every posted entry linked to a bank line of this account dated on or before the statement date."
    }))
  }),
  success: ReconciliationDetail,
  errors: ["reconciliation_in_progress"]
})

export const listReconciliations = Operation.make({
  id: "listReconciliations",
  method: "GET",
  path: "/v1/reconciliations",
  area,
  summary: "Reconciliations, newest first.",
  scope: "read",
  mode: "R",
  query: Schema.Struct({ bank_account_id: Schema.optionalKey(Id), ...PageQuery }),
  success: Page(Reconciliation)
})

export const getReconciliation = Operation.make({
  id: "getReconciliation",
  method: "GET",
  path: "/v1/reconciliations/{id}",
  area,
  summary: "A reconciliation with its cleared items and, while in progress, the uncleared candidates.",
  scope: "read",
  mode: "R",
  pathParams: IdPath,
  success: ReconciliationDetail
})

export const updateReconciliation = Operation.make({
  id: "updateReconciliation",
  method: "POST",
  path: "/v1/reconciliations/{id}/update",
  area,
  summary: "Clear or unclear entries (by entry id), or correct the statement date or ending balance.",
  scope: "propose",
  mode: "K",
  status: 200,
  pathParams: IdPath,
  body: Schema.Struct({
    clear: Schema.optionalKey(EntryIds),
    unclear: Schema.optionalKey(EntryIds),
    statement_date: Schema.optionalKey(DateString),
    statement_ending_balance_cents: Schema.optionalKey(Cents)
  }),
  success: ReconciliationDetail,
  errors: ["reconciliation_closed"]
})

export const finishReconciliation = Operation.make({
  id: "finishReconciliation",
  method: "POST",
  path: "/v1/reconciliations/{id}/finish",
  area,
  summary: "Finish at zero difference; the reconciliation is then immutable. Emits reconciliation.finished.",
  scope: "approve",
  mode: "K",
  status: 200,
  pathParams: IdPath,
  body: Empty,
  success: ReconciliationDetail,
  errors: ["reconciliation_not_balanced", "reconciliation_closed"]
})

export const cancelReconciliation = Operation.make({
  id: "cancelReconciliation",
  method: "POST",
  path: "/v1/reconciliations/{id}/cancel",
  area,
  summary: "Discard a reconciliation in progress, with a reason. Finished ones are never cancelled.",
  scope: "propose",
  mode: "K",
  status: 200,
  pathParams: IdPath,
  body: Schema.Struct({ reason: Reason }),
  success: Reconciliation,
  errors: ["reconciliation_closed"]
})

export const getReconciliationReport = Operation.make({
  id: "getReconciliationReport",
  method: "GET",
  path: "/v1/reconciliations/{id}/report",
  area,
  summary: "Cleared deposits and payments, uncleared items and the book-to-statement tie-out (json or csv).",
  description: "format=csv answers the report as a CSV file (JSON clients and MCP: `{ format: \"csv\", filename, content }`).",
  scope: "read",
  mode: "R",
  pathParams: IdPath,
  query: Schema.Struct({ format: Schema.optionalKey(Schema.Literals(["json", "csv"])) }),
  success: Schema.Union([ReconciliationReport, File.CsvEnvelope]),
  files: File.csvReport
})

export const undoReconciliation = Operation.make({
  id: "undoReconciliation",
  method: "POST",
  path: "/v1/reconciliations/{id}/undo",
  area,
  summary: "Undo the latest finished reconciliation of its bank account; refused while a period on or after its statement is locked.",
  scope: "approve",
  mode: "K",
  status: 200,
  pathParams: IdPath,
  body: Schema.Struct({ reason: Reason }),
  success: Reconciliation,
  errors: ["reconciliation_not_latest", "reconciliation_closed", "period_locked"]
})

export const operations = [
  startReconciliation,
  listReconciliations,
  getReconciliation,
  updateReconciliation,
  finishReconciliation,
  cancelReconciliation,
  getReconciliationReport,
  undoReconciliation
] as const

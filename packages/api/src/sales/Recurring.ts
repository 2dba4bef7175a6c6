import { Schema } from "effect"
import { DateString, Id, Memo, Name, PageQuery, Page, Reason, Timestamp } from "../Common.ts"
import * as Limits from "../Limits.ts"
import * as Operation from "../Operation.ts"
import { AccountCode, DocumentLines, governedFields, IdPath, Reference, TermsDays } from "./Shared.ts"

const area = "4.9 Recurring documents"

export const Frequency = Schema.Literals(["weekly", "monthly", "quarterly", "yearly"]).annotate({
  description: "How often a document is made, times interval_count."
})
export type Frequency = typeof Frequency.Type

/** What each occurrence creates: an invoice's or bill's body without its date and number. */
export const RecurringRequest = Schema.Struct({
  contact_id: Id,
  terms_days: Schema.optionalKey(TermsDays),
  reference: Schema.optionalKey(Reference),
  memo: Schema.optionalKey(Memo),
  control_account: Schema.optionalKey(AccountCode),
  tax_rate_id: Schema.optionalKey(Id).annotate({ description: "Invoices only." }),
  lines: DocumentLines
}).annotate({
  identifier: "RecurringRequest",
  description: "The invoice or bill each occurrence creates; doc_date is the occurrence date and the number is assigned."
})
export type RecurringRequest = typeof RecurringRequest.Type

export const Occurrence = Schema.Struct({
  occurrence_date: DateString,
  status: Schema.Literals(["posted", "pending_approval", "rejected", "failed"]),
  document_id: Schema.NullOr(Id),
  proposal_id: Schema.NullOr(Id),
  error: Schema.NullOr(Schema.Unknown),
  created_at: Timestamp
})

export const RecurringTemplate = Schema.Struct({
  id: Id,
  name: Name,
  kind: Schema.Literals(["invoice", "bill"]),
  frequency: Frequency,
  interval_count: Schema.Int,
  start_date: DateString,
  end_date: Schema.NullOr(DateString),
  request: RecurringRequest,
  active: Schema.Boolean,
  next_date: Schema.NullOr(DateString).annotate({ description: "The next occurrence not yet generated, null when none is left." }),
  occurrences: Schema.Array(Occurrence),
  created_at: Timestamp,
  updated_at: Timestamp
}).annotate({ identifier: "RecurringTemplate" })

export const createRecurringTemplate = Operation.make({
  id: "createRecurringTemplate",
  method: "POST",
  path: "/v1/recurring-templates",
  area,
  summary: "A schedule of invoices or bills. Nothing posts until a run.",
  scope: "propose",
  mode: "K",
  body: Schema.Struct({
    name: Name,
    kind: Schema.Literals(["invoice", "bill"]).annotate({ description: "What each run creates: an invoice or a bill." }),
    frequency: Frequency,
    interval_count: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: Limits.recurringIntervalCountMax })).annotate({
      description: "Every how many frequency units (default 1: every month for monthly)."
    })),
    start_date: DateString.annotate({ description: "Monthly and longer schedules keep this day, clamped to each month's end." }),
    end_date: Schema.optionalKey(DateString),
    request: RecurringRequest
  }),
  success: RecurringTemplate
})

export const listRecurringTemplates = Operation.make({
  id: "listRecurringTemplates",
  method: "GET",
  path: "/v1/recurring-templates",
  area,
  summary: "Recurring templates.",
  scope: "read",
  mode: "R",
  query: Schema.Struct({ active: Schema.optionalKey(Schema.Boolean), ...PageQuery }),
  success: Page(RecurringTemplate)
})

export const getRecurringTemplate = Operation.make({
  id: "getRecurringTemplate",
  method: "GET",
  path: "/v1/recurring-templates/{id}",
  area,
  summary: "One template with all its occurrences.",
  scope: "read",
  mode: "R",
  pathParams: IdPath,
  success: RecurringTemplate
})

export const updateRecurringTemplate = Operation.make({
  id: "updateRecurringTemplate",
  method: "POST",
  path: "/v1/recurring-templates/{id}/update",
  area,
  summary: "Pause or resume a template, or change its end date.",
  scope: "propose",
  mode: "K",
  status: 200,
  pathParams: IdPath,
  body: Schema.Struct({
    active: Schema.optionalKey(Schema.Boolean.annotate({ description: "False pauses the template: runs skip it." })),
    end_date: Schema.optionalKey(Schema.NullOr(DateString)),
    reason: Schema.optionalKey(Reason)
  }),
  success: RecurringTemplate
})

export const RunResult = Schema.Struct({
  template_id: Id,
  through: DateString,
  dry_run: Schema.Boolean,
  occurrences: Schema.Array(Schema.Struct({
    occurrence_date: DateString,
    status: Schema.Literals(["posted", "pending_approval", "failed", "would_post", "would_propose"]),
    document_id: Schema.NullOr(Id),
    proposal_id: Schema.NullOr(Id),
    number: Schema.NullOr(Schema.String),
    error: Schema.NullOr(Schema.Unknown)
  })),
  has_more: Schema.Boolean.annotate({ description: "More occurrences are due than one run generates: run again." })
}).annotate({ identifier: "RecurringRunResult" })

const runBody = Schema.Struct({
  through: Schema.optionalKey(DateString).annotate({ description: "Default the server's today." }),
  dry_run: governedFields.dry_run
})

export const runRecurringTemplate = Operation.make({
  id: "runRecurringTemplate",
  method: "POST",
  path: "/v1/recurring-templates/{id}/run",
  area,
  summary: "Generate the template's due, ungenerated occurrences through the governed path; idempotent per occurrence.",
  scope: "propose",
  mode: "K",
  status: 200,
  pathParams: IdPath,
  body: runBody,
  success: RunResult
})

export const runAllRecurring = Operation.make({
  id: "runAllRecurring",
  method: "POST",
  path: "/v1/recurring/run",
  area,
  summary: "Run every active template through a date; per-template results.",
  scope: "propose",
  mode: "K",
  status: 200,
  body: runBody,
  success: Schema.Struct({ through: DateString, dry_run: Schema.Boolean, results: Schema.Array(RunResult) })
})

export const operations = [
  createRecurringTemplate,
  listRecurringTemplates,
  getRecurringTemplate,
  updateRecurringTemplate,
  runRecurringTemplate,
  runAllRecurring
] as const

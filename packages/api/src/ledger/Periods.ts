import { Schema } from "effect"
import { DateString, Id, PageQuery, Reason } from "../Common.ts"
import * as Operation from "../Operation.ts"
import { FiscalYear, Period, PeriodStatus } from "./Records.ts"

const area = "4.4 Ledger"

export const createPeriod = Operation.make({
  id: "createPeriod",
  method: "POST",
  path: "/v1/periods",
  area,
  summary: "Add an accounting period (open). Periods never overlap.",
  scope: "admin",
  mode: "K",
  body: Schema.Struct({ start_date: DateString, end_date: DateString }),
  success: Period,
  errors: ["conflict"]
})

export const PeriodList = Schema.Struct({
  data: Schema.Array(Period),
  has_more: Schema.Boolean,
  next_cursor: Schema.NullOr(Schema.String)
}).annotate({ identifier: "PeriodList" })

export const listPeriods = Operation.make({
  id: "listPeriods",
  method: "GET",
  path: "/v1/periods",
  area,
  summary: "Accounting periods in date order.",
  scope: "read",
  mode: "R",
  query: Schema.Struct({
    fiscal_year: Schema.optionalKey(FiscalYear),
    status: Schema.optionalKey(PeriodStatus),
    ...PageQuery
  }),
  success: PeriodList
})

export const setPeriodStatus = Operation.make({
  id: "setPeriodStatus",
  method: "POST",
  path: "/v1/periods/{id}/status",
  area,
  summary: "Open, soft-lock or hard-lock a period. Reopening a hard lock needs a person and a reason.",
  description: "Transitions: open -> soft_locked | hard_locked; soft_locked -> open | hard_locked; hard_locked -> open " +
    "(a person, with a reason). Emits period.status_changed.",
  scope: "admin",
  mode: "K",
  status: 200,
  pathParams: Schema.Struct({ id: Id }),
  body: Schema.Struct({ status: PeriodStatus, reason: Schema.optionalKey(Reason) }),
  success: Period,
  errors: ["invalid_period_transition"]
})

export const FiscalYearPeriods = Schema.Struct({
  fiscal_year: FiscalYear,
  start_date: DateString,
  end_date: DateString,
  created: Schema.Array(Period),
  periods: Schema.Array(Period).annotate({ description: "Every period of the fiscal year, in date order." })
}).annotate({ identifier: "FiscalYearPeriods" })

export const createFiscalYearPeriods = Operation.make({
  id: "createFiscalYearPeriods",
  method: "POST",
  path: "/v1/fiscal-years/periods",
  area,
  summary: "Create the missing monthly periods of a fiscal year (months no period covers yet).",
  scope: "admin",
  mode: "K",
  body: Schema.Struct({ fiscal_year: FiscalYear }),
  success: FiscalYearPeriods
})

export const FiscalYearStatus = Schema.Struct({
  fiscal_year: FiscalYear,
  status: PeriodStatus,
  changed: Schema.Array(Period),
  periods: Schema.Array(Period)
}).annotate({ identifier: "FiscalYearStatus" })

export const setFiscalYearStatus = Operation.make({
  id: "setFiscalYearStatus",
  method: "POST",
  path: "/v1/fiscal-years/status",
  area,
  summary: "Open, soft-lock or hard-lock every period of a fiscal year. Each change is audited; all or none.",
  scope: "admin",
  mode: "K",
  status: 200,
  body: Schema.Struct({ fiscal_year: FiscalYear, status: PeriodStatus, reason: Schema.optionalKey(Reason) }),
  success: FiscalYearStatus,
  errors: ["invalid_period_transition", "period_not_found"]
})

import { Schema } from "effect"
import { CompanyId, Name, Timestamp } from "../Common.ts"

export const plans = ["solo", "business", "advanced", "owned"] as const
export const Plan = Schema.Literals(plans)
export type Plan = typeof Plan.Type

export const starterCharts = ["general", "services", "retail", "empty"] as const
export const StarterChartName = Schema.Literals(starterCharts)
export type StarterChartName = typeof StarterChartName.Type

export const RateLimit = Schema.NullOr(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 100_000 }))).annotate({
  description: "Requests a minute; null means the plan's limit."
})

export const FiscalYearStartMonth = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 12 }))

export const Company = Schema.Struct({
  company_id: CompanyId,
  name: Name,
  plan: Plan,
  rate_limit_rpm: Schema.NullOr(Schema.Int),
  fiscal_year_start_month: FiscalYearStartMonth,
  kill_switch: Schema.Struct({
    suspended: Schema.Boolean,
    reason: Schema.NullOr(Schema.String),
    changed_at: Schema.NullOr(Timestamp)
  }),
  starter_chart: StarterChartName,
  periods: Schema.Boolean,
  created_at: Timestamp
}).annotate({ identifier: "Company" })
export type Company = typeof Company.Type

export const CompanyPlan = Schema.Struct({
  company_id: CompanyId,
  name: Name,
  plan: Plan,
  rate_limit_rpm: Schema.NullOr(Schema.Int)
}).annotate({ identifier: "CompanyPlan" })
export type CompanyPlan = typeof CompanyPlan.Type

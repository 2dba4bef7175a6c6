import { Schema } from "effect"
import { CompanyId, Id, Name, Reason, Timestamp } from "../Common.ts"
import * as Operation from "../Operation.ts"
import { Scope } from "../Scope.ts"
import { ApiKey, RateLimit } from "./ApiKeys.ts"
import { PrincipalType, User } from "./People.ts"

export { RateLimit } from "./ApiKeys.ts"

const area = "4.2 Administration and keys"

export const plans = ["solo", "business", "advanced", "owned"] as const
export const Plan = Schema.Literals(plans).annotate({ description: "The company's plan: it sets the rate limit and what is included." })
export type Plan = typeof Plan.Type

export const starterCharts = ["general", "services", "retail", "empty"] as const
export const StarterChartName = Schema.Literals(starterCharts).annotate({
  description: "The chart of accounts to start from: general, services, retail, or empty."
})
export type StarterChartName = typeof StarterChartName.Type

export const FiscalYearStartMonth = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 12 })).annotate({
  description: "The month the fiscal year starts, 1 (January) to 12."
})

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

export const CreatedCompany = Schema.Struct({
  company: Company,
  owner: User,
  api_key: ApiKey,
  secret: Schema.String.annotate({ description: "The owner's API key secret. Shown once." }),
  setup: Schema.Struct({
    starter_chart: StarterChartName,
    accounts_created: Schema.Int,
    periods_created: Schema.Int
  })
}).annotate({ identifier: "CreatedCompany" })

export const createCompany = Operation.make({
  id: "createCompany",
  method: "POST",
  path: "/v1/companies",
  area,
  summary: "Create a company with its owner and the owner's first API key (operator token).",
  credential: "operator",
  scope: "admin",
  mode: "K",
  body: Schema.Struct({
    name: Name,
    owner_name: Name,
    owner_email: Schema.optionalKey(
      Schema.String.check(Schema.isMaxLength(254), Schema.isPattern(/^[^\s@]+@[^\s@]+\.[^\s@]+$/u))
        .annotate({ description: "The owner's sign-in address (DECISIONS.md): they sign in to the web app by email code with it." })
    ),
    plan: Schema.optionalKey(Plan),
    starter_chart: Schema.optionalKey(StarterChartName),
    periods: Schema.optionalKey(Schema.Boolean.annotate({ description: "Create this fiscal year's and the next one's monthly periods (default true)." }))
  }),
  success: CreatedCompany,
  errors: ["forbidden"]
})

const CompanyIdPath = Schema.Struct({ id: CompanyId })

export const getCompanyPlan = Operation.make({
  id: "getCompanyPlan",
  method: "GET",
  path: "/v1/operator/companies/{id}/plan",
  area,
  summary: "Read a company's plan and rate limit (operator token).",
  credential: "operator",
  scope: "admin",
  mode: "R",
  pathParams: CompanyIdPath,
  success: CompanyPlan
})

export const setCompanyPlan = Operation.make({
  id: "setCompanyPlan",
  method: "POST",
  path: "/v1/operator/companies/{id}/plan",
  area,
  summary: "Change a company's plan (operator token). Audited in the company's log; limits follow on the next request.",
  credential: "operator",
  scope: "admin",
  mode: "-",
  pathParams: CompanyIdPath,
  body: Schema.Struct({
    plan: Plan,
    reason: Reason,
    rate_limit_rpm: Schema.optionalKey(RateLimit).annotate({
      description: "The company's own limit (the operator's setting for `owned`); omitted = unchanged."
    })
  }),
  success: CompanyPlan
})

export const getCompany = Operation.make({
  id: "getCompany",
  method: "GET",
  path: "/v1/company",
  area,
  summary: "The caller's company.",
  scope: "read",
  mode: "R",
  success: Company
})

export const Me = Schema.Struct({
  principal_type: PrincipalType,
  id: Schema.NullOr(Id),
  name: Schema.String,
  role: Schema.NullOr(Schema.String),
  scopes: Schema.Array(Scope),
  key_id: Schema.NullOr(Id),
  posting_threshold_cents: Schema.NullOr(Schema.Int),
  company: Company
}).annotate({ identifier: "Me" })

export const getMe = Operation.make({
  id: "getMe",
  method: "GET",
  path: "/v1/me",
  area,
  summary: "Who the caller is: principal type, name, role, scopes and company.",
  scope: "read",
  mode: "R",
  success: Me
})

export const setKillSwitch = Operation.make({
  id: "setKillSwitch",
  method: "POST",
  path: "/v1/company/kill-switch",
  area,
  summary: "Suspend or resume every agent write in the company.",
  scope: "admin",
  mode: "K",
  status: 200,
  body: Schema.Struct({
    suspended: Schema.Boolean.annotate({ description: "True suspends all agent writes of the company; false resumes them." }),
    reason: Reason
  }),
  success: Company
})

export const setFiscalYear = Operation.make({
  id: "setFiscalYear",
  method: "POST",
  path: "/v1/company/fiscal-year",
  area,
  summary: "Change the fiscal year's start month. Refused while any period is hard-locked.",
  scope: "admin",
  mode: "K",
  status: 200,
  body: Schema.Struct({ start_month: FiscalYearStartMonth, reason: Schema.optionalKey(Reason) }),
  success: Company,
  errors: ["period_hard_locked"]
})

export const operations = [
  createCompany,
  getCompanyPlan,
  setCompanyPlan,
  getCompany,
  getMe,
  setKillSwitch,
  setFiscalYear
] as const

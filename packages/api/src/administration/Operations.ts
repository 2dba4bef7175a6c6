import { Schema } from "effect"
import { CompanyId, Id, Name, PageQuery, Page, Reason } from "../Common.ts"
import * as Operation from "../Operation.ts"
import { Company, CompanyPlan, FiscalYearStartMonth, Plan, RateLimit, StarterChartName } from "./Company.ts"
import { Agent, PostingThresholdCents, PrincipalType, Scopes, User, UserRole } from "./Principal.ts"
import { ApiKey, NewApiKey } from "./ApiKey.ts"
import { AuditEvent } from "./AuditEvent.ts"
import { Scope } from "../Scope.ts"
import * as Limits from "../Limits.ts"

const area = "4.2 Administration and keys"
const IdPath = Schema.Struct({ id: Id })

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
    plan: Schema.optionalKey(Plan),
    starter_chart: Schema.optionalKey(StarterChartName),
    periods: Schema.optionalKey(Schema.Boolean)
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
  body: Schema.Struct({ suspended: Schema.Boolean, reason: Reason }),
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

export const createUser = Operation.make({
  id: "createUser",
  method: "POST",
  path: "/v1/users",
  area,
  summary: "Add a person to the company.",
  scope: "admin",
  mode: "K",
  body: Schema.Struct({ name: Name, role: UserRole }),
  success: User
})

export const listUsers = Operation.make({
  id: "listUsers",
  method: "GET",
  path: "/v1/users",
  area,
  summary: "The company's people.",
  scope: "read",
  mode: "R",
  query: Schema.Struct({ ...PageQuery }),
  success: Page(User)
})

export const createAgent = Operation.make({
  id: "createAgent",
  method: "POST",
  path: "/v1/agents",
  area,
  summary: "Add an agent: software with scopes and a posting threshold.",
  scope: "admin",
  mode: "K",
  body: Schema.Struct({
    name: Name,
    scopes: Scopes,
    posting_threshold_cents: PostingThresholdCents,
    owner_user_id: Schema.optionalKey(Schema.NullOr(Id))
  }),
  success: Agent
})

export const listAgents = Operation.make({
  id: "listAgents",
  method: "GET",
  path: "/v1/agents",
  area,
  summary: "The company's agents, revoked ones included.",
  scope: "read",
  mode: "R",
  query: Schema.Struct({ ...PageQuery }),
  success: Page(Agent)
})

export const revokeAgent = Operation.make({
  id: "revokeAgent",
  method: "POST",
  path: "/v1/agents/{id}/revoke",
  area,
  summary: "Revoke an agent. Final; all its keys stop on the next request.",
  scope: "admin",
  mode: "K",
  status: 200,
  pathParams: IdPath,
  body: Schema.Struct({ reason: Reason }),
  success: Agent
})

export const KeyDays = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: Limits.personKeyDaysMax }))

export const createKey = Operation.make({
  id: "createKey",
  method: "POST",
  path: "/v1/keys",
  area,
  summary: "Issue an API key for a person or an agent. The secret is shown once.",
  scope: "admin",
  mode: "K",
  body: Schema.Struct({
    principal_type: Schema.Literals(["user", "agent"]),
    user_id: Schema.optionalKey(Id),
    agent_id: Schema.optionalKey(Id),
    scopes: Scopes,
    expires_in_days: Schema.optionalKey(KeyDays),
    rate_limit_rpm: Schema.optionalKey(RateLimit)
  }),
  success: NewApiKey
})

export const listKeys = Operation.make({
  id: "listKeys",
  method: "GET",
  path: "/v1/keys",
  area,
  summary: "API keys: admins see every key of the company, others their own. Never secrets.",
  scope: "read",
  mode: "R",
  query: Schema.Struct({
    include_ended: Schema.optionalKey(Schema.Boolean),
    user_id: Schema.optionalKey(Id),
    agent_id: Schema.optionalKey(Id),
    ...PageQuery
  }),
  success: Page(ApiKey)
})

export const getKey = Operation.make({
  id: "getKey",
  method: "GET",
  path: "/v1/keys/{id}",
  area,
  summary: "One API key: admins any key, others their own.",
  scope: "read",
  mode: "R",
  pathParams: IdPath,
  success: ApiKey
})

export const rotateKey = Operation.make({
  id: "rotateKey",
  method: "POST",
  path: "/v1/keys/{id}/rotate",
  area,
  summary: "Rotate a key: a successor with the same holder and scopes; the old secret works until the overlap ends.",
  scope: "read",
  mode: "K",
  pathParams: IdPath,
  body: Schema.Struct({
    overlap_seconds: Schema.optionalKey(
      Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: Limits.rotationOverlapSecondsMax }))
    ),
    expires_in_days: Schema.optionalKey(KeyDays),
    rate_limit_rpm: Schema.optionalKey(RateLimit),
    reason: Schema.optionalKey(Reason)
  }),
  success: NewApiKey
})

export const revokeKey = Operation.make({
  id: "revokeKey",
  method: "POST",
  path: "/v1/keys/{id}/revoke",
  area,
  summary: "Revoke a key. Effective on the next request.",
  scope: "admin",
  mode: "K",
  status: 200,
  pathParams: IdPath,
  body: Schema.Struct({ reason: Reason }),
  success: ApiKey
})

export const claimOwnerInvite = Operation.make({
  id: "claimOwnerInvite",
  method: "POST",
  path: "/v1/owner-invites/claim",
  area,
  summary: "Claim an owner invitation (the invitation is the Bearer token) and receive the owner's key once.",
  credential: "invitation",
  scope: "read",
  mode: "K",
  body: Schema.Struct({ expires_in_days: Schema.optionalKey(KeyDays) }),
  success: NewApiKey,
  errors: ["conflict"]
})

export const listAuditEvents = Operation.make({
  id: "listAuditEvents",
  method: "GET",
  path: "/v1/audit/events",
  area: "Audit",
  summary: "The company's audit log, newest first.",
  scope: "read",
  mode: "R",
  query: Schema.Struct({
    before: Schema.optionalKey(Id).annotate({ description: "Only events older than this event id." }),
    limit: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: Limits.auditPageSizeMax }))),
    cursor: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(200)))
  }),
  success: Page(AuditEvent)
})

export const operations = [
  createCompany,
  getCompanyPlan,
  setCompanyPlan,
  getCompany,
  getMe,
  setKillSwitch,
  setFiscalYear,
  createUser,
  listUsers,
  createAgent,
  listAgents,
  revokeAgent,
  createKey,
  listKeys,
  getKey,
  rotateKey,
  revokeKey,
  claimOwnerInvite,
  listAuditEvents
] as const


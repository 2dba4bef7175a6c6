import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { Administration, ApiError, type Company, Limits } from "@ledger/api"
import * as CompanySetup from "./CompanySetup.ts"
import { requireCompanyId } from "../kernel/CompanyContext.ts"
import * as Handler from "../kernel/Handler.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Secret from "../kernel/Secret.ts"
import { addDaysToInstant } from "../kernel/values/Calendar.ts"
import * as AdministrationRows from "./AdministrationRows.ts"

/** The caller's company row; a company request always has one. */
export const loadCompany = Effect.fn("Companies.load")(function*(companyId: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM companies WHERE company_id = ${companyId}`.pipe(Effect.orDie)
  const row = rows[0]
  if (row === undefined) return yield* Effect.fail(ApiError.notFound("company"))
  return AdministrationRows.company(row)
})

/** Issues a key and returns its record and secret (shown once). */
export const issueKey = Effect.fn("Companies.issueKey")(function*(input: {
  readonly companyId: string
  readonly principalType: "user" | "agent"
  readonly principalId: number
  readonly scopes: ReadonlyArray<string>
  readonly expiresInDays: number
  readonly rateLimitRpm: number | null
  readonly rotatedFromKeyId?: number
}) {
  const sql = yield* SqlClient.SqlClient
  const request = yield* RequestContext
  const secret = yield* Secret.generate("ldg_")
  const hash = yield* Secret.hash(secret)
  const rows = yield* sql<Record<string, unknown>>`INSERT INTO api_keys ${sql.insert({
    company_id: input.companyId,
    secret_hash: hash,
    prefix: Secret.displayPrefix(secret),
    principal_type: input.principalType,
    user_id: input.principalType === "user" ? input.principalId : null,
    agent_id: input.principalType === "agent" ? input.principalId : null,
    scopes: JSON.stringify(input.scopes),
    expires_at: addDaysToInstant(request.now, input.expiresInDays),
    rate_limit_rpm: input.rateLimitRpm,
    rotated_from_key_id: input.rotatedFromKeyId ?? null,
    created_at: request.now
  })} RETURNING *`.pipe(Effect.orDie)
  return { key: AdministrationRows.apiKey(rows[0]!, request.now), secret }
})

/**
 * A new company with its owner, its starter chart and its periods, inside the caller's
 * transaction: the one place a company is created, for `POST /v1/companies` and for a firm's new
 * client (firms call it through administration's index.ts). Keys and invitations are the caller's.
 */
export const createCompanyWithOwner = Effect.fn("Companies.createCompanyWithOwner")(function*(input: {
  readonly name: string
  readonly plan: Company.Plan
  readonly starterChart: Company.StarterChartName
  readonly periods: boolean
  readonly ownerName: string
  readonly ownerEmail: string | undefined
}) {
  const sql = yield* SqlClient.SqlClient
  const request = yield* RequestContext
  const companyId = yield* Secret.uuid()
  const companyRows = yield* sql<Record<string, unknown>>`INSERT INTO companies ${sql.insert({
    company_id: companyId,
    name: input.name,
    plan: input.plan,
    starter_chart: input.starterChart,
    periods: input.periods,
    created_at: request.now
  })} RETURNING *`.pipe(Effect.orDie)
  const ownerRows = yield* sql<Record<string, unknown>>`INSERT INTO users ${sql.insert({
    company_id: companyId,
    name: input.ownerName,
    role: "owner",
    // The owner signs in by email code with it (DECISIONS.md "People, sign-in and sessions").
    email: input.ownerEmail?.toLowerCase() ?? null,
    created_at: request.now
  })} RETURNING *`.pipe(Effect.orDie)
  const company = AdministrationRows.company(companyRows[0]!)
  const setup = yield* CompanySetup.run({
    companyId,
    starterChart: input.starterChart,
    periods: input.periods,
    fiscalYearStartMonth: company.fiscal_year_start_month,
    today: request.today
  })
  return { company, owner: AdministrationRows.user(ownerRows[0]!), setup }
})

export const handlers = [
  Handler.make(Administration.Companies.createCompany, ({ body }) =>
    Effect.gen(function*() {
      const { company, owner, setup } = yield* createCompanyWithOwner({
        name: body.name,
        plan: body.plan ?? "solo",
        starterChart: body.starter_chart ?? "general",
        periods: body.periods ?? true,
        ownerName: body.owner_name,
        ownerEmail: body.owner_email
      })
      const companyId = company.company_id
      const issued = yield* issueKey({
        companyId,
        principalType: "user",
        principalId: owner.id,
        scopes: owner.scopes,
        expiresInDays: Limits.personKeyDaysDefault,
        rateLimitRpm: null
      })
      return {
        body: { company, owner, api_key: issued.key, secret: issued.secret, setup: { starter_chart: company.starter_chart, ...setup } },
        audit: { companyId, targetType: "company", targetId: companyId, details: { plan: company.plan, starter_chart: company.starter_chart } }
      }
    })),

  Handler.make(Administration.Companies.getCompanyPlan, ({ path }) =>
    Effect.gen(function*() {
      const company = yield* loadCompany(path.id)
      return { body: { company_id: company.company_id, name: company.name, plan: company.plan, rate_limit_rpm: company.rate_limit_rpm } }
    })),

  Handler.make(Administration.Companies.setCompanyPlan, ({ path, body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const before = yield* loadCompany(path.id)
      const rateLimit = body.rate_limit_rpm === undefined ? before.rate_limit_rpm : body.rate_limit_rpm
      yield* sql`UPDATE companies SET plan = ${body.plan}, rate_limit_rpm = ${rateLimit}
        WHERE company_id = ${path.id}`.pipe(Effect.orDie)
      const after = yield* loadCompany(path.id)
      return {
        body: { company_id: after.company_id, name: after.name, plan: after.plan, rate_limit_rpm: after.rate_limit_rpm },
        audit: {
          companyId: path.id,
          targetType: "company",
          targetId: path.id,
          reason: body.reason,
          details: { plan_before: before.plan, plan_after: after.plan, rate_limit_rpm: after.rate_limit_rpm }
        }
      }
    })),

  Handler.make(Administration.Companies.getCompany, () =>
    Effect.gen(function*() {
      const companyId = yield* requireCompanyId
      return { body: yield* loadCompany(companyId) }
    })),

  Handler.make(Administration.Companies.getMe, () =>
    Effect.gen(function*() {
      const request = yield* RequestContext
      const companyId = yield* requireCompanyId
      const company = yield* loadCompany(companyId)
      const actor = request.actor
      return {
        body: {
          principal_type: actor.type,
          id: actor.id,
          name: actor.name,
          role: actor.role,
          scopes: [...actor.scopes],
          key_id: actor.keyId,
          posting_threshold_cents: actor.postingThresholdCents,
          company
        }
      }
    })),

  Handler.make(Administration.Companies.setKillSwitch, ({ body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const companyId = yield* requireCompanyId
      yield* sql`UPDATE companies SET kill_switch_suspended = ${body.suspended}, kill_switch_reason = ${body.reason},
        kill_switch_changed_at = ${request.now} WHERE company_id = ${companyId}`.pipe(Effect.orDie)
      return {
        body: yield* loadCompany(companyId),
        audit: { targetType: "company", targetId: companyId, reason: body.reason, details: { suspended: body.suspended } }
      }
    })),

  Handler.make(Administration.Companies.setFiscalYear, ({ body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const companyId = yield* requireCompanyId
      const before = yield* loadCompany(companyId)
      const locked = yield* hardLockedPeriodCount(companyId)
      if (locked > 0) {
        return yield* Effect.fail(ApiError.fail(
          "period_hard_locked",
          "The fiscal year's start month cannot change while any period is hard-locked.",
          { hard_locked_periods: locked }
        ))
      }
      yield* sql`UPDATE companies SET fiscal_year_start_month = ${body.start_month} WHERE company_id = ${companyId}`
        .pipe(Effect.orDie)
      return {
        body: yield* loadCompany(companyId),
        audit: {
          targetType: "company",
          targetId: companyId,
          reason: body.reason ?? null,
          details: { start_month_before: before.fiscal_year_start_month, start_month_after: body.start_month }
        }
      }
    }))
] as const

/**
 * Hard-locked periods of a company. Periods belong to the ledger area; until its table exists
 * there are none, which is exactly what a company without periods has.
 */
const hardLockedPeriodCount = Effect.fn("Companies.hardLockedPeriodCount")(function*(companyId: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ count: unknown }>`SELECT count(*) AS count FROM periods
    WHERE company_id = ${companyId} AND status = 'hard_locked'`.pipe(Effect.orDie)
  return Number(rows[0]?.count ?? 0)
})

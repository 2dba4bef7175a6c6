import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, type Company, Ledger } from "@ledger/api"
import { requireCompanyId } from "../../kernel/CompanyContext.ts"
import * as Handler from "../../kernel/Handler.ts"
import * as Pagination from "../../kernel/Pagination.ts"
import { RequestContext } from "../../kernel/RequestContext.ts"
import * as Row from "../../kernel/Row.ts"
import * as AccountStore from "./AccountStore.ts"
import * as StarterCharts from "./StarterCharts.ts"

/**
 * A company's chart as a whole: the lock its changes take, its size, and a starter chart applied
 * to an empty one (at company creation, and by `POST /v1/accounts/starter-chart`).
 */

const operations = Ledger.Accounts

/** Serializes changes of one company's chart (the ledger's own and `addAccounts` of other areas). */
export const lockChart = Effect.fn("Charts.lockChart")(function*(companyId: string) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`SELECT pg_advisory_xact_lock(hashtext(${`${companyId}:chart`}))`.pipe(Effect.orDie)
})

export const accountCount = Effect.fn("Charts.count")(function*(companyId: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ count: unknown }>`SELECT count(*) AS count FROM accounts WHERE company_id = ${companyId}`.pipe(Effect.orDie)
  return Row.int(rows[0]!.count)
})

/**
 * Creates a chart's accounts and defaults in a company that has none. Used at company creation
 * (CompanySetup) and by `POST /v1/accounts/starter-chart`.
 */
export const applyChart = Effect.fn("Charts.applyChart")(function*(companyId: string, chart: StarterCharts.Chart) {
  const sql = yield* SqlClient.SqlClient
  const request = yield* RequestContext
  if (chart.accounts.length === 0) return []
  // One statement: foreign keys to parents are checked at its end, so parents and children go together.
  const rows = yield* sql<Record<string, unknown>>`INSERT INTO accounts ${sql.insert(AccountStore.rows(chart.accounts.map((account) => ({
    company_id: companyId,
    code: account.code,
    name: account.name,
    type: account.type,
    subtype: account.subtype,
    parent_code: account.parent_code,
    control: account.control,
    created_at: request.now
  }))))} RETURNING *`.pipe(Effect.orDie)
  yield* sql`INSERT INTO account_defaults ${sql.insert({
    company_id: companyId,
    income_code: chart.defaults.income,
    expense_code: chart.defaults.expense
  })} ON CONFLICT (company_id) DO UPDATE SET income_code = excluded.income_code, expense_code = excluded.expense_code`
    .pipe(Effect.orDie)
  return [...rows].sort((left, right) => String(left.code) < String(right.code) ? -1 : 1)
})

export const handlers = [
  // A short list the code holds: paged like every list, by its position (1-based) as the id.
  Handler.make(operations.listStarterCharts, ({ query }) =>
    Effect.gen(function*() {
      const limit = Pagination.limitOf(query)
      const after = (yield* Pagination.afterId(query)) ?? 0
      const positioned = StarterCharts.all.map((chart, index) => ({ chart, position: index + 1 })).slice(after, after + limit + 1)
      return { body: Pagination.page(positioned, limit, (item) => item.position, (item) => item.chart) }
    })),

  Handler.make(operations.applyStarterChart, ({ body }) =>
    Effect.gen(function*() {
      const companyId = yield* requireCompanyId
      const chart = StarterCharts.byName(body.template as Company.StarterChartName)
      if (body.dry_run !== true) yield* lockChart(companyId)
      const existing = yield* accountCount(companyId)
      if (existing > 0) {
        return yield* Effect.fail(ApiError.fail("chart_not_empty", "A starter chart applies only to a company without accounts.", {
          accounts: existing
        }))
      }
      if (body.dry_run === true) {
        return { status: 200, body: { dry_run: true, template: chart.name, accounts: chart.accounts, defaults: chart.defaults } }
      }
      const rows = yield* applyChart(companyId, chart)
      const defaults = yield* AccountStore.defaults(companyId)
      return {
        body: { template: chart.name, accounts: rows.map((row) => AccountStore.account(row, defaults)), defaults },
        audit: { targetType: "chart", targetId: chart.name, details: { accounts_created: rows.length } }
      }
    }))
] as const

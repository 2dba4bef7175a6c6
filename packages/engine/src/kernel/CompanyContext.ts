import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError } from "@ledger/api"
import { RequestContext } from "./RequestContext.ts"
import * as Row from "./Row.ts"

/**
 * The company a request acts in, for every area: the Dispatcher resolved it once from the
 * credential; an operation that needs one and finds none is a programmer error (its operation is
 * declared without a company credential).
 */
export const requireCompanyId = Effect.gen(function*() {
  const request = yield* RequestContext
  if (request.companyId === null) return yield* Effect.die(new Error(`${request.operationId} needs a company`))
  return request.companyId
})

export const fiscalYearStartMonth = Effect.fn("CompanyContext.fiscalYearStartMonth")(function*(companyId: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ month: unknown }>`SELECT fiscal_year_start_month AS month FROM companies WHERE company_id = ${companyId}`
    .pipe(Effect.orDie)
  if (rows[0] === undefined) return yield* Effect.fail(ApiError.notFound("company"))
  return Row.int(rows[0].month)
})

import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Mileage } from "@ledger/api"
import { requireCompanyId } from "../kernel/CompanyContext.ts"
import * as Handler from "../kernel/Handler.ts"
import * as Pagination from "../kernel/Pagination.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Row from "../kernel/Row.ts"
import { AccountStore } from "../ledger/index.ts"
import * as Store from "./VehicleStore.ts"

const Api = Mileage.Vehicles

const listHandler = Handler.make(Api.listVehicles, ({ query }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const company = yield* requireCompanyId
    const select = (after: number | null, limitPlusOne: number) =>
      sql<Record<string, unknown>>`SELECT * FROM vehicles WHERE company_id = ${company}
      ${query.include_retired === true ? sql`` : sql`AND retired_on IS NULL`}
      ${after === null ? sql`` : sql`AND id < ${after}`}
      ORDER BY id DESC LIMIT ${limitPlusOne}`.pipe(Effect.orDie)
    // withDetails answers the vehicles in the rows' order, as listPageLoaded wants.
    const load = (shown: ReadonlyArray<Record<string, unknown>>) => Store.withDetails(company, shown)
    return { body: yield* Pagination.listPageLoaded(query, select, (row) => Row.int(row.id), load) }
  }))

const createHandler = Handler.make(Api.createVehicle, ({ body }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const request = yield* RequestContext
    const company = yield* requireCompanyId
    const rows = yield* sql<Record<string, unknown>>`INSERT INTO vehicles ${sql.insert({
      company_id: company,
      name: body.name,
      description: body.description ?? null,
      ownership: body.ownership ?? "owned",
      in_service_date: body.in_service_date,
      created_at: request.now,
      updated_at: request.now
    })} RETURNING *`.pipe(Effect.orDie)
    const created = (yield* Store.withDetails(company, rows))[0]!
    return { body: created, audit: { targetType: "vehicle", targetId: created.id } }
  }))

const updateHandler = Handler.make(Api.updateVehicle, ({ path, body }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const request = yield* RequestContext
    const company = yield* requireCompanyId
    const current = yield* Store.load(company, path.id)
    const inService = body.in_service_date ?? current.in_service_date
    const retired = body.retired_on === undefined ? current.retired_on : body.retired_on
    if (retired !== null && retired < inService) {
      return yield* Effect.fail(ApiError.validationFailed("A vehicle retires on or after it went into service.", [{ path: ["body", "retired_on"], message: `Before ${inService}` }]))
    }
    if (Object.keys(body).length > 0) {
      yield* sql`UPDATE vehicles SET ${sql.update({ ...body, updated_at: request.now })}
        WHERE company_id = ${company} AND id = ${path.id}`.pipe(Effect.orDie)
    }
    return { body: yield* Store.load(company, path.id), audit: { targetType: "vehicle", targetId: path.id, details: { changed: Object.keys(body) } } }
  }))

const accountsHandler = Handler.make(Api.setVehicleAccounts, ({ path, body }) =>
  Effect.gen(function*() {
    const company = yield* requireCompanyId
    yield* Store.loadRow(company, path.id)
    const known = yield* AccountStore.accountsByCode(company, body.accounts)
    const unknown = body.accounts.flatMap((code, index) => known.has(code) ? [] : [{ path: ["body", "accounts", index], message: `No account ${code}` }])
    if (unknown.length > 0) return yield* Effect.fail(ApiError.fail("unknown_account", "Unknown accounts.", { issues: unknown }))
    yield* Store.setAccounts(company, path.id, body.accounts)
    return { body: yield* Store.load(company, path.id), audit: { targetType: "vehicle", targetId: path.id, details: { accounts: body.accounts } } }
  }))

const odometerHandler = Handler.make(Api.setVehicleOdometer, ({ path, body }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const company = yield* requireCompanyId
    const vehicle = yield* Store.load(company, path.id)
    // end_miles left out keeps the year's end reading; null clears it.
    const end = body.end_miles === undefined ? vehicle.odometer.find((one) => one.tax_year === body.tax_year)?.end_miles ?? null : body.end_miles
    if (end !== null && end < body.start_miles) {
      return yield* Effect.fail(ApiError.validationFailed("The end reading is at least the start reading.", [{ path: ["body", "end_miles"], message: `Less than ${body.start_miles}` }]))
    }
    yield* sql`INSERT INTO vehicle_odometer ${sql.insert({ company_id: company, vehicle_id: path.id, tax_year: body.tax_year, start_miles: body.start_miles, end_miles: end })}
      ON CONFLICT (company_id, vehicle_id, tax_year) DO UPDATE SET start_miles = EXCLUDED.start_miles, end_miles = EXCLUDED.end_miles`.pipe(Effect.orDie)
    return { body: yield* Store.load(company, path.id), audit: { targetType: "vehicle", targetId: path.id, details: { odometer: body } } }
  }))

export const handlers = [listHandler, createHandler, updateHandler, accountsHandler, odometerHandler]

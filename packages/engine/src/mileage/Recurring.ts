import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Mileage } from "@ledger/api"
import * as Actor from "../kernel/Actor.ts"
import { requireCompanyId } from "../kernel/CompanyContext.ts"
import * as Handler from "../kernel/Handler.ts"
import * as Pagination from "../kernel/Pagination.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Row from "../kernel/Row.ts"
import * as Rules from "./MileageRules.ts"
import * as TripStore from "./TripStore.ts"
import * as VehicleStore from "./VehicleStore.ts"

const Api = Mileage.Recurring

const record = (row: Record<string, unknown>) => ({
  id: Row.int(row.id),
  vehicle_id: Row.int(row.vehicle_id),
  from_place: String(row.from_place),
  to_place: String(row.to_place),
  miles: Rules.toMiles(Row.int(row.miles_tenths)),
  round_trip: row.round_trip === true,
  purpose: String(row.purpose),
  contact_id: Row.intOrNull(row.contact_id),
  project_id: Row.intOrNull(row.project_id),
  frequency: row.frequency as "weekly" | "monthly",
  weekdays: Row.json<Array<number>>(row.weekdays),
  day_of_month: Row.intOrNull(row.day_of_month),
  start_date: Row.date(row.start_date),
  end_date: row.end_date === null ? null : Row.date(row.end_date),
  generated_through: row.generated_through === null ? null : Row.date(row.generated_through),
  created_at: Row.iso(row.created_at)
})

const loadRow = Effect.fn("Recurring.loadRow")(function*(company: string, id: number) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM recurring_trips WHERE company_id = ${company} AND id = ${id} FOR UPDATE`.pipe(Effect.orDie)
  if (rows[0] === undefined) return yield* Effect.fail(ApiError.notFound("recurring trip"))
  return rows[0]
})

const listHandler = Handler.make(Api.listRecurringTrips, ({ query }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const company = yield* requireCompanyId
    const select = (after: number | null, limitPlusOne: number) =>
      sql<Record<string, unknown>>`SELECT * FROM recurring_trips WHERE company_id = ${company}
      ${after === null ? sql`` : sql`AND id < ${after}`} ORDER BY id DESC LIMIT ${limitPlusOne}`.pipe(Effect.orDie)
    return { body: yield* Pagination.listPage(query, select, (row) => Row.int(row.id), record) }
  }))

const createHandler = Handler.make(Api.createRecurringTrip, ({ body }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const request = yield* RequestContext
    const company = yield* requireCompanyId
    const issues: Array<{ path: Array<string>; message: string }> = []
    if (body.frequency === "weekly" && (body.weekdays ?? []).length === 0) issues.push({ path: ["body", "weekdays"], message: "Weekly trips name their weekdays (1 Monday to 7 Sunday)" })
    if (body.frequency === "monthly" && body.day_of_month === undefined) issues.push({ path: ["body", "day_of_month"], message: "Monthly trips name their day of the month (1-28)" })
    if (body.end_date !== undefined && body.end_date !== null && body.end_date < body.start_date) issues.push({ path: ["body", "end_date"], message: "Before start_date" })
    if (issues.length > 0) return yield* Effect.fail(ApiError.validationFailed("The schedule is incomplete.", issues))
    yield* VehicleStore.requireInService(company, body.vehicle_id, body.start_date, ["body"])
    const rows = yield* sql<Record<string, unknown>>`INSERT INTO recurring_trips ${sql.insert({
      company_id: company,
      vehicle_id: body.vehicle_id,
      from_place: body.from_place,
      to_place: body.to_place,
      miles_tenths: Rules.toTenths(body.miles),
      round_trip: body.round_trip ?? false,
      purpose: body.purpose,
      contact_id: body.contact_id ?? null,
      project_id: body.project_id ?? null,
      frequency: body.frequency,
      weekdays: JSON.stringify(body.frequency === "weekly" ? Array.from(new Set(body.weekdays ?? [])).sort() : []),
      day_of_month: body.frequency === "monthly" ? body.day_of_month ?? null : null,
      start_date: body.start_date,
      end_date: body.end_date ?? null,
      created_at: request.now
    })} RETURNING *`.pipe(Effect.orDie)
    const created = record(rows[0]!)
    return { body: created, audit: { targetType: "recurring_trip", targetId: created.id } }
  }))

const endHandler = Handler.make(Api.endRecurringTrip, ({ path, body }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const company = yield* requireCompanyId
    const current = record(yield* loadRow(company, path.id))
    if (body.end_date < current.start_date) {
      return yield* Effect.fail(ApiError.validationFailed("A recurring trip ends on or after it starts.", [{ path: ["body", "end_date"], message: `Before ${current.start_date}` }]))
    }
    const rows = yield* sql<Record<string, unknown>>`UPDATE recurring_trips SET end_date = ${body.end_date}
      WHERE company_id = ${company} AND id = ${path.id} RETURNING *`.pipe(Effect.orDie)
    return { body: record(rows[0]!), audit: { targetType: "recurring_trip", targetId: path.id, details: { end_date: body.end_date } } }
  }))

/** Logs one recurring trip's due dates through `through`: each date once, voided ones never again. */
const generateOne = (company: string, row: Record<string, unknown>, through: string, budget: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const request = yield* RequestContext
    const schedule = record(row)
    const vehicle = yield* VehicleStore.loadRow(company, schedule.vehicle_id)
    const retired = vehicle.retired_on === null ? null : Row.date(vehicle.retired_on)
    const last = retired !== null && retired < through ? retired : through
    const existing = yield* sql<Record<string, unknown>>`SELECT trip_date, status FROM trips
      WHERE company_id = ${company} AND recurring_trip_id = ${schedule.id} AND replaces_trip_id IS NULL`.pipe(Effect.orDie)
    const dates = Rules.occurrences({
      frequency: schedule.frequency,
      weekdays: schedule.weekdays,
      dayOfMonth: schedule.day_of_month,
      startDate: schedule.start_date,
      endDate: schedule.end_date
    }, last, existing.length + budget)
    const seen = new Map(existing.map((trip) => [Row.date(trip.trip_date), String(trip.status)]))
    const due = dates.filter((date) => !seen.has(date)).slice(0, budget)
    const logged = yield* TripStore.insertMany(company, due.map((date) => ({
        vehicleId: schedule.vehicle_id,
        tripDate: date,
        fromPlace: schedule.from_place,
        toPlace: schedule.to_place,
        milesTenths: Rules.toTenths(schedule.miles),
        roundTrip: schedule.round_trip,
        kind: "business",
        purpose: schedule.purpose,
        contactId: schedule.contact_id,
        projectId: schedule.project_id,
        status: Actor.isAgent(request.actor) ? "proposed" : "logged",
        recurringTripId: schedule.id,
        replacesTripId: null,
        rationale: null,
        createdBy: Actor.reference(request.actor),
        now: request.now
      })))
    if (schedule.generated_through === null || schedule.generated_through < last) {
      yield* sql`UPDATE recurring_trips SET generated_through = ${last} WHERE company_id = ${company} AND id = ${schedule.id}`.pipe(Effect.orDie)
    }
    const inRange = dates.filter((date) => seen.has(date))
    return { logged, skippedVoided: inRange.filter((date) => seen.get(date) === "void").length, alreadyLogged: inRange.filter((date) => seen.get(date) !== "void").length }
  })

const generateHandler = Handler.make(Api.generateRecurringTrips, ({ body }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const company = yield* requireCompanyId
    const rows = body.recurring_trip_id === undefined
      ? yield* sql<Record<string, unknown>>`SELECT * FROM recurring_trips WHERE company_id = ${company} AND start_date <= ${body.through}
          AND (end_date IS NULL OR generated_through IS NULL OR generated_through < end_date) ORDER BY id FOR UPDATE`.pipe(Effect.orDie)
      : [yield* loadRow(company, body.recurring_trip_id)]
    const logged: Array<Mileage.Trips.Trip> = []
    let skipped = 0
    let already = 0
    for (const row of rows) {
      const result = yield* generateOne(company, row, body.through, Mileage.Shared.generatedTripsMax - logged.length)
      logged.push(...result.logged)
      skipped += result.skippedVoided
      already += result.alreadyLogged
    }
    return {
      body: { through: body.through, logged, skipped_voided: skipped, already_logged: already },
      audit: { targetType: "recurring_trip", details: { through: body.through, logged: logged.length } }
    }
  }))

export const handlers = [listHandler, createHandler, endHandler, generateHandler]

import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, type Mileage } from "@ledger/api"
import * as Row from "../kernel/Row.ts"
import * as Rules from "./MileageRules.ts"

export const trip = (row: Record<string, unknown>): Mileage.Trips.Trip => {
  const tenths = Row.int(row.miles_tenths)
  const total = Row.int(row.total_tenths)
  return {
    id: Row.int(row.id),
    vehicle_id: Row.int(row.vehicle_id),
    trip_date: Row.date(row.trip_date),
    from_place: String(row.from_place),
    to_place: String(row.to_place),
    miles: Rules.toMiles(tenths),
    round_trip: row.round_trip === true,
    total_miles: Rules.toMiles(total),
    total_tenths: total,
    kind: row.kind as "business" | "personal",
    purpose: (row.purpose as string | null) ?? null,
    contact_id: Row.intOrNull(row.contact_id),
    project_id: Row.intOrNull(row.project_id),
    status: row.status as "logged" | "proposed" | "void",
    recurring_trip_id: Row.intOrNull(row.recurring_trip_id),
    replaces_trip_id: Row.intOrNull(row.replaces_trip_id),
    replaced_by_trip_id: Row.intOrNull(row.replaced_by_trip_id),
    rationale: (row.rationale as string | null) ?? null,
    void_reason: (row.void_reason as string | null) ?? null,
    voided_at: Row.isoOrNull(row.voided_at),
    created_by: String(row.created_by),
    created_at: Row.iso(row.created_at)
  }
}

export interface NewTrip {
  readonly vehicleId: number
  readonly tripDate: string
  readonly fromPlace: string
  readonly toPlace: string
  readonly milesTenths: number
  readonly roundTrip: boolean
  readonly kind: "business" | "personal"
  readonly purpose: string | null
  readonly contactId: number | null
  readonly projectId: number | null
  readonly status: "logged" | "proposed"
  readonly recurringTripId: number | null
  readonly replacesTripId: number | null
  readonly rationale: string | null
  readonly createdBy: string
  readonly now: string
}

export const row = (company: string, input: NewTrip) => ({
  company_id: company,
  vehicle_id: input.vehicleId,
  trip_date: input.tripDate,
  from_place: input.fromPlace,
  to_place: input.toPlace,
  miles_tenths: input.milesTenths,
  round_trip: input.roundTrip,
  total_tenths: Rules.totalTenths(input.milesTenths, input.roundTrip),
  kind: input.kind,
  purpose: input.purpose,
  contact_id: input.contactId,
  project_id: input.projectId,
  status: input.status,
  recurring_trip_id: input.recurringTripId,
  replaces_trip_id: input.replacesTripId,
  rationale: input.rationale,
  created_by: input.createdBy,
  created_at: input.now
})

export const insert = Effect.fn("TripStore.insert")(function*(company: string, input: NewTrip) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`INSERT INTO trips ${sql.insert(row(company, input))} RETURNING *`.pipe(Effect.orDie)
  return trip(rows[0]!)
})

/** Inserts many trips, 500 a statement, in order. */
export const insertMany = Effect.fn("TripStore.insertMany")(function*(company: string, inputs: ReadonlyArray<NewTrip>) {
  const sql = yield* SqlClient.SqlClient
  const created: Array<Mileage.Trips.Trip> = []
  for (let start = 0; start < inputs.length; start += 500) {
    const chunk = inputs.slice(start, start + 500).map((input) => row(company, input))
    const rows = yield* sql<Record<string, unknown>>`INSERT INTO trips ${sql.insert(chunk as unknown as readonly [Record<string, unknown>])}
      RETURNING *`.pipe(Effect.orDie)
    created.push(...rows.map(trip).sort((a, b) => a.trip_date.localeCompare(b.trip_date)))
  }
  return created
})

export const load = Effect.fn("TripStore.load")(function*(company: string, id: number, lock = false) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM trips WHERE company_id = ${company} AND id = ${id}
    ${lock ? sql`FOR UPDATE` : sql``}`.pipe(Effect.orDie)
  if (rows[0] === undefined) return yield* Effect.fail(ApiError.notFound("trip"))
  return trip(rows[0])
})

export const markVoid = Effect.fn("TripStore.markVoid")(function*(company: string, id: number, reason: string, now: string, replacedBy: number | null) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`UPDATE trips SET status = 'void', void_reason = ${reason}, voided_at = ${now}, replaced_by_trip_id = ${replacedBy}
    WHERE company_id = ${company} AND id = ${id}`.pipe(Effect.orDie)
})

export interface Filter {
  readonly from?: string | undefined
  readonly to?: string | undefined
  readonly vehicleId?: number | undefined
  readonly kind?: "business" | "personal" | undefined
  readonly statuses: ReadonlyArray<"logged" | "proposed" | "void">
}

/** Trips in date order (oldest first), for the log, the deduction and reimbursements. */
export const inRange = Effect.fn("TripStore.inRange")(function*(company: string, filter: Filter) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM trips WHERE company_id = ${company}
    AND status IN ${sql.in(filter.statuses)}
    ${filter.from === undefined ? sql`` : sql`AND trip_date >= ${filter.from}`}
    ${filter.to === undefined ? sql`` : sql`AND trip_date <= ${filter.to}`}
    ${filter.vehicleId === undefined ? sql`` : sql`AND vehicle_id = ${filter.vehicleId}`}
    ${filter.kind === undefined ? sql`` : sql`AND kind = ${filter.kind}`}
    ORDER BY trip_date, id`.pipe(Effect.orDie)
  return rows.map(trip)
})

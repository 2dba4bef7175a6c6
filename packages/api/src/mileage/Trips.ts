import { Schema } from "effect"
import { DateString, Id, Page, PageQuery, Reason, Timestamp } from "../Common.ts"
import * as Operation from "../Operation.ts"
import { area, IdPath, Miles, Place, Purpose, Rationale } from "./Shared.ts"

export const TripKind = Schema.Literals(["business", "personal"]).annotate({ description: "A business trip (default) counts for the deduction; a personal one does not." })
export const TripStatus = Schema.Literals(["logged", "proposed", "void"])

export const Trip = Schema.Struct({
  id: Id,
  vehicle_id: Id,
  trip_date: DateString,
  from_place: Schema.String,
  to_place: Schema.String,
  miles: Schema.Number.annotate({ description: "One-way miles as logged (one decimal)." }),
  round_trip: Schema.Boolean,
  total_miles: Schema.Number.annotate({ description: "Miles the trip counts: doubled for a round trip." }),
  total_tenths: Schema.Int.annotate({ description: "total_miles in integer tenths of a mile." }),
  kind: TripKind,
  purpose: Schema.NullOr(Schema.String),
  contact_id: Schema.NullOr(Schema.Int),
  project_id: Schema.NullOr(Schema.Int),
  status: TripStatus,
  recurring_trip_id: Schema.NullOr(Id),
  replaces_trip_id: Schema.NullOr(Id),
  replaced_by_trip_id: Schema.NullOr(Id),
  rationale: Schema.NullOr(Schema.String),
  void_reason: Schema.NullOr(Schema.String),
  voided_at: Schema.NullOr(Timestamp),
  created_by: Schema.String,
  created_at: Timestamp
}).annotate({ identifier: "Trip" })
export type Trip = typeof Trip.Type

export const tripFields = {
  vehicle_id: Id,
  trip_date: DateString,
  from_place: Place,
  to_place: Place,
  miles: Miles,
  round_trip: Schema.optionalKey(Schema.Boolean.annotate({ description: "There and back: doubles the miles." })),
  kind: Schema.optionalKey(TripKind),
  purpose: Schema.optionalKey(Purpose),
  contact_id: Schema.optionalKey(Schema.NullOr(Id)),
  project_id: Schema.optionalKey(Schema.NullOr(Id))
}

const TripFields = Schema.Struct(tripFields)
export type TripFields = typeof TripFields.Type

export const TripPreview = Schema.Struct({ dry_run: Schema.Literal(true), trip: Trip }).annotate({ identifier: "TripPreview" })
export const TripProposed = Schema.Struct({ status: Schema.Literal("pending_approval"), trip: Trip }).annotate({ identifier: "TripProposed" })

export const listTrips = Operation.make({
  id: "listTrips",
  method: "GET",
  path: "/v1/mileage/trips",
  area,
  summary: "Trips, newest first; voided trips only with include_voided.",
  scope: "read",
  mode: "R",
  query: Schema.Struct({
    from: Schema.optionalKey(DateString),
    to: Schema.optionalKey(DateString),
    vehicle_id: Schema.optionalKey(Id),
    kind: Schema.optionalKey(TripKind),
    include_voided: Schema.optionalKey(Schema.Boolean),
    ...PageQuery
  }),
  success: Page(Trip)
})

export const logTrip = Operation.make({
  id: "logTrip",
  method: "POST",
  path: "/v1/mileage/trips",
  area,
  summary: "Log a trip: 201 logged for a person, 202 a proposal for an agent (a person confirms it with correct).",
  description: "Miles are one-way with at most one decimal; round_trip doubles them. A business trip needs a purpose.",
  scope: "propose",
  mode: "K",
  body: Schema.Struct({ ...tripFields, dry_run: Schema.optionalKey(Schema.Boolean), rationale: Schema.optionalKey(Rationale) }),
  success: Trip,
  otherResponses: { 200: TripPreview, 202: TripProposed },
  errors: ["vehicle_retired"]
})

export const voidTrip = Operation.make({
  id: "voidTrip",
  method: "POST",
  path: "/v1/mileage/trips/{id}/void",
  area,
  summary: "Void a trip (trips are never edited or deleted); a voided recurring occurrence is not logged again.",
  scope: "propose",
  mode: "K",
  status: 200,
  pathParams: IdPath,
  body: Schema.Struct({ reason: Reason }),
  success: Trip,
  errors: ["already_void"]
})

export const correctTrip = Operation.make({
  id: "correctTrip",
  method: "POST",
  path: "/v1/mileage/trips/{id}/correct",
  area,
  summary: "Void a trip and record its replacement, which names the original (also how a person confirms an agent's proposed trip).",
  scope: "propose",
  mode: "K",
  pathParams: IdPath,
  body: Schema.Struct({ ...tripFields, reason: Reason }),
  success: Trip,
  otherResponses: { 202: TripProposed },
  errors: ["already_void", "vehicle_retired"]
})

export const operations = [listTrips, logTrip, voidTrip, correctTrip] as const

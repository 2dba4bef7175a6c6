import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Mileage } from "@ledger/api"
import * as Actor from "../kernel/Actor.ts"
import { requireCompanyId } from "../kernel/CompanyContext.ts"
import * as Handler from "../kernel/Handler.ts"
import * as Pagination from "../kernel/Pagination.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Row from "../kernel/Row.ts"
import { AccountStore } from "../ledger/index.ts"
import * as Rules from "./MileageRules.ts"
import * as Store from "./TripStore.ts"
import * as VehicleStore from "./VehicleStore.ts"

const Api = Mileage.Trips

/** Checks a trip's fields (purpose for business, vehicle in service, contact known) and resolves them. */
export const resolve = (body: Mileage.Trips.TripFields) =>
  Effect.gen(function*() {
    const company = yield* requireCompanyId
    const kind = body.kind ?? "business"
    const purpose = body.purpose?.trim() ?? ""
    if (kind === "business" && purpose === "") {
      return yield* Effect.fail(ApiError.validationFailed("A business trip needs its business purpose.", [{ path: ["body", "purpose"], message: "Required for a business trip" }]))
    }
    yield* VehicleStore.requireInService(company, body.vehicle_id, body.trip_date, ["body"])
    const contactId = body.contact_id ?? null
    if (contactId !== null && (yield* AccountStore.unknownContacts(company, [contactId])).length > 0) {
      return yield* Effect.fail(ApiError.fail("unknown_contact", "Unknown contact.", { issues: [{ path: ["body", "contact_id"], message: "No such contact" }] }))
    }
    return {
      vehicleId: body.vehicle_id,
      tripDate: body.trip_date,
      fromPlace: body.from_place,
      toPlace: body.to_place,
      milesTenths: Rules.toTenths(body.miles),
      roundTrip: body.round_trip ?? false,
      kind,
      purpose: purpose === "" ? null : purpose,
      contactId,
      projectId: body.project_id ?? null
    } as const
  })

const listHandler = Handler.make(Api.listTrips, ({ query }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const company = yield* requireCompanyId
    const select = (after: number | null, limitPlusOne: number) =>
      sql<Record<string, unknown>>`SELECT * FROM trips WHERE company_id = ${company}
      ${query.include_voided === true ? sql`` : sql`AND status <> 'void'`}
      ${query.from === undefined ? sql`` : sql`AND trip_date >= ${query.from}`}
      ${query.to === undefined ? sql`` : sql`AND trip_date <= ${query.to}`}
      ${query.vehicle_id === undefined ? sql`` : sql`AND vehicle_id = ${query.vehicle_id}`}
      ${query.kind === undefined ? sql`` : sql`AND kind = ${query.kind}`}
      ${after === null ? sql`` : sql`AND id < ${after}`}
      ORDER BY id DESC LIMIT ${limitPlusOne}`.pipe(Effect.orDie)
    return { body: yield* Pagination.listPage(query, select, (row) => Row.int(row.id), Store.trip) }
  }))

const logHandler = Handler.make(Api.logTrip, ({ body }) =>
  Effect.gen(function*() {
    const request = yield* RequestContext
    const company = yield* requireCompanyId
    const resolved = yield* resolve(body)
    const agent = Actor.isAgent(request.actor)
    const input: Store.NewTrip = {
      ...resolved,
      status: agent ? "proposed" : "logged",
      recurringTripId: null,
      replacesTripId: null,
      rationale: body.rationale ?? null,
      createdBy: Actor.reference(request.actor),
      now: request.now
    }
    if (body.dry_run === true) {
      const preview = Store.trip({ ...Store.row(company, input), id: 1, replaced_by_trip_id: null, void_reason: null, voided_at: null })
      return { status: 200, body: { dry_run: true as const, trip: preview } }
    }
    const created = yield* Store.insert(company, input)
    const audit = { targetType: "trip", targetId: created.id, details: { status: created.status, total_tenths: created.total_tenths } }
    return agent ? { status: 202, body: { status: "pending_approval" as const, trip: created }, audit } : { body: created, audit }
  }))

const voidHandler = Handler.make(Api.voidTrip, ({ path, body }) =>
  Effect.gen(function*() {
    const request = yield* RequestContext
    const company = yield* requireCompanyId
    const existing = yield* Store.load(company, path.id, true)
    if (existing.status === "void") return yield* Effect.fail(ApiError.fail("already_void", "The trip is already void."))
    yield* Store.markVoid(company, existing.id, body.reason, request.now, null)
    return { body: yield* Store.load(company, existing.id), audit: { targetType: "trip", targetId: existing.id, reason: body.reason } }
  }))

/** Voids the original and records the replacement naming it; an agent's replacement is a proposal and leaves the original. */
const correctHandler = Handler.make(Api.correctTrip, ({ path, body }) =>
  Effect.gen(function*() {
    const request = yield* RequestContext
    const company = yield* requireCompanyId
    const existing = yield* Store.load(company, path.id, true)
    if (existing.status === "void") return yield* Effect.fail(ApiError.fail("already_void", "The trip is void: correct its replacement."))
    const resolved = yield* resolve(body)
    const agent = Actor.isAgent(request.actor)
    const replacement = yield* Store.insert(company, {
      ...resolved,
      status: agent ? "proposed" : "logged",
      recurringTripId: null,
      replacesTripId: existing.id,
      rationale: body.reason,
      createdBy: Actor.reference(request.actor),
      now: request.now
    })
    if (!agent) yield* Store.markVoid(company, existing.id, body.reason, request.now, replacement.id)
    const audit = { targetType: "trip", targetId: replacement.id, reason: body.reason, details: { replaces_trip_id: existing.id } }
    return agent ? { status: 202, body: { status: "pending_approval" as const, trip: replacement }, audit } : { body: replacement, audit }
  }))

export const handlers = [listHandler, logHandler, voidHandler, correctHandler]

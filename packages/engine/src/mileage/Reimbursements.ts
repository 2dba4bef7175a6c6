import { Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Mileage } from "@ledger/api"
import { requireCompanyId } from "../kernel/CompanyContext.ts"
import * as Handler from "../kernel/Handler.ts"
import * as Pagination from "../kernel/Pagination.ts"
import { proposalKind } from "../kernel/Registry.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Row from "../kernel/Row.ts"
import { Governed } from "../ledger/index.ts"
import { ratesUsed, unrated } from "./Deduction.ts"
import * as Rules from "./MileageRules.ts"
import * as Store from "./ReimbursementStore.ts"
import * as TripStore from "./TripStore.ts"
import * as VehicleStore from "./VehicleStore.ts"

const Api = Mileage.Reimbursements

const ResolvedSchema = Schema.Struct({
  vehicle_id: Schema.Int,
  payee: Schema.String,
  period_start: Schema.String,
  period_end: Schema.String,
  business_tenths: Schema.Int,
  amount_cents: Schema.Int,
  rates: Schema.Array(Mileage.Deduction.RateUsed),
  expense_account: Schema.String,
  pay_from_account: Schema.String,
  entry_date: Schema.String
})
const VoidRequest = Schema.Struct({ reimbursement_id: Schema.Int, reason: Schema.String })

/** Writes the reimbursement under the id its entry names as `source.id` (reserved before posting). */
const persist = (resolved: Store.Resolved, entry: Governed.PostedEntry) =>
  Effect.gen(function*() {
    const request = yield* RequestContext
    const id = entry.source.id ?? (yield* Governed.reserveId())
    return yield* Store.insert(yield* requireCompanyId, resolved, entry.id, request.now, id)
  })

/** A reimbursement proposed by an agent: written when a person approves it. */
export const reimbursementProposalKind = proposalKind({
  request: ResolvedSchema,
  // The reimbursement's id is taken at approval, when it is certain to be written.
  sourceId: () => Governed.reserveId(),
  approved: ({ entry, request }) => persist(request, entry),
  rejected: () => Effect.void
})

/** A reimbursement's void proposed by an agent: the reversal has posted, the reimbursement is void. */
export const reimbursementVoidProposalKind = proposalKind({
  request: VoidRequest,
  sourceId: ({ request }) => Effect.succeed(request.reimbursement_id),
  approved: ({ entry, request }) =>
    Effect.gen(function*() {
      const now = (yield* RequestContext).now
      return yield* Store.markVoid(yield* requireCompanyId, request.reimbursement_id, request.reason, entry.id, now)
    }),
  rejected: () => Effect.void
})

const resolve = (body: typeof Api.createReimbursement.body.Type) =>
  Effect.gen(function*() {
    const request = yield* RequestContext
    const company = yield* requireCompanyId
    if (body.period_end < body.period_start) {
      return yield* Effect.fail(ApiError.validationFailed("The period ends on or after it starts.", [{ path: ["body", "period_end"], message: `Before ${body.period_start}` }]))
    }
    yield* VehicleStore.loadRow(company, body.vehicle_id).pipe(Effect.catchTag("LedgerError", () =>
      Effect.fail(ApiError.validationFailed("Unknown vehicle.", [{ path: ["body", "vehicle_id"], message: "No such vehicle" }]))))
    const overlaps = yield* Store.overlapping(company, body.vehicle_id, body.period_start, body.period_end)
    if (overlaps.length > 0) return yield* Effect.fail(ApiError.fail("reimbursement_overlaps", "The period overlaps a posted reimbursement of this vehicle.", { reimbursement_ids: overlaps }))
    const trips = yield* TripStore.inRange(company, { from: body.period_start, to: body.period_end, vehicleId: body.vehicle_id, kind: "business", statuses: ["logged"] })
    const standard = Rules.standardAmount(trips.map((trip) => ({ date: trip.trip_date, tenths: trip.total_tenths })))
    if (standard.unrated.length > 0) return yield* Effect.fail(unrated(standard.unrated))
    const tenths = trips.reduce((sum, trip) => sum + trip.total_tenths, 0)
    if (tenths === 0 || standard.cents === 0) return yield* Effect.fail(ApiError.fail("no_business_miles", "No business miles were logged for the vehicle in the period."))
    return {
      vehicle_id: body.vehicle_id,
      payee: body.payee,
      period_start: body.period_start,
      period_end: body.period_end,
      business_tenths: tenths,
      amount_cents: standard.cents,
      rates: ratesUsed(standard.periods),
      expense_account: body.expense_account,
      pay_from_account: body.pay_from_account,
      entry_date: body.entry_date ?? request.today
    } satisfies Store.Resolved
  })

const createHandler = Handler.make(Api.createReimbursement, ({ body }) =>
  Effect.gen(function*() {
    const resolved = yield* resolve(body)
    const memo = `Mileage reimbursement to ${resolved.payee}: ${Rules.toMiles(resolved.business_tenths)} business miles, ${resolved.period_start} to ${resolved.period_end}`
    return yield* Governed.write({
      kind: "mileage_reimbursement",
      summary: memo,
      entry: {
        date: resolved.entry_date,
        memo,
        lines: [
          { account: resolved.expense_account, debit_cents: resolved.amount_cents, memo: "Mileage at the standard rate" },
          { account: resolved.pay_from_account, credit_cents: resolved.amount_cents, memo: `Paid to ${resolved.payee}` }
        ]
      },
      request: resolved,
      dryRun: body.dry_run === true,
      linesPath: ["body"],
      preview: { document: { ...resolved, business_miles: Rules.toMiles(resolved.business_tenths) } },
      reserveSourceId: true,
      onPosted: (entry) => persist(resolved, entry)
    })
  }))

const voidHandler = Handler.make(Api.voidReimbursement, ({ path, body }) =>
  Effect.gen(function*() {
    const request = yield* RequestContext
    const company = yield* requireCompanyId
    const existing = yield* Store.load(company, path.id, true)
    if (existing.status === "void") return yield* Effect.fail(ApiError.fail("already_void", "The reimbursement is already void."))
    const written = yield* Governed.write({
      kind: "mileage_reimbursement_void",
      summary: `Void mileage reimbursement ${existing.id} to ${existing.payee} (${existing.amount_cents} cents): ${body.reason}`,
      entry: { date: request.today < existing.entry_date ? existing.entry_date : request.today, memo: `Void of mileage reimbursement ${existing.id}: ${body.reason}`.slice(0, 1000), lines: [] },
      reverses: existing.entry_id,
      // The reversal leads to the reimbursement it voids.
      sourceId: existing.id,
      request: { reimbursement_id: existing.id, reason: body.reason },
      dryRun: false,
      onPosted: (entry) => Store.markVoid(company, existing.id, body.reason, entry.id, request.now)
    })
    return { ...written, status: written.status === 201 ? 200 : written.status ?? 200 }
  }))

const listHandler = Handler.make(Api.listReimbursements, ({ query }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const company = yield* requireCompanyId
    const select = (after: number | null, limitPlusOne: number) =>
      sql<Record<string, unknown>>`SELECT * FROM mileage_reimbursements WHERE company_id = ${company}
      ${query.include_voided === true ? sql`` : sql`AND status <> 'void'`}
      ${after === null ? sql`` : sql`AND id < ${after}`}
      ORDER BY id DESC LIMIT ${limitPlusOne}`.pipe(Effect.orDie)
    return { body: yield* Pagination.listPage(query, select, (row) => Row.int(row.id), Store.record) }
  }))

export const handlers = [listHandler, createHandler, voidHandler]

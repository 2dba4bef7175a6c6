import { Effect } from "effect"
import { ApiError, Mileage } from "@ledger/api"
import { requireCompanyId } from "../kernel/CompanyContext.ts"
import * as Handler from "../kernel/Handler.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Row from "../kernel/Row.ts"
import * as Store from "./DeductionStore.ts"
import * as LogFiles from "./LogFiles.ts"
import * as Rates from "./MileageRates.ts"
import * as Rules from "./MileageRules.ts"
import * as TripStore from "./TripStore.ts"
import * as VehicleStore from "./VehicleStore.ts"

const Api = Mileage.Deduction

/** The rates a set of business trips used, for the wire. */
export const ratesUsed = (periods: ReadonlyArray<Rules.RatedPeriod>) =>
  periods.map((period) => ({
    from: period.rate.from,
    to: period.rate.to,
    cents_per_mile: Rates.centsText(period.rate.tenthCentsPerMile),
    business_tenths: period.tenths,
    source: period.rate.source
  }))

export const unrated = (dates: ReadonlyArray<string>) =>
  ApiError.fail("mileage_rate_unknown", "No standard mileage rate is known for some trip dates.", { dates: Array.from(new Set(dates)).slice(0, 20) })

/** One vehicle's deduction for the year (docs/mileage.md gives the arithmetic). */
const ofVehicle = (company: string, vehicle: Mileage.Vehicles.Vehicle, year: number) =>
  Effect.gen(function*() {
    const trips = yield* TripStore.inRange(company, { from: `${year}-01-01`, to: `${year}-12-31`, vehicleId: vehicle.id, statuses: ["logged"] })
    const business = trips.filter((trip) => trip.kind === "business")
    const businessTenths = business.reduce((sum, trip) => sum + trip.total_tenths, 0)
    const standard = Rules.standardAmount(business.map((trip) => ({ date: trip.trip_date, tenths: trip.total_tenths })))
    if (standard.unrated.length > 0) return yield* Effect.fail(unrated(standard.unrated))
    const reading = vehicle.odometer.find((one) => one.tax_year === year)
    const fromOdometer = reading !== undefined && reading.total_miles !== null
    const totalTenths = fromOdometer ? reading!.total_miles! * 10 : trips.reduce((sum, trip) => sum + trip.total_tenths, 0)
    const expenses = yield* Store.expensesInYear(company, vehicle.accounts, year)
    return {
      vehicle_id: vehicle.id,
      vehicle_name: vehicle.name,
      tax_year: year,
      business_miles: Rules.toMiles(businessTenths),
      business_tenths: businessTenths,
      total_miles: Rules.toMiles(totalTenths),
      total_tenths: totalTenths,
      total_miles_source: fromOdometer ? "odometer" as const : "trips" as const,
      business_use_percent: Rules.businessUsePercent(businessTenths, totalTenths),
      business_use_ppm: Rules.businessUsePpm(businessTenths, totalTenths),
      standard_deduction_cents: standard.cents,
      rates: ratesUsed(standard.periods),
      actual_expenses_cents: expenses,
      actual_expenses_business_cents: Rules.businessShare(expenses, businessTenths, totalTenths),
      accounts: vehicle.accounts
    }
  })

const deductionHandler = Handler.make(Api.getMileageDeduction, ({ query }) =>
  Effect.gen(function*() {
    const request = yield* RequestContext
    const company = yield* requireCompanyId
    const year = query.year ?? Number(request.today.slice(0, 4))
    const vehicles = yield* VehicleStore.withDetails(company, yield* Store.vehiclesOfYear(company, year))
    const rows = []
    for (const vehicle of vehicles) rows.push(yield* ofVehicle(company, vehicle, year))
    return {
      body: {
        tax_year: year,
        vehicles: rows,
        standard_deduction_cents: rows.reduce((sum, row) => sum + row.standard_deduction_cents, 0),
        actual_expenses_business_cents: rows.reduce((sum, row) => sum + row.actual_expenses_business_cents, 0)
      }
    }
  }))

const logHandler = Handler.make(Api.getMileageLog, ({ query }) =>
  Effect.gen(function*() {
    const request = yield* RequestContext
    const company = yield* requireCompanyId
    const year = query.year ?? Number(request.today.slice(0, 4))
    if (query.vehicle_id !== undefined) yield* VehicleStore.loadRow(company, query.vehicle_id)
    const vehicleRows = yield* Store.vehiclesOfYear(company, year, query.vehicle_id)
    const vehicles = yield* VehicleStore.withDetails(company, vehicleRows)
    const trips = yield* TripStore.inRange(company, { from: `${year}-01-01`, to: `${year}-12-31`, vehicleId: query.vehicle_id, statuses: ["logged"] })
    const odometer = vehicles.map((vehicle) => {
      const reading = vehicle.odometer.find((one) => one.tax_year === year)
      return { vehicle_id: vehicle.id, vehicle_name: vehicle.name, start_miles: reading?.start_miles ?? null, end_miles: reading?.end_miles ?? null }
    })
    const format = query.format ?? "json"
    if (format === "json") {
      const business = trips.filter((trip) => trip.kind === "business").reduce((sum, trip) => sum + trip.total_tenths, 0)
      const all = trips.reduce((sum, trip) => sum + trip.total_tenths, 0)
      return { body: { tax_year: year, vehicle_id: query.vehicle_id ?? null, trips, odometer, business_miles: Rules.toMiles(business), personal_miles: Rules.toMiles(all - business) } }
    }
    const input: LogFiles.LogInput = {
      companyName: yield* Store.companyName(company),
      year,
      trips,
      vehicles: new Map(vehicleRows.map((row) => [Row.int(row.id), String(row.name)])),
      odometer,
      createdAt: request.now
    }
    return { body: format === "csv" ? LogFiles.csv(input) : yield* LogFiles.pdf(input) }
  }))

export const handlers = [deductionHandler, logHandler]

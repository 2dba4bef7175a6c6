import { Schema } from "effect"
import { DateString, Id, Name, Page, PageQuery, Timestamp } from "../Common.ts"
import * as Operation from "../Operation.ts"
import { AccountCode, area, IdPath, TaxYear, vehicleAccountsMax } from "./Shared.ts"

const Ownership = Schema.Literals(["owned", "leased"]).annotate({ description: "Whether the vehicle is owned or leased." })
const Description = Schema.String.check(Schema.isMaxLength(1000)).annotate({ description: "A note for people: make, model, plate." })

export const OdometerReading = Schema.Struct({
  tax_year: Schema.Int,
  start_miles: Schema.Int,
  end_miles: Schema.NullOr(Schema.Int),
  total_miles: Schema.NullOr(Schema.Int)
}).annotate({ identifier: "OdometerReading" })

export const Vehicle = Schema.Struct({
  id: Id,
  name: Schema.String,
  description: Schema.NullOr(Schema.String),
  ownership: Ownership,
  in_service_date: DateString,
  retired_on: Schema.NullOr(DateString),
  accounts: Schema.Array(Schema.String),
  odometer: Schema.Array(OdometerReading),
  created_at: Timestamp
}).annotate({ identifier: "Vehicle" })
export type Vehicle = typeof Vehicle.Type

export const listVehicles = Operation.make({
  id: "listVehicles",
  method: "GET",
  path: "/v1/mileage/vehicles",
  area,
  summary: "The company's vehicles, with their accounts and odometer readings.",
  scope: "read",
  mode: "R",
  query: Schema.Struct({ include_retired: Schema.optionalKey(Schema.Boolean), ...PageQuery }),
  success: Page(Vehicle)
})

export const createVehicle = Operation.make({
  id: "createVehicle",
  method: "POST",
  path: "/v1/mileage/vehicles",
  area,
  summary: "Add a vehicle whose trips are logged.",
  scope: "propose",
  mode: "K",
  peopleOnly: true,
  body: Schema.Struct({
    name: Name,
    description: Schema.optionalKey(Description),
    ownership: Schema.optionalKey(Ownership),
    in_service_date: DateString
  }),
  success: Vehicle
})

export const updateVehicle = Operation.make({
  id: "updateVehicle",
  method: "POST",
  path: "/v1/mileage/vehicles/{id}",
  area,
  summary: "Rename, describe or retire a vehicle (retired_on null brings it back).",
  scope: "propose",
  mode: "-",
  pathParams: IdPath,
  body: Schema.Struct({
    name: Schema.optionalKey(Name),
    description: Schema.optionalKey(Schema.NullOr(Description)),
    ownership: Schema.optionalKey(Ownership),
    in_service_date: Schema.optionalKey(DateString),
    retired_on: Schema.optionalKey(Schema.NullOr(DateString))
  }),
  success: Vehicle
})

export const setVehicleAccounts = Operation.make({
  id: "setVehicleAccounts",
  method: "POST",
  path: "/v1/mileage/vehicles/{id}/accounts",
  area,
  summary: "The expense accounts of the vehicle (fuel, repairs, insurance, lease): replaces the list.",
  description: "An account belongs to one vehicle (vehicle_account_taken). Actual expenses are these accounts' activity in the year.",
  scope: "propose",
  mode: "-",
  pathParams: IdPath,
  body: Schema.Struct({
    accounts: Schema.Array(AccountCode).check(Schema.isMaxLength(vehicleAccountsMax)).annotate({
      description: "The expense accounts of this vehicle (fuel, repairs...); replaces the list."
    })
  }),
  success: Vehicle,
  errors: ["vehicle_account_taken", "unknown_account"]
})

export const setVehicleOdometer = Operation.make({
  id: "setVehicleOdometer",
  method: "POST",
  path: "/v1/mileage/vehicles/{id}/odometer",
  area,
  summary: "The odometer at the start (and end) of a tax year: total miles for the business-use percentage.",
  scope: "propose",
  mode: "-",
  pathParams: IdPath,
  body: Schema.Struct({
    tax_year: TaxYear,
    start_miles: Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 10_000_000 })).annotate({ description: "The odometer reading at the start of the year." }),
    end_miles: Schema.optionalKey(Schema.NullOr(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 10_000_000 }))).annotate({
      description: "The odometer reading at the end of the year; null while unknown."
    }))
  }),
  success: Vehicle
})

export const operations = [listVehicles, createVehicle, updateVehicle, setVehicleAccounts, setVehicleOdometer] as const

import { Schema } from "effect"
import { DateString, Id } from "../Common.ts"
import * as File from "../File.ts"
import * as Operation from "../Operation.ts"
import { area, TaxYear } from "./Shared.ts"
import { Trip } from "./Trips.ts"

export const RateUsed = Schema.Struct({
  from: DateString,
  to: DateString,
  cents_per_mile: Schema.String.annotate({ description: "A decimal string, e.g. \"70\" or \"72.5\"." }),
  business_tenths: Schema.Int,
  source: Schema.String
}).annotate({ identifier: "MileageRateUsed" })
export type RateUsed = typeof RateUsed.Type

export const VehicleDeduction = Schema.Struct({
  vehicle_id: Id,
  vehicle_name: Schema.String,
  tax_year: Schema.Int,
  business_miles: Schema.Number,
  business_tenths: Schema.Int,
  total_miles: Schema.Number,
  total_tenths: Schema.Int,
  total_miles_source: Schema.Literals(["odometer", "trips"]),
  business_use_percent: Schema.String.annotate({ description: "Two decimals, e.g. \"62.50\"." }),
  business_use_ppm: Schema.Int.annotate({ description: "Business use in parts per million (floored)." }),
  standard_deduction_cents: Schema.Int,
  rates: Schema.Array(RateUsed),
  actual_expenses_cents: Schema.Int,
  actual_expenses_business_cents: Schema.Int,
  accounts: Schema.Array(Schema.String)
}).annotate({ identifier: "VehicleDeduction" })

export const MileageDeduction = Schema.Struct({
  tax_year: Schema.Int,
  vehicles: Schema.Array(VehicleDeduction),
  standard_deduction_cents: Schema.Int,
  actual_expenses_business_cents: Schema.Int
}).annotate({ identifier: "MileageDeduction" })

export const getMileageDeduction = Operation.make({
  id: "getMileageDeduction",
  method: "GET",
  path: "/v1/mileage/deduction",
  area,
  summary: "Per vehicle and year: business and total miles, business use, the standard mileage deduction and actual expenses times business use. Nothing posts.",
  description: "Standard deduction = business tenths x the year's rate (tenths of a cent per mile) / 100, rounded half up once per vehicle and year. " +
    "Total miles come from the odometer readings when both are set, else from the logged trips.",
  scope: "read",
  mode: "R",
  query: Schema.Struct({ year: Schema.optionalKey(TaxYear) }),
  success: MileageDeduction,
  errors: ["mileage_rate_unknown", "amount_out_of_range"]
})

export const MileageLog = Schema.Struct({
  tax_year: Schema.Int,
  vehicle_id: Schema.NullOr(Id),
  trips: Schema.Array(Trip),
  odometer: Schema.Array(Schema.Struct({ vehicle_id: Id, vehicle_name: Schema.String, start_miles: Schema.NullOr(Schema.Int), end_miles: Schema.NullOr(Schema.Int) })),
  business_miles: Schema.Number,
  personal_miles: Schema.Number
}).annotate({ identifier: "MileageLog" })

export const MileageFile = Schema.Struct({
  format: Schema.Literals(["csv", "pdf"]),
  filename: Schema.String,
  content_type: Schema.String,
  content: Schema.optionalKey(Schema.String).annotate({ description: "CSV text (format=csv)." }),
  size_bytes: Schema.optionalKey(Schema.Int),
  content_base64: Schema.optionalKey(Schema.String).annotate({ description: "The PDF (format=pdf or base64)." })
}).annotate({ identifier: "MileageFile" })

export const getMileageLog = Operation.make({
  id: "getMileageLog",
  method: "GET",
  path: "/v1/mileage/log",
  area,
  summary: "The year's mileage log as an auditor reads it: date, places, purpose, miles, odometer; JSON, CSV or PDF.",
  description: "format=json (default) the trips; csv a CSV file; pdf a PDF file; base64 the PDF in JSON " +
    "`{format: \"pdf\", filename, content_type, size_bytes, content_base64}`. JSON clients and MCP get csv as " +
    "`{format, filename, content_type, content}` and pdf like base64 (ADR 0015). Voided trips are left out.",
  scope: "read",
  mode: "R",
  query: Schema.Struct({
    year: Schema.optionalKey(TaxYear),
    vehicle_id: Schema.optionalKey(Id),
    format: Schema.optionalKey(Schema.Literals(["json", "csv", "pdf", "base64"]))
  }),
  success: Schema.Union([MileageLog, MileageFile]),
  files: File.files({ formats: { csv: [File.mediaTypes.csv], pdf: [File.mediaTypes.pdf] } })
})

export const operations = [getMileageDeduction, getMileageLog] as const

import { Schema } from "effect"
import { Id } from "../Common.ts"

export const area = "4.9 Mileage"
export const IdPath = Schema.Struct({ id: Id })
export const AccountCode = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(40))
export const TaxYear = Schema.Int.check(Schema.isBetween({ minimum: 2000, maximum: 2100 }))
export const Place = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200))
export const Purpose = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(500))
export const Rationale = Schema.String.check(Schema.isMaxLength(2000))

/** The most miles one trip may log one way. */
export const tripMilesMax = 5_000
/** The most vehicle accounts a vehicle may have. */
export const vehicleAccountsMax = 50
/** The most trips one generation may log. */
export const generatedTripsMax = 5_000

/** Miles as a number with at most one decimal (spec 8.2), positive. Stored as integer tenths. */
export const Miles = Schema.Finite.check(
  Schema.isBetween({ minimum: 0.1, maximum: tripMilesMax }),
  Schema.makeFilter((value: number) => Math.abs(value * 10 - Math.round(value * 10)) < 1e-9 || "At most one decimal")
).annotate({ description: "Miles, one-way, with at most one decimal (e.g. 12.4)." })

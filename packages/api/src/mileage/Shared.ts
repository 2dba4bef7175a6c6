import { Schema } from "effect"
import { Id } from "../Common.ts"

export const area = "4.9 Mileage"
export const IdPath = Schema.Struct({ id: Id })
export const AccountCode = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(40))
export const TaxYear = Schema.Int.check(Schema.isBetween({ minimum: 2000, maximum: 2100 })).annotate({ description: "The tax year (a calendar year)." })
export const Place = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200)).annotate({ description: "A place as people name it: an address or a name." })
export const Purpose = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(500)).annotate({
  description: "The business purpose of the trip; required for a business trip."
})
export const Rationale = Schema.String.check(Schema.isMaxLength(2000)).annotate({ description: "Why the agent proposes this, shown to the person who decides." })

/** The most miles one trip may log one way. */
export const tripMilesMax = 5_000
/** The most vehicle accounts a vehicle may have. */
export const vehicleAccountsMax = 50
/** The most trips one generation may log. */
export const generatedTripsMax = 5_000

/** Miles as a number with at most one decimal (spec 8.2), positive. Stored as integer tenths. */
// The description sits on the number itself: after a filter without JSON Schema it would be lost.
export const Miles = Schema.Finite.annotate({ description: "Miles, one-way, with at most one decimal (e.g. 12.4)." }).check(
  Schema.isBetween({ minimum: 0.1, maximum: tripMilesMax }),
  Schema.makeFilter((value: number) => Math.abs(value * 10 - Math.round(value * 10)) < 1e-9 || "At most one decimal")
)

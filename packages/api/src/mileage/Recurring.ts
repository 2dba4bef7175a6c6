import { Schema } from "effect"
import { DateString, Id, Page, PageQuery, Timestamp } from "../Common.ts"
import * as Operation from "../Operation.ts"
import { area, IdPath, Miles, Place, Purpose } from "./Shared.ts"
import { Trip } from "./Trips.ts"

const Frequency = Schema.Literals(["weekly", "monthly"]).annotate({ description: "weekly on the weekdays, or monthly on day_of_month." })
const Weekday = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 7 })).annotate({ description: "1 Monday to 7 Sunday." })

export const RecurringTrip = Schema.Struct({
  id: Id,
  vehicle_id: Id,
  from_place: Schema.String,
  to_place: Schema.String,
  miles: Schema.Number,
  round_trip: Schema.Boolean,
  purpose: Schema.String,
  contact_id: Schema.NullOr(Schema.Int),
  project_id: Schema.NullOr(Schema.Int),
  frequency: Frequency,
  weekdays: Schema.Array(Schema.Int),
  day_of_month: Schema.NullOr(Schema.Int),
  start_date: DateString,
  end_date: Schema.NullOr(DateString),
  generated_through: Schema.NullOr(DateString),
  created_at: Timestamp
}).annotate({ identifier: "RecurringTrip" })

export const listRecurringTrips = Operation.make({
  id: "listRecurringTrips",
  method: "GET",
  path: "/v1/mileage/recurring",
  area,
  summary: "Recurring trips (a commute to a client, a weekly supply run).",
  scope: "read",
  mode: "R",
  query: Schema.Struct({ ...PageQuery }),
  success: Page(RecurringTrip)
})

export const createRecurringTrip = Operation.make({
  id: "createRecurringTrip",
  method: "POST",
  path: "/v1/mileage/recurring",
  area,
  summary: "A business trip that repeats: weekly on weekdays (1 Monday to 7 Sunday) or monthly on a day 1-28.",
  scope: "propose",
  mode: "K",
  body: Schema.Struct({
    vehicle_id: Id,
    from_place: Place,
    to_place: Place,
    miles: Miles,
    round_trip: Schema.optionalKey(Schema.Boolean.annotate({ description: "There and back: doubles the miles." })),
    purpose: Purpose,
    contact_id: Schema.optionalKey(Schema.NullOr(Id)),
    project_id: Schema.optionalKey(Schema.NullOr(Id)),
    frequency: Frequency,
    weekdays: Schema.optionalKey(Schema.Array(Weekday).check(Schema.isMinLength(1), Schema.isMaxLength(7)).annotate({
      description: "Weekly: the days of the week, 1 Monday to 7 Sunday."
    })),
    day_of_month: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 28 })).annotate({ description: "Monthly: the day of the month, 1 to 28." })),
    start_date: DateString,
    end_date: Schema.optionalKey(Schema.NullOr(DateString))
  }),
  success: RecurringTrip,
  errors: ["vehicle_retired"]
})

export const endRecurringTrip = Operation.make({
  id: "endRecurringTrip",
  method: "POST",
  path: "/v1/mileage/recurring/{id}/end",
  area,
  summary: "End a recurring trip: nothing after end_date is generated (trips already logged stay).",
  scope: "propose",
  mode: "-",
  pathParams: IdPath,
  body: Schema.Struct({ end_date: DateString }),
  success: RecurringTrip
})

export const Generated = Schema.Struct({
  through: DateString,
  logged: Schema.Array(Trip),
  skipped_voided: Schema.Int.annotate({ description: "Dates whose occurrence was voided: never logged again." }),
  already_logged: Schema.Int
}).annotate({ identifier: "GeneratedTrips" })

export const generateRecurringTrips = Operation.make({
  id: "generateRecurringTrips",
  method: "POST",
  path: "/v1/mileage/recurring/generate",
  area,
  summary: "Log every due occurrence through a date: each date once; a voided occurrence is not logged again.",
  scope: "propose",
  mode: "-",
  body: Schema.Struct({ through: DateString, recurring_trip_id: Schema.optionalKey(Id) }),
  success: Generated
})

export const operations = [listRecurringTrips, createRecurringTrip, endRecurringTrip, generateRecurringTrips] as const

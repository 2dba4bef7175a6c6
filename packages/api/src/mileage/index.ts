/** Mileage (spec 3-endpoints-b 4.9): vehicles, trips, recurring trips, the deduction, the log and reimbursements. */
import * as Deduction from "./Deduction.ts"
import * as Recurring from "./Recurring.ts"
import * as Reimbursements from "./Reimbursements.ts"
import * as Trips from "./Trips.ts"
import * as Vehicles from "./Vehicles.ts"

export * as Deduction from "./Deduction.ts"
export * as Recurring from "./Recurring.ts"
export * as Reimbursements from "./Reimbursements.ts"
export * as Shared from "./Shared.ts"
export * as Trips from "./Trips.ts"
export * as Vehicles from "./Vehicles.ts"

export const operations = [
  ...Vehicles.operations,
  ...Trips.operations,
  ...Recurring.operations,
  ...Deduction.operations,
  ...Reimbursements.operations
] as const

/** The events the area emits (ADR 2010), gathered by `Events.ts`. */
export { events } from "./Events.ts"

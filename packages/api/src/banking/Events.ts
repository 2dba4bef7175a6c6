import * as Event from "../Event.ts"

/** Banking's events (spec 6.1). */
export const events = Event.declare({
  "reconciliation.finished": { emittedBy: "finishReconciliation." }
})

import * as Event from "../Event.ts"

/** Mileage's events (ADR 2010: beyond spec 6.1's list, subscribable like them). */
export const events = Event.declare({
  "mileage.reimbursement_posted": { emittedBy: "createMileageReimbursement (or the approval of a queued one)." },
  "mileage.reimbursement_voided": { emittedBy: "voidMileageReimbursement (or the approval of a queued void)." }
})

import * as Event from "../Event.ts"

/** Estimated taxes' events (ADR 2010: beyond spec 6.1's list, subscribable like them). */
export const events = Event.declare({
  "estimated_tax.payment_recorded": { emittedBy: "recordEstimatedTaxPayment (or the approval of a queued one)." },
  "estimated_tax.payment_voided": { emittedBy: "voidEstimatedTaxPayment (or the approval of a queued void)." }
})

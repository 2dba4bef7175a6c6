import * as Event from "../Event.ts"

/** Sales and purchases' events (spec 6.1): documents created, paid and voided, payments recorded. */
export const events = Event.declare({
  "invoice.created": { emittedBy: "createInvoice (and invoices made from estimates, recurring templates or approved proposals)." },
  "invoice.paid": { emittedBy: "An invoice whose balance reaches zero when a payment or credit is applied to it." },
  "invoice.voided": { emittedBy: "voidDocument of an invoice." },
  "bill.created": { emittedBy: "createBill (and bills made from recurring templates or approved proposals)." },
  "bill.paid": { emittedBy: "A bill whose balance reaches zero when a payment or vendor credit is applied to it." },
  "bill.voided": { emittedBy: "voidDocument of a bill." },
  "payment.received": { emittedBy: "A customer payment recorded (receivePayment, an approved payment proposal, an online payment)." },
  "payment.made": { emittedBy: "A vendor payment recorded (makePayment, an approved payment proposal)." }
})

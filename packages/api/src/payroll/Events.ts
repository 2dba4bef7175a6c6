import * as Event from "../Event.ts"

/** Payroll's events (ADR 2010: beyond spec 6.1's list, subscribable like them). */
export const events = Event.declare({
  "payroll.imported": { emittedBy: "importPayrollYtd: a year-to-date payroll file accepted." },
  "payroll.voided": { emittedBy: "voidPayrollYtd (or the approval of a queued void); its summary entry, if posted, is reversed." }
})

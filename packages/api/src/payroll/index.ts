/** Payroll year to date (spec 3-endpoints-b 4.8). */
import * as PayrollYtd from "./PayrollYtd.ts"

export * as PayrollYtd from "./PayrollYtd.ts"
export const operations = [...PayrollYtd.operations] as const

/** The events the area emits (ADR 2010), gathered by `Events.ts`. */
export { events } from "./Events.ts"

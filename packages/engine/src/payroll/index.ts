import { Payroll } from "@ledger/api"
import * as Area from "../pipeline/Area.ts"
import * as PayrollYtd from "./PayrollYtd.ts"

/** Payroll year to date (spec 3-endpoints-b 4.8): a handler for every operation the api's payroll area declares. */
export const area = Area.make({
  name: "payroll",
  operations: Payroll.operations,
  handlers: PayrollYtd.handlers,
  proposalKinds: { payroll_summary_void: PayrollYtd.voidProposalKind },
  events: Payroll.events
})

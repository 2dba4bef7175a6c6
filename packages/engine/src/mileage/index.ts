import { Mileage } from "@ledger/api"
import * as Area from "../pipeline/Area.ts"
import * as Deduction from "./Deduction.ts"
import * as Recurring from "./Recurring.ts"
import * as Reimbursements from "./Reimbursements.ts"
import * as Trips from "./Trips.ts"
import * as Vehicles from "./Vehicles.ts"

/** Mileage (spec 3-endpoints-b 4.9): a handler for every operation the api's mileage area declares. */
export const area = Area.make({
  name: "mileage",
  operations: Mileage.operations,
  handlers: [...Vehicles.handlers, ...Trips.handlers, ...Recurring.handlers, ...Deduction.handlers, ...Reimbursements.handlers],
  proposalKinds: {
    mileage_reimbursement: Reimbursements.reimbursementProposalKind,
    mileage_reimbursement_void: Reimbursements.reimbursementVoidProposalKind
  },
  events: Mileage.events
})

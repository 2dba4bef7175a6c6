import { EstimatedTaxes as Api } from "@ledger/api"
import * as Area from "../pipeline/Area.ts"
import * as EstimatedTaxes from "./EstimatedTaxes.ts"
import * as Reminders from "./Reminders.ts"

/**
 * Estimated taxes (spec 3-endpoints-b 4.10): a handler for every operation the api's
 * estimated-taxes area declares, and the periodic job that mails the plans' reminders.
 */
export const area = Area.make({
  name: "estimated-taxes",
  operations: Api.operations,
  handlers: EstimatedTaxes.handlers,
  proposalKinds: {
    estimated_tax_payment: EstimatedTaxes.paymentProposalKind,
    estimated_tax_payment_void: EstimatedTaxes.voidProposalKind
  },
  jobKinds: { [Reminders.jobKind]: Reminders.job },
  events: Api.events
})

/** The reminders' scan, for the server's workers and tests on a test clock. */
export * as EstimatedTaxReminders from "./Reminders.ts"

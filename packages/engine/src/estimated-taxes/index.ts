import { EstimatedTaxes as Api } from "@ledger/api"
import * as Area from "../pipeline/Area.ts"
import * as EstimatedTaxes from "./EstimatedTaxes.ts"

/** Estimated taxes (spec 3-endpoints-b 4.10): a handler for every operation the api's estimated-taxes area declares. */
export const area = Area.make({
  name: "estimated-taxes",
  operations: Api.operations,
  handlers: EstimatedTaxes.handlers,
  proposalKinds: { estimated_tax_payment: EstimatedTaxes.paymentProposalKind },
  events: ["estimated_tax.payment_recorded", "estimated_tax.payment_voided"]
})

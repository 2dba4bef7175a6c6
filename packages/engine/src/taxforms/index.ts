import { TaxForms } from "@ledger/api"
import * as Area from "../pipeline/Area.ts"
import * as Amounts from "./Amounts.ts"
import * as Filings from "./Filings.ts"
import * as Payer from "./Payer.ts"
import * as Profiles from "./Profiles.ts"
import * as RecipientCopies from "./RecipientCopies.ts"
import * as W9 from "./W9.ts"

/**
 * Information returns, 1099 forms (spec 3-endpoints-b 4.7): the payer, vendors' boxes and tax
 * profiles (TINs sealed), W-9 requests, a year's amounts, prior amounts, and filings in
 * Publication 1220 format through the InformationReturns port. docs/taxforms.md.
 */
export const area = Area.make({
  name: "taxforms",
  operations: TaxForms.operations,
  handlers: [...Payer.handlers, ...Profiles.handlers, ...W9.handlers, ...Amounts.handlers, ...Filings.handlers, ...RecipientCopies.handlers],
  jobKinds: { [W9.jobKind]: W9.job }
})

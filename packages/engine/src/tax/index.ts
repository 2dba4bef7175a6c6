import { Tax } from "@ledger/api"
import * as Area from "../pipeline/Area.ts"
import * as Mapping from "./Mapping.ts"
import * as Profile from "./Profile.ts"
import * as TaxTrialBalance from "./TaxTrialBalance.ts"

/**
 * Tax returns: mapping and export (spec 3-endpoints-b 4.6). The lines of each return as data, the
 * company's return type, accounts mapped to lines (defaults from account types and subtypes), the
 * trial balance by line read from the reports area, and exports for tax software. docs/tax.md.
 */
export const area = Area.make({
  name: "tax",
  operations: Tax.operations,
  handlers: [...Profile.handlers, ...Mapping.handlers, ...TaxTrialBalance.handlers]
})

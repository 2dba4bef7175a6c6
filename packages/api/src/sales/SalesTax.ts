import { Schema } from "effect"
import { Id, Name, PageQuery, Page, Reason, Timestamp } from "../Common.ts"
import * as Limits from "../Limits.ts"
import * as Operation from "../Operation.ts"
import { AccountCode, IdPath } from "./Shared.ts"

const area = "4.11 Sales tax"

/** A percent as a decimal string with up to 4 places, 0 to 100: "6.25", "0.5", "10". */
export const RatePercent = Schema.String.check(
  Schema.isPattern(new RegExp(`^(?:100(?:\\.0{1,${Limits.taxRateDecimalPlacesMax}})?|\\d{1,2}(?:\\.\\d{1,${Limits.taxRateDecimalPlacesMax}})?)$`, "u"))
).annotate({ description: "A percent, decimal string with up to 4 places, 0 to 100." })

export const TaxAgency = Schema.Struct({
  id: Id,
  name: Name,
  contact_id: Schema.NullOr(Id),
  active: Schema.Boolean,
  created_at: Timestamp
}).annotate({ identifier: "TaxAgency" })

export const TaxRateComponent = Schema.Struct({
  id: Id,
  name: Schema.String,
  agency_id: Id,
  rate_percent: Schema.String,
  payable_account: Schema.String,
  active: Schema.Boolean
})

export const TaxRate = Schema.Struct({
  id: Id,
  name: Name,
  combined: Schema.Boolean,
  agency_id: Schema.NullOr(Id),
  rate_percent: Schema.String.annotate({ description: "A combined rate's is the sum of its components." }),
  payable_account: Schema.NullOr(Schema.String),
  components: Schema.Array(TaxRateComponent),
  active: Schema.Boolean,
  deactivated_at: Schema.NullOr(Timestamp),
  deactivated_reason: Schema.NullOr(Schema.String),
  created_at: Timestamp
}).annotate({ identifier: "TaxRate" })
export type TaxRate = typeof TaxRate.Type

export const createTaxAgency = Operation.make({
  id: "createTaxAgency",
  method: "POST",
  path: "/v1/tax-agencies",
  area,
  summary: "Add a tax agency, optionally linked to the vendor you pay it as.",
  scope: "admin",
  mode: "K",
  body: Schema.Struct({ name: Name, contact_id: Schema.optionalKey(Id) }),
  success: TaxAgency
})

export const listTaxAgencies = Operation.make({
  id: "listTaxAgencies",
  method: "GET",
  path: "/v1/tax-agencies",
  area,
  summary: "Tax agencies.",
  scope: "read",
  mode: "R",
  query: Schema.Struct({ include_inactive: Schema.optionalKey(Schema.Boolean), ...PageQuery }),
  success: Page(TaxAgency)
})

export const createTaxRate = Operation.make({
  id: "createTaxRate",
  method: "POST",
  path: "/v1/tax-rates",
  area,
  summary: "Add a single-agency tax rate. Rates are never edited: a change is a new rate plus deactivation.",
  scope: "admin",
  mode: "K",
  body: Schema.Struct({ name: Name, agency_id: Id, rate_percent: RatePercent, payable_account: AccountCode }),
  success: TaxRate
})

export const listTaxRates = Operation.make({
  id: "listTaxRates",
  method: "GET",
  path: "/v1/tax-rates",
  area,
  summary: "Tax rates, single and combined.",
  scope: "read",
  mode: "R",
  query: Schema.Struct({ include_inactive: Schema.optionalKey(Schema.Boolean), ...PageQuery }),
  success: Page(TaxRate)
})

export const setTaxRateStatus = Operation.make({
  id: "setTaxRateStatus",
  method: "POST",
  path: "/v1/tax-rates/{id}/status",
  area,
  summary: "Activate or deactivate a rate. Deactivating a component deactivates every combined rate using it.",
  scope: "admin",
  mode: "K",
  status: 200,
  pathParams: IdPath,
  body: Schema.Struct({
    active: Schema.Boolean.annotate({ description: "True activates the rate, false deactivates it (and every combined rate using it)." }),
    reason: Reason
  }),
  success: TaxRate
})

export const createCombinedTaxRate = Operation.make({
  id: "createCombinedTaxRate",
  method: "POST",
  path: "/v1/tax-rates/combined",
  area,
  summary: "Combine 2 to 10 single-agency rates; one tax line per jurisdiction, each rounded on its own.",
  scope: "admin",
  mode: "K",
  body: Schema.Struct({
    name: Name,
    component_ids: Schema.Array(Id).check(
      Schema.isMinLength(Limits.taxRateComponentsMin),
      Schema.isMaxLength(Limits.taxRateComponentsMax)
    ).annotate({ description: "The ids of the single rates this rate adds up (state, county, city...)." })
  }),
  success: TaxRate
})

export const operations = [
  createTaxAgency,
  listTaxAgencies,
  createTaxRate,
  listTaxRates,
  setTaxRateStatus,
  createCombinedTaxRate
] as const

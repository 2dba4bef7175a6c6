import { Schema } from "effect"
import { Page, PageQuery, Timestamp } from "../Common.ts"
import * as Operation from "../Operation.ts"
import { area, ReturnLine, ReturnType } from "./Shared.ts"

export const getTaxLines = Operation.make({
  id: "getTaxLines",
  method: "GET",
  path: "/v1/tax/lines",
  area,
  summary: "The lines of a return and its schedules (deductions, Schedule L, M-1), with their form and line numbers.",
  description: "Without return_type: the lines of the company's return type, else of every return type.",
  scope: "read",
  mode: "R",
  query: Schema.Struct({ return_type: Schema.optionalKey(ReturnType), ...PageQuery }),
  success: Page(ReturnLine)
})

export const TaxProfile = Schema.Struct({
  return_type: Schema.NullOr(ReturnType),
  updated_at: Schema.NullOr(Timestamp),
  updated_by: Schema.NullOr(Schema.String)
}).annotate({ identifier: "TaxProfile" })

export const getTaxProfile = Operation.make({
  id: "getTaxProfile",
  method: "GET",
  path: "/v1/tax/profile",
  area,
  summary: "The company's income tax return type (null until it is set).",
  scope: "read",
  mode: "R",
  success: TaxProfile
})

export const setTaxProfile = Operation.make({
  id: "setTaxProfile",
  method: "POST",
  path: "/v1/tax/profile",
  area,
  summary: "Set the company's return type; mappings of each return type are kept apart.",
  scope: "approve",
  mode: "-",
  status: 200,
  body: Schema.Struct({ return_type: ReturnType }),
  success: TaxProfile
})

import { Schema } from "effect"
import { Id, Page, PageQuery, Timestamp } from "../Common.ts"
import * as Operation from "../Operation.ts"
import { AccountCode } from "../sales/Shared.ts"
import { area, Box, Line40, MaskedTin, PayerTinType, Phone, State, Tin, VendorPath, Zip } from "./Shared.ts"

export const Payer = Schema.Struct({
  name: Schema.NullOr(Schema.String),
  name2: Schema.NullOr(Schema.String),
  address1: Schema.NullOr(Schema.String),
  address2: Schema.NullOr(Schema.String),
  city: Schema.NullOr(Schema.String),
  state: Schema.NullOr(Schema.String),
  zip: Schema.NullOr(Schema.String),
  phone: Schema.NullOr(Schema.String),
  tin_type: Schema.NullOr(PayerTinType),
  tin_masked: MaskedTin,
  updated_at: Schema.NullOr(Timestamp)
}).annotate({ identifier: "Payer" })
export type Payer = typeof Payer.Type

export const getPayer = Operation.make({
  id: "getPayer",
  method: "GET",
  path: "/v1/tax-forms/payer",
  area,
  summary: "The payer on the company's 1099s (TIN masked; all null until set).",
  scope: "read",
  mode: "R",
  success: Payer
})

export const setPayer = Operation.make({
  id: "setPayer",
  method: "POST",
  path: "/v1/tax-forms/payer",
  area,
  summary: "Set the payer; the TIN is write-only and needed the first time.",
  scope: "approve",
  mode: "-",
  peopleOnly: true,
  status: 200,
  body: Schema.Struct({
    name: Line40,
    name2: Schema.optionalKey(Line40),
    address1: Line40,
    address2: Schema.optionalKey(Line40),
    city: Line40,
    state: State,
    zip: Zip,
    phone: Phone,
    tin_type: PayerTinType,
    tin: Schema.optionalKey(Tin)
  }),
  success: Payer,
  errors: ["tin_required", "tin_sealing_not_configured"]
})

export const AccountBox = Schema.Struct({ account: Schema.String, box: Box }).annotate({ identifier: "AccountBox" })

export const listAccountBoxes = Operation.make({
  id: "listAccountBoxes",
  method: "GET",
  path: "/v1/tax-forms/account-boxes",
  area,
  summary: "Expense accounts whose payments to 1099 vendors go in a given box.",
  scope: "read",
  mode: "R",
  query: Schema.Struct({ ...PageQuery }),
  success: Page(AccountBox)
})

export const setAccountBox = Operation.make({
  id: "setAccountBox",
  method: "POST",
  path: "/v1/tax-forms/account-boxes",
  area,
  summary: "Map an account to a 1099 box (null removes the mapping).",
  scope: "propose",
  mode: "-",
  status: 200,
  body: Schema.Struct({ account: AccountCode, box: Schema.NullOr(Box) }),
  success: Schema.Struct({ account: Schema.String, box: Schema.NullOr(Box) }),
  errors: ["unknown_account"]
})

export const setVendorBox = Operation.make({
  id: "setVendorBox",
  method: "POST",
  path: "/v1/vendors/{id}/form1099-box",
  area,
  summary: "The 1099 box a vendor's payments go in when their account has none (null: NEC box 1).",
  scope: "propose",
  mode: "-",
  status: 200,
  pathParams: VendorPath,
  body: Schema.Struct({ box: Schema.NullOr(Box) }),
  success: Schema.Struct({ contact_id: Id, box: Schema.NullOr(Box) }),
  errors: ["not_a_vendor"]
})

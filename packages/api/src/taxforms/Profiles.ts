import { Schema } from "effect"
import { Id, Timestamp } from "../Common.ts"
import * as Operation from "../Operation.ts"
import { area, Line40, MaskedTin, State, Tin, TinType, VendorPath, Zip } from "./Shared.ts"

export const TaxClass = Schema.Literals(["individual", "c_corp", "s_corp", "partnership", "trust_estate", "llc_c", "llc_s", "llc_p", "other"]).annotate({ description: "The federal tax classification of Form W-9 line 3a (llc_c, llc_s, llc_p: an LLC taxed as C, S or partnership)." })

export const TinMatchResult = Schema.Literals(["pending", "matched", "mismatched", "not_issued", "invalid", "unavailable"])

export const TaxProfile = Schema.Struct({
  id: Id,
  contact_id: Id,
  legal_name: Schema.String,
  business_name: Schema.NullOr(Schema.String),
  tax_class: TaxClass,
  tax_class_other: Schema.NullOr(Schema.String),
  foreign_partners: Schema.Boolean,
  exempt_payee_code: Schema.NullOr(Schema.String),
  fatca_code: Schema.NullOr(Schema.String),
  address1: Schema.String,
  address2: Schema.NullOr(Schema.String),
  city: Schema.String,
  state: Schema.String,
  zip: Schema.String,
  tin_type: TinType,
  tin_masked: MaskedTin,
  source: Schema.Literals(["entered", "w9"]),
  tin_match: Schema.NullOr(TinMatchResult),
  tin_match_at: Schema.NullOr(Timestamp),
  created_by: Schema.String,
  created_at: Timestamp
}).annotate({ identifier: "VendorTaxProfile" })
export type TaxProfile = typeof TaxProfile.Type

export const getVendorTaxProfile = Operation.make({
  id: "getVendorTaxProfile",
  method: "GET",
  path: "/v1/vendors/{id}/tax-profile",
  area,
  summary: "The vendor's current tax profile (TIN masked).",
  scope: "read",
  mode: "R",
  pathParams: VendorPath,
  success: TaxProfile,
  errors: ["not_a_vendor"]
})

const Code = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(4))

export const ProfileInput = Schema.Struct({
  legal_name: Line40,
  business_name: Schema.optionalKey(Line40.annotate({ description: "The business or disregarded entity name, when it differs (W-9 line 2)." })),
  tax_class: TaxClass,
  tax_class_other: Schema.optionalKey(Line40.annotate({ description: "With tax_class other: the classification as written." })),
  foreign_partners: Schema.optionalKey(Schema.Boolean.annotate({ description: "W-9 line 3b: a partnership or trust with foreign partners, owners or beneficiaries." })),
  exempt_payee_code: Schema.optionalKey(Code.annotate({ description: "W-9 line 4: the exempt payee code, if any." })),
  fatca_code: Schema.optionalKey(Code.annotate({ description: "W-9 line 4: the FATCA exemption code, if any." })),
  address1: Line40,
  address2: Schema.optionalKey(Line40),
  city: Line40,
  state: State,
  zip: Zip,
  tin_type: TinType,
  tin: Tin
})

export const setVendorTaxProfile = Operation.make({
  id: "setVendorTaxProfile",
  method: "POST",
  path: "/v1/vendors/{id}/tax-profile",
  area,
  summary: "Record a vendor's W-9 details; the new profile supersedes the old. The TIN is sealed at rest.",
  scope: "propose",
  mode: "K",
  peopleOnly: true,
  pathParams: VendorPath,
  body: ProfileInput,
  success: TaxProfile,
  errors: ["not_a_vendor", "tin_sealing_not_configured"]
})

export const revealVendorTin = Operation.make({
  id: "revealVendorTin",
  method: "POST",
  path: "/v1/vendors/{id}/tax-profile/reveal",
  area,
  summary: "The vendor's full TIN, for a person with the right to see full tax ids (admin scope); audit-logged.",
  scope: "read",
  mode: "-",
  peopleOnly: true,
  status: 200,
  pathParams: VendorPath,
  body: Schema.Struct({}),
  success: Schema.Struct({ contact_id: Id, profile_id: Id, tin_type: TinType, tin: Schema.String }),
  errors: ["not_a_vendor", "tax_profile_missing"]
})

export const TinMatch = Schema.Struct({
  id: Id,
  contact_id: Id,
  profile_id: Id,
  result: TinMatchResult,
  provider_reference: Schema.NullOr(Schema.String),
  created_by: Schema.String,
  created_at: Timestamp
}).annotate({ identifier: "TinMatch" })

export const matchVendorTin = Operation.make({
  id: "matchVendorTin",
  method: "POST",
  path: "/v1/vendors/{id}/tin-match",
  area,
  summary: "Ask the IRS TIN matching service (through the filing provider) whether the name and TIN agree; recorded.",
  scope: "propose",
  mode: "-",
  peopleOnly: true,
  status: 200,
  pathParams: VendorPath,
  body: Schema.Struct({}),
  success: TinMatch,
  errors: ["not_a_vendor", "tax_profile_missing", "tax_filing_not_configured"]
})

import { Schema } from "effect"
import { DryRun, Timestamp } from "../Common.ts"
import * as Operation from "../Operation.ts"
import { AccountCode } from "../sales/Shared.ts"
import { area, LineId, ReturnType } from "./Shared.ts"

/** At most this many mappings in one request. */
export const mappingsPerRequestMax = 1000

export const AccountMapping = Schema.Struct({
  account: Schema.String,
  name: Schema.String,
  type: Schema.String,
  subtype: Schema.NullOr(Schema.String),
  line: Schema.NullOr(LineId),
  line_description: Schema.NullOr(Schema.String),
  source: Schema.NullOr(Schema.Literals(["manual", "default"])),
  updated_at: Schema.NullOr(Timestamp)
}).annotate({ identifier: "TaxAccountMapping" })

export const Mapping = Schema.Struct({
  return_type: ReturnType,
  accounts: Schema.Array(AccountMapping),
  unmapped_count: Schema.Int
}).annotate({ identifier: "TaxMapping" })

const ReturnTypeQuery = Schema.Struct({ return_type: Schema.optionalKey(ReturnType) })

export const getTaxMapping = Operation.make({
  id: "getTaxMapping",
  method: "GET",
  path: "/v1/tax/mapping",
  area,
  summary: "Every active account and the return line it is mapped to (null: unmapped).",
  description: "return_type defaults to the company's; 422 `tax_return_type_required` when neither is set.",
  scope: "read",
  mode: "R",
  query: ReturnTypeQuery,
  success: Mapping,
  errors: ["validation_failed", "tax_return_type_required"]
})

export const MappingInput = Schema.Struct({
  account: AccountCode,
  line: Schema.NullOr(LineId).annotate({ description: "The return line's id; null clears the account's mapping." })
}).annotate({ identifier: "TaxMappingInput" })

export const MappingChange = Schema.Struct({
  account: Schema.String,
  from: Schema.NullOr(Schema.String),
  to: Schema.NullOr(Schema.String)
})

export const MappingResult = Schema.Struct({
  dry_run: Schema.Boolean,
  return_type: ReturnType,
  changes: Schema.Array(MappingChange),
  mapping: Mapping
}).annotate({ identifier: "TaxMappingResult" })

export const setTaxMapping = Operation.make({
  id: "setTaxMapping",
  method: "POST",
  path: "/v1/tax/mapping",
  area,
  summary: "Map accounts to return lines (null clears an account's line).",
  scope: "approve",
  mode: "K",
  status: 200,
  body: Schema.Struct({
    return_type: Schema.optionalKey(ReturnType),
    mappings: Schema.Array(MappingInput).check(Schema.isMinLength(1), Schema.isMaxLength(mappingsPerRequestMax)).annotate({
      description: "Accounts and the return line each maps to."
    }),
    dry_run: DryRun
  }),
  success: MappingResult,
  errors: ["tax_return_type_required", "unknown_account", "unknown_tax_line"]
})

export const applyTaxMappingDefaults = Operation.make({
  id: "applyTaxMappingDefaults",
  method: "POST",
  path: "/v1/tax/mapping/defaults",
  area,
  summary: "Fill unmapped accounts with the usual line for their account type and subtype; mapped accounts are left alone.",
  scope: "approve",
  mode: "K",
  status: 200,
  body: Schema.Struct({ return_type: Schema.optionalKey(ReturnType), dry_run: DryRun }),
  success: MappingResult,
  errors: ["tax_return_type_required"]
})

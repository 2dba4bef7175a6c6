import { applyTaxMappingDefaults, getTaxMapping, setTaxMapping } from "./Mapping.ts"
import { getTaxLines, getTaxProfile, setTaxProfile } from "./Lines.ts"
import { exportTaxReturn, getTaxTrialBalance, listTaxExports } from "./TrialBalance.ts"

/** Tax returns: mapping the books to return lines and exports for tax software (spec 3-endpoints-b 4.6). */
export * as Lines from "./Lines.ts"
export * as Mapping from "./Mapping.ts"
export * as Shared from "./Shared.ts"
export * as TrialBalance from "./TrialBalance.ts"

export const operations = [
  getTaxLines,
  getTaxProfile,
  setTaxProfile,
  getTaxMapping,
  setTaxMapping,
  applyTaxMappingDefaults,
  getTaxTrialBalance,
  exportTaxReturn,
  listTaxExports
] as const

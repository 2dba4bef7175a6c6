import * as BalanceSheet from "./BalanceSheet.ts"
import * as GeneralLedger from "./GeneralLedger.ts"
import * as ProfitAndLoss from "./ProfitAndLoss.ts"
import * as TrialBalance from "./TrialBalance.ts"

export * as BalanceSheet from "./BalanceSheet.ts"
export * as GeneralLedger from "./GeneralLedger.ts"
export * as ProfitAndLoss from "./ProfitAndLoss.ts"
export * as Shared from "./Shared.ts"
export * as TrialBalance from "./TrialBalance.ts"

/** Financial reports: trial balance, profit and loss, balance sheet, general ledger. */
export const operations = [
  TrialBalance.getTrialBalance,
  ProfitAndLoss.getProfitAndLoss,
  BalanceSheet.getBalanceSheet,
  GeneralLedger.getGeneralLedger
] as const

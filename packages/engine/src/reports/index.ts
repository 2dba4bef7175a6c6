import { Reports } from "@ledger/api"
import * as Area from "../pipeline/Area.ts"
import * as BalanceSheet from "./BalanceSheet.ts"
import * as GeneralLedger from "./GeneralLedger.ts"
import * as ProfitAndLoss from "./ProfitAndLoss.ts"
import * as TrialBalance from "./TrialBalance.ts"

/** Financial reports, read from the totals the ledger keeps; each report's contract is in @ledger/api's reports folder. */
export const area = Area.make({
  name: "reports",
  operations: Reports.operations,
  handlers: [...TrialBalance.handlers, ...ProfitAndLoss.handlers, ...BalanceSheet.handlers, ...GeneralLedger.handlers]
})

/** Reports as CSV, for other areas' CSV answers (aging). */
export * as Csv from "../kernel/formats/Csv.ts"

/** The trial balance as of a date, for the tax area's trial balance by return line. */
export * as TrialBalance from "./TrialBalance.ts"

import { Effect } from "effect"
import { Reports } from "@ledger/api"
import * as Handler from "../kernel/Handler.ts"
import type { Handler as HandlerType } from "../kernel/Handler.ts"
import * as BalanceSheet from "./BalanceSheet.ts"
import * as GeneralLedgerReport from "./GeneralLedgerReport.ts"
import * as ProfitAndLoss from "./ProfitAndLoss.ts"
import * as TrialBalance from "./TrialBalance.ts"

/** The reports' handlers, by operation id. Each report's contract is in @ledger/api's reports folder. */
export const handlers: ReadonlyArray<readonly [string, HandlerType]> = [
  Handler.make(Reports.TrialBalance.getTrialBalance, ({ query }) =>
    Effect.map(TrialBalance.report(query), (body) => ({ body }))),
  Handler.make(Reports.ProfitAndLoss.getProfitAndLoss, ({ query }) =>
    Effect.map(ProfitAndLoss.report(query), (body) => ({ body }))),
  Handler.make(Reports.BalanceSheet.getBalanceSheet, ({ query }) =>
    Effect.map(BalanceSheet.report(query), (body) => ({ body }))),
  Handler.make(Reports.GeneralLedger.getGeneralLedger, ({ query }) =>
    Effect.map(GeneralLedgerReport.report(query), (body) => ({ body })))
]

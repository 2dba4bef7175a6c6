import { Effect } from "effect"
import type { SetupStep } from "../kernel/Registry.ts"
import * as Accounts from "./Accounts.ts"
import * as FiscalYear from "./FiscalYear.ts"
import * as Periods from "./Periods.ts"
import * as StarterCharts from "./StarterCharts.ts"

/**
 * The ledger's part of creating a company, inside the creation's transaction: the chosen starter
 * chart with its default accounts, and (unless `periods` is false) the monthly periods of the
 * fiscal year containing today and of the next one.
 */
export const step: SetupStep = (request) =>
  Effect.gen(function*() {
    const accounts = yield* Accounts.applyChart(request.companyId, StarterCharts.byName(request.starterChart))
    let periods = 0
    if (request.periods) {
      const current = FiscalYear.containing(request.today, request.fiscalYearStartMonth)
      for (const year of [current, current + 1]) {
        periods += (yield* Periods.createMonthly(request.companyId, year, request.fiscalYearStartMonth)).length
      }
    }
    return { accounts_created: accounts.length, periods_created: periods }
  }).pipe(Effect.orDie)

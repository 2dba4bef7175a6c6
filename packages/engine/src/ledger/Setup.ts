import { Effect } from "effect"
import type { SetupStep } from "../kernel/Registry.ts"
import * as Charts from "./accounts/Charts.ts"
import * as StarterCharts from "./accounts/StarterCharts.ts"
import * as FiscalYear from "./periods/FiscalYear.ts"
import * as Periods from "./periods/Periods.ts"

/**
 * The ledger's part of creating a company, inside the creation's transaction: the chosen starter
 * chart with its default accounts, and (unless `periods` is false) the monthly periods of the
 * fiscal year containing today and of the next one.
 */
export const step: SetupStep = (request) =>
  Effect.gen(function*() {
    const accounts = yield* Charts.applyChart(request.companyId, StarterCharts.byName(request.starterChart))
    let periods = 0
    if (request.periods) {
      const current = FiscalYear.containing(request.today, request.fiscalYearStartMonth)
      for (const year of [current, current + 1]) {
        periods += (yield* Periods.createMonthly(request.companyId, year, request.fiscalYearStartMonth)).length
      }
    }
    return { accounts_created: accounts.length, periods_created: periods }
  }).pipe(Effect.orDie)

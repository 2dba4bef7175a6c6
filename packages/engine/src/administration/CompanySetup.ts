import { Effect } from "effect"
import type { Company } from "@ledger/api"
import type { Services } from "../kernel/Handler.ts"
import * as LedgerSetup from "../ledger/Setup.ts"

/**
 * What a new company gets besides its owner: the starter chart and the periods it asked for.
 * Areas that own those records add a step here, so company creation stays one transaction.
 */
export interface SetupRequest {
  readonly companyId: string
  readonly starterChart: Company.StarterChartName
  readonly periods: boolean
  readonly fiscalYearStartMonth: number
  readonly today: string
}

export interface SetupResult {
  readonly accounts_created: number
  readonly periods_created: number
}

export type SetupStep = (request: SetupRequest) => Effect.Effect<Partial<SetupResult>, never, Services>

/** Each area that sets up records for a new company adds its step here, in dependency order. */
const steps: ReadonlyArray<SetupStep> = [LedgerSetup.step]

export const run = Effect.fn("CompanySetup.run")(function*(request: SetupRequest) {
  let accounts = 0
  let periods = 0
  for (const step of steps) {
    const result = yield* step(request)
    accounts += result.accounts_created ?? 0
    periods += result.periods_created ?? 0
  }
  return { accounts_created: accounts, periods_created: periods } satisfies SetupResult
})

import { Effect } from "effect"
import { Registry, type SetupRequest, type SetupResult } from "../kernel/Registry.ts"

export type { SetupRequest, SetupResult, SetupStep } from "../kernel/Registry.ts"

/**
 * What a new company gets besides its owner: the starter chart and the periods it asked for. Each
 * area that sets up records for a new company declares its step in its `Area` (`setupSteps`); they
 * run in the order of the areas, inside the creation's one transaction.
 */
export const run = Effect.fn("CompanySetup.run")(function*(request: SetupRequest) {
  const registry = yield* Registry
  let accounts = 0
  let periods = 0
  for (const step of registry.setupSteps) {
    const result = yield* step(request)
    accounts += result.accounts_created ?? 0
    periods += result.periods_created ?? 0
  }
  return { accounts_created: accounts, periods_created: periods } satisfies SetupResult
})

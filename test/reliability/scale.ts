/**
 * How big the reliability suite runs. CI runs the small version on every change; `pnpm
 * test:reliability --long` (LEDGER_RELIABILITY_LONG=1) runs the big one and prints its figures,
 * which docs/reliability.md records.
 */
export const long = process.env.LEDGER_RELIABILITY_LONG === "1"

export const scale = long
  ? { stormKeys: 1_000, stormRetries: 10, crashCycles: 200, fuzzBodiesPerOperation: 10_000 }
  : { stormKeys: 24, stormRetries: 6, crashCycles: 4, fuzzBodiesPerOperation: 0 }

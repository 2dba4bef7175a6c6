import { Effect } from "effect"
import type { ApiError } from "@ledger/api"
import * as Row from "../kernel/Row.ts"

/**
 * Totals across accounts (ADR 0717's addendum). Each account's figures are within ±(2^53 − 1)
 * cents (the database bounds every account's turnover, migration 0045), but a report's column total
 * adds many of them: ten accounts at 1e15 cents make a total no JSON number states exactly. These
 * add safe figures exactly and say when a total is past the range, so that a report answers 422
 * `amount_out_of_range` rather than a rounded, wrong total.
 */

/** The largest magnitude of cents the API states (Number.MAX_SAFE_INTEGER). */
export const limitCents = Number.MAX_SAFE_INTEGER

/** The exact sum of integer cents, in bigint. */
export const exactSum = (values: Iterable<number>): bigint => {
  let sum = 0n
  for (const value of values) sum += BigInt(value)
  return sum
}

/**
 * The sum of safe integer cents when it is within ±limitCents, else undefined. Added as numbers
 * while every partial sum stays safe (each addition is then exact); the first partial sum past
 * the range starts the sum again in bigint, since later figures may bring it back.
 */
export const sum = (values: ReadonlyArray<number>): number | undefined => {
  let total = 0
  for (const value of values) {
    total += value
    if (!Number.isSafeInteger(total)) {
      const exact = exactSum(values)
      return exact > BigInt(limitCents) || exact < -BigInt(limitCents) ? undefined : Number(exact)
    }
  }
  return total
}

/** A report's way to total figures: the sum, or 0 once one total is past the range (see `withTotals`). */
export type Total = (values: ReadonlyArray<number>) => number

/**
 * Runs `build` with a `total` for its sums across accounts: its result, or `amount_out_of_range`
 * for the first total past ±limitCents. One Effect per report, as `Row.withSummedCents` is.
 */
export const withTotals = <A>(build: (total: Total) => A): Effect.Effect<A, ApiError.LedgerError> =>
  Effect.suspend(() => {
    let past: { readonly value: bigint } | undefined
    const total: Total = (values) => {
      const result = sum(values)
      if (result !== undefined) return result
      past ??= { value: exactSum(values) }
      return 0
    }
    const result = build(total)
    return past === undefined ? Effect.succeed(result) : Effect.fail(Row.amountOutOfRange(past.value))
  })


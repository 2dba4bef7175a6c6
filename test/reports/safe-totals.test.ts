import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { Effect, Result } from "effect"
import { SafeTotals } from "@ledger/engine/rules"

/**
 * Totals across accounts (ADR 0717's addendum): each figure is a safe integer, their sum need not
 * be. `sum` is exact when the total is within ±(2^53 − 1) and says so when it is not, whatever
 * the order of the figures and however far partial sums stray; `withTotals` turns the first total
 * past the range into 422 amount_out_of_range.
 */

const limit = BigInt(Number.MAX_SAFE_INTEGER)
/** Safe integer cents, often near the bound so that sums of a few pass it. */
const cents = fc.oneof(
  fc.integer({ min: -1_000_000, max: 1_000_000 }),
  fc.maxSafeInteger(),
  fc.maxSafeInteger().map((value) => -value),
  fc.constantFrom(Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 1e15, -1e15)
)

describe("SafeTotals.sum", () => {
  it("is the exact sum when it is within the safe range, and undefined when it is not", () => {
    fc.assert(fc.property(fc.array(cents, { maxLength: 30 }), (values) => {
      const exact = values.reduce((sum, value) => sum + BigInt(value), 0n)
      const within = exact <= limit && exact >= -limit
      expect(SafeTotals.sum(values)).toBe(within ? Number(exact) : undefined)
    }), { numRuns: 2_000 })
  })

  it("does not depend on the order of the figures", () => {
    fc.assert(fc.property(fc.array(cents, { maxLength: 20 }).chain((values) =>
      fc.tuple(fc.constant(values), fc.shuffledSubarray(values, { minLength: values.length, maxLength: values.length }))
    ), ([values, shuffled]) => {
      expect(SafeTotals.sum(shuffled)).toBe(SafeTotals.sum(values))
    }))
  })

  it("comes back into the range exactly after a partial sum strays past it", () => {
    // As floating point: 2^53 + 1 rounds, and taking the figure off again is one cent out.
    expect(SafeTotals.sum([Number.MAX_SAFE_INTEGER, 2, -Number.MAX_SAFE_INTEGER])).toBe(2)
    expect(SafeTotals.sum([Number.MAX_SAFE_INTEGER, 1])).toBeUndefined()
    expect(SafeTotals.sum([Number.MAX_SAFE_INTEGER, 0])).toBe(Number.MAX_SAFE_INTEGER)
  })
})

describe("SafeTotals.withTotals", () => {
  it("answers what the build made when every total is in range, else amount_out_of_range with the exact figure", () => {
    fc.assert(fc.property(fc.array(fc.array(cents, { maxLength: 8 }), { maxLength: 5 }), (columns) => {
      const result = Effect.runSync(Effect.result(SafeTotals.withTotals((total) => columns.map(total))))
      const pastIndex = columns.findIndex((values) => SafeTotals.sum(values) === undefined)
      if (pastIndex === -1) {
        expect(Result.isSuccess(result)).toBe(true)
        expect(Result.getOrThrow(result)).toEqual(columns.map((values) => SafeTotals.sum(values)))
      } else {
        expect(Result.isFailure(result)).toBe(true)
        const error = (result as Result.Failure<unknown, { type: string; message: string; details: unknown }>).failure
        expect(error.type).toBe("amount_out_of_range")
        expect(error.details).toEqual({ limit_cents: Number.MAX_SAFE_INTEGER })
        expect(error.message).toContain(String(columns[pastIndex]!.reduce((sum, value) => sum + BigInt(value), 0n)))
      }
    }), { numRuns: 500 })
  })
})

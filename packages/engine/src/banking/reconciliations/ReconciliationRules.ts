/**
 * Reconciliation arithmetic (spec 3.6), as pure functions. Amounts are each entry's effect on the
 * bank's ledger account in its natural direction (an asset's debits, a card's credits, positive).
 *
 *   cleared balance = beginning balance + sum of cleared items
 *   difference      = statement ending balance - cleared balance     (finish only at 0)
 *   book balance    = beginning balance + cleared + uncleared          (as of the statement date)
 */

export interface Item {
  readonly entryId: number
  readonly date: string
  readonly amountCents: number
}

export const sum = (items: ReadonlyArray<{ readonly amountCents: number }>): number =>
  items.reduce((total, item) => total + item.amountCents, 0)

export const clearedBalance = (beginningCents: number, cleared: ReadonlyArray<Item>): number => beginningCents + sum(cleared)

export const difference = (statementEndingCents: number, beginningCents: number, cleared: ReadonlyArray<Item>): number =>
  statementEndingCents - clearedBalance(beginningCents, cleared)

export const canFinish = (statementEndingCents: number, beginningCents: number, cleared: ReadonlyArray<Item>): boolean =>
  difference(statementEndingCents, beginningCents, cleared) === 0

/** Deposits (money in) and payments (money out) of a list of items, for the report. */
export const split = <T extends { readonly amountCents: number }>(items: ReadonlyArray<T>) => ({
  deposits: items.filter((item) => item.amountCents > 0),
  payments: items.filter((item) => item.amountCents < 0)
})

/**
 * The tie-out of a report: what the statement says plus what the bank has not seen yet must be
 * what the books say.
 */
export const tieOut = (input: {
  readonly beginningCents: number
  readonly statementEndingCents: number
  readonly cleared: ReadonlyArray<Item>
  readonly uncleared: ReadonlyArray<Item>
  readonly bookBalanceCents: number
}) => {
  const parts = split(input.cleared)
  const unclearedCents = sum(input.uncleared)
  return {
    beginning_balance_cents: input.beginningCents,
    cleared_deposits_cents: sum(parts.deposits),
    cleared_payments_cents: sum(parts.payments),
    statement_ending_balance_cents: input.statementEndingCents,
    uncleared_cents: unclearedCents,
    book_balance_cents: input.bookBalanceCents,
    difference_cents: difference(input.statementEndingCents, input.beginningCents, input.cleared)
  }
}

/** Dates an entry may be cleared on: on or before the statement date. */
export const clearable = (item: Item, statementDate: string): boolean => item.date <= statementDate

import type { PromiseClient } from "@ledger/client"

/**
 * Balances as a test sees them: read through the public API (GET /v1/accounts with balances), and
 * compared with what the test expects, account by account.
 */

export interface Difference {
  readonly account: string
  readonly expectedCents: number
  /** Null when the chart has no such account. */
  readonly actualCents: number | null
}

/** Every account's balance in cents by code, signed in its natural direction. */
export const read = async (client: PromiseClient, asOf?: string): Promise<Readonly<Record<string, number>>> => {
  const balances: Record<string, number> = {}
  const accounts = client.iterate("listAccounts", {
    include_balances: true,
    include_inactive: true,
    limit: 1_000,
    ...(asOf === undefined ? {} : { as_of: asOf })
  })
  for await (const account of accounts) {
    balances[account.code] = (account as { balance_cents?: number }).balance_cents ?? 0
  }
  return balances
}

/** The accounts whose balance is not the expected one, in the order they were expected. */
export const compare = (
  expected: Readonly<Record<string, number>>,
  actual: Readonly<Record<string, number>>
): ReadonlyArray<Difference> =>
  Object.entries(expected).flatMap(([account, expectedCents]) => {
    const actualCents = Object.hasOwn(actual, account) ? actual[account]! : null
    return actualCents === expectedCents ? [] : [{ account, expectedCents, actualCents }]
  })

const cents = (value: number) => {
  const sign = value < 0 ? "-" : ""
  const absolute = Math.abs(value)
  return `${sign}${Math.trunc(absolute / 100).toLocaleString("en-US")}.${String(absolute % 100).padStart(2, "0")}`
}

/** A failed balance assertion, with one line per account that differs. */
export class BalanceMismatch extends Error {
  override readonly name = "BalanceMismatch"
  constructor(readonly differences: ReadonlyArray<Difference>, readonly asOf: string) {
    super(
      [
        `Balances as of ${asOf} differ on ${differences.length} account(s):`,
        ...differences.map((difference) =>
          `  ${difference.account}: expected ${cents(difference.expectedCents)}, ${
            difference.actualCents === null ? "no such account" : `got ${cents(difference.actualCents)}`
          }`
        )
      ].join("\n")
    )
  }
}

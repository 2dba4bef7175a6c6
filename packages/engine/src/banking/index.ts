import { Banking } from "@ledger/api"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import * as Row from "../kernel/Row.ts"
import * as Area from "../pipeline/Area.ts"
import * as BankLineLinks from "./lines/BankLineLinks.ts"
import * as BankAccounts from "./accounts/BankAccounts.ts"
import * as BankFeeds from "./feeds/BankFeeds.ts"
import * as BankLines from "./lines/BankLines.ts"
import * as BankRules from "./rules/BankRules.ts"
import * as Imports from "./Imports.ts"
import * as Matching from "./lines/Matching.ts"
import * as Reconciliations from "./reconciliations/Reconciliations.ts"

/**
 * Banking (spec 4.5, 4.6): bank accounts, statement imports and feeds, bank lines (categorized
 * through the ledger's governed path), rules, matching and reconciliations.
 */
export const area = Area.make({
  name: "banking",
  operations: Banking.operations,
  handlers: [
    ...BankAccounts.handlers,
    ...Imports.handlers,
    ...Matching.handlers,
    ...BankLines.handlers,
    ...BankRules.handlers,
    ...BankFeeds.handlers,
    ...Reconciliations.handlers
  ],
  proposalKinds: { bank_line: BankLines.proposalKind, bank_transfer: Matching.transferProposalKind },
  protections: [BankAccounts.ledgerAccountProtection],
  // A reversed entry (a void, a reversal) releases the bank lines matched to it (issue 19 item 2).
  reversalHooks: [({ entryId }) => Effect.asVoid(BankLineLinks.releaseEntry(entryId))],
  events: Banking.events
})

/** Bank lines as the bank side of a payment, for the sales area. */
export * as BankLineLinks from "./lines/BankLineLinks.ts"

/** A bank line as other areas read it. */
export interface SpendingLine {
  readonly id: number
  readonly bankAccountId: number
  readonly date: string
  readonly amountCents: number
  readonly payee: string | null
}

/**
 * READ-ONLY, for the receipts area's candidates: the company's bank lines of money out that the
 * bank has posted (not pending), not excluded or withdrawn, of exactly `amountCents` out or dated
 * within `windowDays` of `date`; newest first, at most `limit` (capped at 500).
 */
export const spendingLinesNear = Effect.fn("Banking.spendingLinesNear")(function*(company: string, near: {
  readonly amountCents: number | null
  readonly date: string | null
  readonly windowDays: number
  readonly limit: number
}) {
  const sql = yield* SqlClient.SqlClient
  if (near.amountCents === null && near.date === null) return [] as ReadonlyArray<SpendingLine>
  const rows = yield* sql<Record<string, unknown>>`SELECT id, bank_account_id, line_date, amount_cents, payee FROM bank_lines
    WHERE company_id = ${company} AND amount_cents < 0 AND NOT pending AND status <> 'excluded' AND withdrawn_at IS NULL
    AND (${near.amountCents === null ? sql`false` : sql`amount_cents = ${-near.amountCents}`}
      OR ${near.date === null ? sql`false` : sql`line_date BETWEEN ${near.date}::date - ${near.windowDays}::int AND ${near.date}::date + ${near.windowDays}::int`})
    ORDER BY line_date DESC, id DESC LIMIT ${Math.min(Math.max(near.limit, 1), 500)}`.pipe(Effect.orDie)
  return rows.map((row): SpendingLine => ({
    id: Row.int(row.id),
    bankAccountId: Row.int(row.bank_account_id),
    date: Row.date(row.line_date),
    amountCents: Row.int(row.amount_cents),
    payee: (row.payee as string | null) ?? null
  }))
})
